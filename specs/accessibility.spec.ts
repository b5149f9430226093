import { test, expect } from 'nestwright';

/**
 * An accessibility audit of each app's main screens (docs/accessibility.md). The findings the apps
 * keep on purpose, or cannot lose without changing what other specs test, are accepted in
 * `__a11y__/accessibility.spec.json`, each with its reason: a new one fails the test.
 */

test.describe('Shop', () => {
  test.use({ apk: 'fixtures/apks/shop.apk' });

  test('sign-in screen', async ({ app }) => {
    await expect(app.getById('email')).toBeVisible();
    await expect(app).toPassAccessibilityAudit({ baseline: true });
  });

  test('catalog', async ({ app }) => {
    await app.launch({ activity: '.CatalogActivity' });
    await expect(app.getById('product_row').first()).toBeVisible({ timeout: 20_000 });
    await expect(app).toPassAccessibilityAudit({ baseline: true });
  });

  test('product screen: its three documented findings', async ({ app }) => {
    await app.intent({ data: 'nwshop://product/42' });
    await expect(app.getById('add_to_cart')).toBeVisible({ timeout: 10_000 });
    const { findings } = await app.accessibilityAudit({
      minimumSeverity: 'warning',
      rules: { except: ['DuplicateSpeakableTextCheck'] },
    });
    expect(findings.map((f) => `${f.rule} ${f.selector}`)).toEqual([
      'SpeakableTextPresentCheck id=share',
      'TouchTargetSizeCheck id=close_promo',
      'TextContrastCheck text="Rated 4.5 of 5"',
    ]);
    await expect(app).toPassAccessibilityAudit({ baseline: true });
  });
});

test.describe('Notes', () => {
  test.use({ apk: 'fixtures/apks/notes.apk' });

  test('note list and editor', async ({ app }) => {
    await expect(app.getByText('New note')).toBeVisible();
    await expect(app).toPassAccessibilityAudit({ baseline: true });
    await app.getByText('New note').tap();
    await expect(app.getById('title')).toBeVisible();
    await expect(app).toPassAccessibilityAudit({ baseline: true });
  });
});

test.describe('Chat', () => {
  test.use({ apk: 'fixtures/apks/chat.apk' });

  test('join screen', async ({ app }) => {
    await expect(app.getById('name')).toBeVisible();
    await expect(app).toPassAccessibilityAudit({ baseline: true });
  });
});

test.describe('Settings', () => {
  test.use({ apk: 'com.android.settings' });

  test('main list', async ({ app }) => {
    await expect(app.getByDesc('Search settings')).toBeVisible();
    await expect(app).toPassAccessibilityAudit({ baseline: true });
  });
});

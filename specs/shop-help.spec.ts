import { existsSync } from 'node:fs';
import { test, expect } from 'nestwright';

/**
 * A hybrid screen (docs/webviews.md): the Shop's help centre is a web page in a WebView. The
 * native steps open it; the web steps use Playwright's own `Page`, locators and matchers; the
 * page's "Back to shop" closes the screen through the app's JavaScript bridge.
 */
test.use({ apk: 'fixtures/apks/shop.apk' });

// The simulator renders WebViews in Debian's Chromium; the Appium provider has no `webview` extension.
test.skip(({ device }) => device.provider === 'appium', 'the appium provider offers no webview extension');
test.skip(
  !process.env.NESTWRIGHT_CHROMIUM && !existsSync('/usr/bin/chromium'),
  "the simulator's WebViews need Debian's chromium (apt-get install chromium)",
);

test('the help centre answers a refund question, then goes back to the shop', async ({ app }) => {
  await app.launch({ activity: '.CatalogActivity' });
  await app.getByRole('button', { name: 'Help' }).tap();

  const help = await app.webview();
  await help.getByPlaceholder('Search help').fill('refund');
  await expect(help.getByRole('button', { name: /\?$/ })).toHaveCount(1);
  await help.getByRole('button', { name: 'How do I get a refund?' }).click();
  await expect(help.getByText('within 30 days')).toBeVisible();

  // The same page, as the app's accessibility tree shows it: native locators see it too.
  await expect(app.getByText('within 30 days')).toBeVisible();

  await help.getByRole('button', { name: 'Back to shop' }).click();
  await expect(app).toHaveActivity('.CatalogActivity');
});

import { test, expect } from 'nestwright';

test.use({ apk: 'com.android.settings' });

test('search WLAN finds Wi-Fi; turning it on finds networks', async ({ app }) => {
  await app.getByDesc('Search settings').tap();
  await app.getById('search_src_text').fill('WLAN');
  await app.getByText('Wi-Fi', { exact: true }).tap();
  await expect(app).toHaveActivity('.WifiSettingsActivity');
  await app.getByRole('switch', { name: 'Use Wi-Fi' }).tap();
  await expect(app.getByRole('switch', { name: 'Use Wi-Fi' })).toBeChecked();
  await expect(app.getByText('HomeNet')).toBeVisible();
});

test('a fresh instance has Wi-Fi off again', async ({ app }) => {
  await expect(app.getByText('Wi-Fi off')).toBeVisible();
});

test('dark theme toggles, and back returns to the list', async ({ app }) => {
  await app.getByText('Display').tap();
  const dark = app.getByRole('switch', { name: 'Dark theme' });
  await dark.tap();
  await expect(dark).toBeChecked();
  await app.press('back');
  await expect(app.getByText('Dark theme on')).toBeVisible();
});

test('about phone shows the Android version', async ({ app }) => {
  await app.getByText('About phone').tap();
  const row = app.getByRole('group').filter({ hasText: 'Android version' });
  await expect(row).toContainText('15');
  await row.tap();
  await expect(app.getByText('Android 15')).toBeVisible();
});

test('a search with no result says so', async ({ app }) => {
  await app.getByDesc('Search settings').tap();
  await app.getById('search_src_text').fill('teleport');
  await app.press('enter');
  await expect(app.getById('empty')).toContainText('No results');
});

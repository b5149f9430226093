import { test, expect } from 'nestwright';

// Settings is a system app: it is in every space, so use.apk names its package, no APK needed.
test.use({ apk: 'com.android.settings' });

test('finds Wi-Fi by searching "WLAN" and turns it on', async ({ app }) => {
  await app.getByDesc('Search settings').tap();
  await app.getById('search_src_text').fill('WLAN');
  // Search knows Wi-Fi by its other names; the result row opens the Wi-Fi screen.
  await app.getByText('Wi-Fi', { exact: true }).tap();
  await expect(app).toHaveActivity('.WifiSettingsActivity');

  const wifi = app.getByRole('switch', { name: 'Use Wi-Fi' });
  await expect(wifi).not.toBeChecked();
  await wifi.tap();
  await expect(wifi).toBeChecked();
  // The scan takes a moment after Wi-Fi comes on: the assertion waits for its results.
  await expect(app.getByText('HomeNet')).toBeVisible({ timeout: 15_000 });
});

test('every test gets Settings as new: Wi-Fi is off again', async ({ app }) => {
  await expect(app.getByText('Wi-Fi off')).toBeVisible();
});

test('a search with no match says so', async ({ app }) => {
  await app.getByDesc('Search settings').tap();
  await app.getById('search_src_text').fill('teleport');
  await expect(app.getById('empty')).toHaveText('No results for "teleport"');
});

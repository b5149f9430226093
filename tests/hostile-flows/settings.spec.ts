import { test, expect } from 'nestwright';

test.use({ apk: 'com.android.settings' });

test('search WLAN opens Wi-Fi; turning it on finds networks', async ({ app }) => {
  await app.getByDesc('Search settings').tap();
  await app.getById('search_src_text').fill('WLAN');
  await app.getByText('Wi-Fi', { exact: true }).tap();
  await expect(app).toHaveActivity('.WifiSettingsActivity');
  const wifi = app.getByRole('switch', { name: 'Use Wi-Fi' });
  await expect(wifi).not.toBeChecked();
  await wifi.tap();
  await expect(wifi).toBeChecked();
  await expect(app.getByText('HomeNet')).toBeVisible();
});

test('Wi-Fi off again turns the networks away', async ({ app }) => {
  await app.getByText('Network & internet').tap();
  const wifi = app.getByRole('switch', { name: 'Use Wi-Fi' });
  await wifi.tap();
  await expect(app.getByText('CoffeeShop Guest')).toBeVisible();
  await wifi.tap();
  await expect(wifi).not.toBeChecked();
  await expect(app.getByText('CoffeeShop Guest')).toBeHidden();
  await app.getByDesc('Navigate up').tap();
  await expect(app.getByText('Wi-Fi off')).toBeVisible();
});

test('a fresh instance has Wi-Fi off', async ({ app }) => {
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

test('bluetooth on and off again', async ({ app }) => {
  await app.getByText('Connected devices').tap();
  const bt = app.getByRole('switch', { name: 'Use Bluetooth' });
  await bt.tap();
  await expect(app.getById('bt_summary')).toHaveText('Device name: Pixel Sim');
  await bt.tap();
  await expect(app.getById('bt_summary')).toHaveText('Bluetooth is off');
  await app.getByDesc('Navigate up').tap();
  await expect(app.getByText('Bluetooth off')).toBeVisible();
});

test('about phone shows the Android version in a toast', async ({ app }) => {
  await app.getByText('About phone').tap();
  const row = app.getByRole('group').filter({ hasText: 'Android version' });
  await expect(row).toContainText('15');
  await row.tap();
  await expect(app.getByText('Android 15')).toBeVisible();
});

test('a toast, then the next row', async ({ app }) => {
  await app.getByText('Battery').tap();
  await expect(app.getByText('Battery settings are not simulated')).toBeVisible();
  await app.getByText('Display').tap();
  await expect(app).toHaveActivity('.DisplaySettingsActivity');
});

test('a search with no match says so, and a new search finds', async ({ app }) => {
  await app.getByDesc('Search settings').tap();
  const query = app.getById('search_src_text');
  await query.fill('teleport');
  await expect(app.getById('empty')).toHaveText('No results for "teleport"');
  await query.fill('bluetooth');
  await app.getByText('Bluetooth', { exact: true }).tap();
  await expect(app).toHaveActivity('.BluetoothSettingsActivity');
});

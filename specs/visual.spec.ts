import { test, expect } from 'nestwright';

// Visual comparisons: each picture is compared with its baseline in visual.spec.ts-snapshots/,
// named for the device (`-sim-1080x2400-420dpi`): write them again with --update-snapshots.
test.use({ apk: 'com.android.settings' });

// The committed baselines are the simulator's; another device writes its own on a first run.
test.skip(({ device }) => device.provider !== 'sim', 'baselines are committed for the simulator only');

test('the Settings home screen looks as it did', async ({ app }) => {
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('settings-home.png');
});

test('the Wi-Fi screen once the scan has found networks', async ({ app }) => {
  await app.getByText('Network & internet').tap();
  await app.getByRole('switch', { name: 'Use Wi-Fi' }).tap();
  // The picture waits for the device to go idle: the scan's progress bar gone, the list in.
  await expect(app).toHaveScreenshot('wifi-networks.png', { timeout: 10_000 });
});

test('one button, and a screen with its changing part masked', async ({ app }) => {
  await expect(app.getByDesc('Search settings')).toHaveScreenshot('search-button.png');
  await app.getByText('Connected devices').tap();
  // The summary and the switch are painted over (Playwright's pink): the rest is compared.
  await expect(app).toHaveScreenshot('bluetooth.png', { mask: [app.getById('bt_summary'), app.getByRole('switch')] });
});

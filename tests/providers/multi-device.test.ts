import { test, expect } from '@playwright/test';
import { runInline } from '../framework/inline.js';
import { FakeAndroid } from './fake-android.js';

/**
 * Several devices in one run: workers spread over `serials`, each in a space of its own; a device
 * that drops mid-run fails the test on it with DEVICE_DISCONNECTED, and the run carries on on the
 * other device (the restarted worker picks an online one).
 */
test('a device dropping mid-run fails its test with DEVICE_DISCONNECTED; the rest carry on', async () => {
  test.setTimeout(600_000);
  const fake = await FakeAndroid.create([
    { serial: 'R58M123ABC', usb: '1-1', runtime: { running: true } },
    { serial: 'HT7A1B2C3', usb: '1-3', runtime: { running: true } },
  ]);
  try {
    await fake.warm();
    const note = (n: number) => `test('note ${n}', async ({ app }) => {
        await app.getByText('New note').tap();
        await app.getById('title').fill('n${n} on ' + process.env.NESTWRIGHT_DEVICE_SERIAL);
        await expect(app.getById('title')).toHaveText('n${n} on ' + process.env.NESTWRIGHT_DEVICE_SERIAL);
      });`;
    const run = await runInline(
      {
        'drop.spec.ts': `import { test, expect } from 'nestwright';
          import net from 'node:net';
          import { join } from 'node:path';
          test.use({ apk: 'fixtures/apks/notes.apk' });
          // Unplug this worker's device through the fake adb server's control socket.
          const unplug = (serial: string) => new Promise<void>((resolve, reject) => {
            const s = net.connect(join(process.env.NESTWRIGHT_FAKE_ANDROID!, 'adb.sock'));
            s.on('data', () => { s.end(); resolve(); });
            s.on('error', reject);
            s.write(JSON.stringify({ tool: 'control', op: 'detach', serial }) + '\\n');
          });
          test('unplugged mid-test', async ({ app }) => {
            await app.getByText('New note').tap();
            await unplug(process.env.NESTWRIGHT_DEVICE_SERIAL!);
            await app.getById('title').fill('lost');
          });`,
        'notes.spec.ts': `import { test, expect } from 'nestwright';
          test.use({ apk: 'fixtures/apks/notes.apk' });
          ${[1, 2, 3, 4].map(note).join('\n')}`,
      },
      {
        use: "deviceOptions: { provider: 'adb', serials: ['R58M123ABC', 'HT7A1B2C3'] }",
        workers: 2,
        env: fake.env(),
        config: 'timeout: 90_000,',
      },
    );
    const dropped = run.result('unplugged mid-test');
    expect(dropped.status, dropped.error).toBe('failed');
    expect(dropped.error).toContain('DEVICE_DISCONNECTED');
    // Whichever notices first says so: adb's device tracker ("went away"), or the forward's socket closing under the call.
    expect(dropped.error).toMatch(/device (R58M123ABC|HT7A1B2C3) went away|the device runtime did not answer/);
    for (const n of [1, 2, 3, 4]) expect(run.result(`note ${n}`).status, run.result(`note ${n}`).error).toBe('passed');
    // One device is gone, the other still has its runtime; no forward is left behind.
    const state = await fake.state();
    expect(state.devices.length).toBe(1);
    expect(state.forwards).toEqual([]);
  } finally {
    await fake.close();
  }
});

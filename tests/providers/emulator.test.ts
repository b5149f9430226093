import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { emulatorCommand } from '../../cli/commands/emulator.js';
import { devicesCommand } from '../../cli/commands/devices.js';
import { Adb } from '../../device-runtime/providers/adb/adb.js';
import { ProviderError } from '../../device-runtime/providers/adb/errors.js';
import { startEmulator } from '../../device-runtime/providers/emulator/lifecycle.js';
import { runInline } from '../framework/inline.js';
import { FakeAndroid } from './fake-android.js';

/** Emulator lifecycle over the fake `emulator` and fake `adb` (real executables first on PATH). */
test.describe.configure({ timeout: 600_000 });

function capture() {
  const io = { text: '', err: '', out: (t: string) => void (io.text += t), errw: (t: string) => void (io.err += t) };
  return { io, cli: { out: io.out, err: io.errw } };
}

let fake: FakeAndroid | null = null;
test.afterEach(async () => {
  await fake?.close();
  fake = null;
});

test('emulator list / start (progress until sys.boot_completed) / two at once / stop, and snapshot reuse', async () => {
  fake = (
    await FakeAndroid.create([], {
      Pixel_8_API_34: { bootMs: 2_500 },
      Small_API_30: { bootMs: 1_000, api: 30, runtime: 'none' },
    })
  ).use();
  const list = capture();
  expect(await emulatorCommand(['list'], list.cli)).toBe(0);
  expect(list.io.text).toBe('Pixel_8_API_34\nSmall_API_30\n');

  const start = capture();
  expect(await emulatorCommand(['start', 'Pixel_8_API_34', '--headless'], start.cli), start.io.err).toBe(0);
  // Progress lines: serial, elapsed seconds, stage — ending with the boot completed.
  const progress = start.io.text.split('\n').filter((l) => /^emulator-5554 +\d+\.\d s /.test(l));
  const stages = progress.map((l) => l.replace(/^emulator-5554 +\d+\.\d s +/, ''));
  expect(stages.at(-1)).toBe('booted');
  expect(stages.slice(0, -1).every((s) => ['waiting for adb', 'offline', 'booting'].includes(s))).toBe(true);
  expect(start.io.text).toMatch(
    /^emulator-5554 \(Pixel_8_API_34\) booted in \d+\.\d s; pid \d+; log .*emulator-5554\.log$/m,
  );
  expect(readFileSync(join(fake.dir, 'emulators/emulator-5554.log'), 'utf8')).toContain('Cold boot');

  const second = capture();
  expect(await emulatorCommand(['start', 'Small_API_30', '--headless'], second.cli), second.io.err).toBe(0);
  expect(second.io.text).toContain('emulator-5556 (Small_API_30) booted');

  const devs = capture();
  expect(await devicesCommand([], devs.cli)).toBe(0);
  expect(devs.io.text).toMatch(
    /emulator-5554\s+device\s+sdk_gphone64_x86_64\s+34\s+x86_64\s+emulator \(Pixel_8_API_34\)\s+0\.3\.0 running/,
  );
  expect(devs.io.text).toMatch(/emulator-5556\s+device\s+.*\s+30\s+x86_64\s+emulator \(Small_API_30\)\s+not installed/);

  const listed = capture();
  await emulatorCommand(['list'], listed.cli);
  expect(listed.io.text).toBe(
    'Pixel_8_API_34  running: emulator-5554 (device)\nSmall_API_30  running: emulator-5556 (device)\n',
  );

  const ambiguous = capture();
  expect(await emulatorCommand(['stop'], ambiguous.cli)).toBe(2);
  expect(ambiguous.io.err).toContain('2 emulators run (emulator-5554, emulator-5556): name one, or --all');
  const stop = capture();
  expect(await emulatorCommand(['stop', 'Pixel_8_API_34'], stop.cli)).toBe(0);
  expect(stop.io.text).toBe('emulator-5554 (Pixel_8_API_34) stopped\n');
  expect((await fake.state()).devices.map((d) => d.serial)).toEqual(['emulator-5556']);

  // Stopping saved the quick-boot snapshot; --snapshot boots from it.
  const again = capture();
  expect(await emulatorCommand(['start', 'Pixel_8_API_34', '--headless', '--snapshot'], again.cli), again.io.err).toBe(
    0,
  );
  expect(readFileSync(join(fake.dir, 'emulators/emulator-5554.log'), 'utf8')).toContain(
    "Loading snapshot 'default_boot'",
  );
  expect(await emulatorCommand(['stop', '--all'], capture().cli)).toBe(0);
  expect((await fake.state()).devices).toEqual([]);
});

test('bad input: unknown AVD, no emulator binary, bad port, unknown subcommand', async () => {
  fake = (await FakeAndroid.create([], { Pixel_8_API_34: {} })).use();
  const e = await startEmulator(Adb.find('t'), { avd: 'Nope' }).then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ProviderError);
  expect((e as ProviderError).code).toBe('AVD_NOT_FOUND');
  expect((e as ProviderError).message).toContain('no AVD named Nope; the SDK has Pixel_8_API_34');

  const port = capture();
  expect(await emulatorCommand(['start', 'Pixel_8_API_34', '--port', '5555'], port.cli)).toBe(2);
  expect(port.io.err).toContain('--port 5555: an even console port from 5554 to 5682');
  const sub = capture();
  expect(await emulatorCommand(['reboot'], sub.cli)).toBe(2);
  expect(sub.io.err).toContain('unknown subcommand "reboot"');

  process.env.ANDROID_HOME = '/nonexistent';
  process.env.ANDROID_SDK_ROOT = '/nonexistent';
  process.env.PATH = '/usr/bin:/bin';
  const none = capture();
  expect(await emulatorCommand(['list'], none.cli)).toBe(1);
  expect(none.io.err).toMatch(/^nestwright emulator list: EMULATOR_NOT_FOUND: the Android emulator was not found/);
  expect(none.io.err).toContain('hint: Install it with `sdkmanager "emulator"');
});

test("use.deviceOptions { provider: 'emulator', avd }: the run starts the emulator, the workers use it, the run stops it", async () => {
  test.setTimeout(600_000);
  fake = await FakeAndroid.create([], { Pixel_8_API_34: { bootMs: 1_500 } });
  const run = await runInline(
    {
      'a.spec.ts': `import { test, expect } from 'nestwright';
        test.use({ apk: 'fixtures/apks/notes.apk' });
        for (const n of [1, 2]) test('note ' + n, async ({ app }) => {
          expect(process.env.NESTWRIGHT_DEVICE_SERIAL).toBe('emulator-5554');
          await app.getByText('New note').tap();
          await expect(app.getById('title')).toBeVisible();
        });`,
    },
    {
      use: "deviceOptions: { provider: 'emulator', avd: 'Pixel_8_API_34' }",
      workers: 2,
      env: fake.env(),
      config: 'timeout: 180_000,',
    },
  );
  expect(run.stderr).toContain('starting emulator Pixel_8_API_34 (cold boot)');
  expect(run.results.map((r) => `${r.title}: ${r.status}${r.error ? ` ${r.error}` : ''}`)).toEqual([
    'note 1: passed',
    'note 2: passed',
  ]);
  expect(run.exitCode).toBe(0);
  // The run's teardown stopped the emulator it started.
  expect((await fake.state()).devices).toEqual([]);
});

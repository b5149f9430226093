import { test, expect } from '@playwright/test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { devicesCommand } from '../../cli/commands/devices.js';
import { doctorCommand } from '../../cli/commands/doctor.js';
import { FakeAndroid } from './fake-android.js';

/** `nestwright doctor` and `nestwright devices` with nothing Android, and with the fakes. */
test.describe.configure({ timeout: 180_000 });

function capture() {
  const io = { text: '', err: '' };
  return { io, cli: { out: (t: string) => void (io.text += t), err: (t: string) => void (io.err += t) } };
}

function withoutAndroid<T>(f: () => Promise<T>): Promise<T> {
  const saved = {
    PATH: process.env.PATH,
    ANDROID_HOME: process.env.ANDROID_HOME,
    ANDROID_SDK_ROOT: process.env.ANDROID_SDK_ROOT,
  };
  // An explicit PATH without any directory that holds an adb or an emulator (Debian's adb lives
  // in /usr/bin): the result is the same whether or not this machine has them installed.
  process.env.PATH = (process.env.PATH ?? '')
    .split(':')
    .filter((d) => d && !['adb', 'emulator', 'avdmanager'].some((t) => existsSync(join(d, t))))
    .join(':');
  delete process.env.ANDROID_HOME;
  delete process.env.ANDROID_SDK_ROOT;
  return f().finally(() => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });
}

test('nothing Android: doctor says what is missing and how to fix it; the simulator still works; devices explains', async () => {
  const d = capture();
  const code = await withoutAndroid(() => doctorCommand([], d.cli));
  expect(d.io.text).toMatch(/^nestwright doctor\n {2}ok {7}Node/);
  expect(d.io.text).toMatch(/missing +Android SDK +ANDROID_HOME and ANDROID_SDK_ROOT are not set\n +fix: /);
  expect(d.io.text).toMatch(
    /missing +adb +not in the SDK's platform-tools nor on PATH\n +fix: `sdkmanager platform-tools` \(or Debian: `apt-get install adb`\)/,
  );
  expect(d.io.text).toMatch(/missing +emulator /);
  expect(d.io.text).toMatch(/(ok|missing) +KVM /);
  expect(d.io.text).toMatch(/skip +devices +no adb/);
  // The simulator line is ok, or (on a very busy machine) reported as not answering in time.
  expect(d.io.text).toMatch(
    /(ok +simulator +the embedded simulated runtime starts and answers MCP|warn +simulator +no answer within)/,
  );
  expect(d.io.text).toMatch(/\n\((\d+\.\d\d) s\)\n$/);
  expect([0, 1]).toContain(code);

  const v = capture();
  expect(await withoutAndroid(() => devicesCommand([], v.cli))).toBe(1);
  expect(v.io.err).toMatch(/^nestwright devices: ADB_NOT_FOUND: adb was not found/);
  const bad = capture();
  expect(await devicesCommand(['--frobnicate'], bad.cli)).toBe(2);
  expect(bad.io.err).toContain("Unknown option '--frobnicate'");
});

test('with the fake SDK: doctor lists adb, the AVDs and each device with its runtime; --json is data', async () => {
  const fake = (
    await FakeAndroid.create(
      [
        { serial: 'R58M123ABC', usb: '1-1', runtime: { running: true, version: '0.3.1' } },
        { serial: '0123456789ABCDEF', state: 'unauthorized', usb: '1-2' },
        { serial: 'HT7A1B2C3', usb: '1-3', runtime: false },
      ],
      { Pixel_8_API_34: {} },
    )
  ).use();
  // Every fake adb call is a Node start-up: give the checks time on a busy machine.
  process.env.NESTWRIGHT_DOCTOR_BUDGET_MS = '60000';
  try {
    await fake.runtimesReady();
    const d = capture();
    await doctorCommand(['--json'], d.cli);
    const { checks } = JSON.parse(d.io.text) as {
      checks: Array<{ name: string; status: string; detail: string; fix?: string }>;
    };
    const by = (n: string) => checks.find((c) => c.name === n)!;
    expect(by('Android SDK').status).toBe('ok');
    expect(by('adb')).toMatchObject({ status: 'ok' });
    expect(by('adb').detail).toContain('Android Debug Bridge version 1.0.41');
    expect(by('emulator').detail).toContain('AVDs: Pixel_8_API_34');
    expect(by('avdmanager').status).toBe('ok');
    expect(by('R58M123ABC')).toMatchObject({
      status: 'ok',
      detail: 'device · Pixel 8 · API 34 · runtime: 0.3.1 running',
    });
    expect(by('0123456789ABCDEF')).toMatchObject({
      status: 'missing',
      fix: 'Accept the "Allow USB debugging?" prompt on the device.',
    });
    expect(by('HT7A1B2C3').status).toBe('missing');
    expect(by('HT7A1B2C3').detail).toContain('runtime: not installed');

    const v = capture();
    expect(await devicesCommand([], v.cli)).toBe(0);
    expect(v.io.text.split('\n')[0]).toMatch(/^SERIAL +STATE +MODEL +API +ABI +KIND +NESTSPACE RUNTIME$/);
    expect(v.io.text).toMatch(/R58M123ABC +device +Pixel 8 +34 +arm64-v8a +device +0\.3\.1 running/);
    expect(v.io.text).toMatch(/0123456789ABCDEF +unauthorized +- +- +- +device +-/);
    expect(v.io.text).toContain('0123456789ABCDEF: accept the "Allow USB debugging?" prompt on the device.');
    expect(v.io.text).toContain('HT7A1B2C3: no NestSpace runtime — give use.deviceOptions.runtime.apk');
  } finally {
    delete process.env.NESTWRIGHT_DOCTOR_BUDGET_MS;
    await fake.close();
  }
});

test("doctor checks the Chromium the simulator's WebViews need, says what to install when it is absent, and names no script of nestwright's own repository", async () => {
  const saved = process.env.NESTWRIGHT_CHROMIUM;
  const run = async () => {
    const d = capture();
    await doctorCommand(['--json'], d.cli);
    const text = capture();
    await doctorCommand([], text.cli);
    const { checks } = JSON.parse(d.io.text) as { checks: Array<{ name: string; status: string; detail: string }> };
    return { chromium: checks.find((c) => c.name === 'Chromium'), text: text.io.text };
  };
  try {
    process.env.NESTWRIGHT_CHROMIUM = '/nonexistent/chromium';
    const absent = await run();
    expect(absent.chromium).toMatchObject({
      status: 'missing',
      detail: 'no Chromium at /nonexistent/chromium (NESTWRIGHT_CHROMIUM)',
    });
    expect(absent.text).toMatch(
      /missing +Chromium +no Chromium at \/nonexistent\/chromium.*\n +fix: Debian: `apt-get install chromium`/,
    );
    expect(absent.text).toContain("WebViews: no Chromium — an app's WebView shows no page");
    // In a user's project there is no `npm run example`: doctor speaks of what runs there.
    expect(absent.text).not.toContain('npm run example');
    expect(absent.text).not.toContain('example suite');

    delete process.env.NESTWRIGHT_CHROMIUM;
    test.skip(!existsSync('/usr/bin/chromium'), "Debian's /usr/bin/chromium is absent on this machine");
    const present = await run();
    expect(present.chromium!.detail).toContain('at /usr/bin/chromium');
    // ok, or (on a very busy machine) reported as not answering `--version` in time.
    expect(['ok', 'warn']).toContain(present.chromium!.status);
  } finally {
    if (saved === undefined) delete process.env.NESTWRIGHT_CHROMIUM;
    else process.env.NESTWRIGHT_CHROMIUM = saved;
  }
});

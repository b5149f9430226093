import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Adb } from '../../device-runtime/providers/adb/adb.js';
import { connectAdb } from '../../device-runtime/providers/adb/connect.js';
import { obtainToken } from '../../device-runtime/providers/adb/runtime.js';
import { ProviderError } from '../../device-runtime/providers/adb/errors.js';
import { connectDevice } from '../../device-runtime/providers/index.js';
import { DeviceError } from '../../device-runtime/client/index.js';
import { FakeAndroid, ROOT, type FakeDeviceSpec } from './fake-android.js';

/**
 * The adb provider against the fake adb (a real executable first on PATH, with a server that
 * forwards real TCP to a `nestwright sim` standing in for the runtime on the device).
 */
const PHONE: FakeDeviceSpec = { serial: 'R58M123ABC', usb: '1-1', runtime: { running: true } };

test.describe.configure({ timeout: 180_000 });

let fake: FakeAndroid | null = null;
test.afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e, 'expected the call to fail').toBeInstanceOf(ProviderError);
  return e as ProviderError;
}

test('adb devices -l is printed the way adb prints it', async () => {
  fake = await FakeAndroid.create([
    PHONE,
    { serial: 'emulator-5554', emulator: { avd: 'Pixel_8_API_34', consolePort: 5554 } },
    { serial: '0123456789ABCDEF', state: 'unauthorized', usb: '1-2' },
    { serial: 'emulator-5556', state: 'offline', emulator: { avd: 'Small', consolePort: 5556 } },
  ]);
  const r = await fake.adb('devices', '-l');
  expect(r.stdout).toBe(
    'List of devices attached\n' +
      'R58M123ABC             device usb:1-1 product:shiba model:Pixel_8 device:shiba transport_id:1\n' +
      'emulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64x transport_id:2\n' +
      '0123456789ABCDEF       unauthorized usb:1-2 transport_id:3\n' +
      'emulator-5556          offline transport_id:4\n' +
      '\n',
  );
  expect((await fake.adb('shell', 'echo', 'hi')).stderr).toBe('adb: more than one device/emulator\n');
  expect((await fake.adb('-s', 'nope', 'shell', 'echo')).stderr).toBe("adb: device 'nope' not found\n");
  expect((await fake.adb('-s', 'emulator-5556', 'shell', 'echo')).stderr).toBe('adb: device offline\n');
});

test('one device: found, runtime answering, port forwarded, client connected; close removes the forward', async () => {
  fake = (await FakeAndroid.create([PHONE])).use();
  const conn = await connectAdb({});
  try {
    expect(conn.serial).toBe('R58M123ABC');
    const spaces = await conn.client.call('space_list', {});
    expect(Array.isArray(spaces.spaces)).toBe(true);
    const port = new URL(conn.url).port;
    expect((await fake.state()).forwards).toEqual([{ serial: 'R58M123ABC', local: `tcp:${port}`, remote: 'tcp:8765' }]);
    expect(conn.timings.deviceMs).toBeGreaterThan(0);
    expect(conn.timings.deviceMs).toBeLessThanOrEqual(conn.timings.totalMs);
  } finally {
    await conn.close();
  }
  expect((await fake.state()).forwards).toEqual([]);
});

test('through connectDevice: use.deviceOptions { provider: "adb", serial } picks that device among several', async () => {
  fake = (await FakeAndroid.create([PHONE, { ...PHONE, serial: 'HT7A1B2C3', usb: '1-3' }])).use();
  const conn = await connectDevice({ provider: 'adb', serial: 'HT7A1B2C3' });
  try {
    expect((await conn.client.info())?.protocol_version).toBeTruthy();
    expect((await fake.state()).forwards.map((f) => f.serial)).toEqual(['HT7A1B2C3']);
  } finally {
    await conn.close();
  }
});

test('no device, several devices, offline, unauthorized, unknown serial: structured errors that say what to do', async () => {
  fake = (await FakeAndroid.create([])).use();
  const none = await failure(connectAdb({}));
  expect(none.code).toBe('NO_DEVICE');
  expect(none.message).toMatch(/^connectDevice\(adb\): NO_DEVICE: no Android device is attached/);
  expect(none.hint).toContain('npx nestwright emulator start');

  await fake.attach(PHONE);
  await fake.attach({ serial: 'emulator-5554', emulator: { avd: 'A', consolePort: 5554 }, runtime: { running: true } });
  const several = await failure(connectAdb({}));
  expect(several.code).toBe('SERIAL_REQUIRED');
  expect(several.message).toContain('R58M123ABC             device model:Pixel_8');
  expect(several.message).toContain('emulator-5554');

  const unknown = await failure(connectAdb({ serial: 'XYZ' }));
  expect(unknown.code).toBe('SERIAL_NOT_FOUND');

  await fake.setState('emulator-5554', 'offline');
  expect((await failure(connectAdb({ serial: 'emulator-5554' }))).code).toBe('DEVICE_OFFLINE');
  await fake.setState('R58M123ABC', 'unauthorized');
  const unauth = await failure(connectAdb({ serial: 'R58M123ABC' }));
  expect(unauth.code).toBe('DEVICE_UNAUTHORIZED');
  expect(unauth.hint).toContain('Allow USB debugging');
});

test('an adb command that fails carries the command and its stderr; the token never appears', async () => {
  // Runtime installed, service not running and no token yet; the service component is wrong.
  fake = (await FakeAndroid.create([{ ...PHONE, runtime: { running: false } }])).use();
  const e = await failure(connectAdb({ runtime: { service: '.NoSuchService' } }));
  expect(e.code).toBe('RUNTIME_NOT_RUNNING');
  expect(e.command).toBe('adb -s R58M123ABC shell am start-foreground-service -n com.coke.nestspace/.NoSuchService');
  expect(e.stderr).toContain('Error: Not found; no service started.');
  expect((await fake.state()).forwards).toEqual([]);

  // A token read that fails: the run-as command and cat's stderr, and what to do.
  const t = await failure(obtainToken(Adb.find('test'), 'R58M123ABC', { package: 'com.android.shell' }, undefined));
  expect(t.code).toBe('TOKEN_UNAVAILABLE');
  expect(t.command).toBe('adb -s R58M123ABC shell run-as com.android.shell cat files/mcp_token');
  expect(t.stderr).toContain('run-as: unknown package: com.android.shell');

  // Now started: the token is read from the device and used, and appears in no message.
  const conn = await connectAdb({});
  try {
    const tokenFile = join(fake.dir, 'devices/R58M123ABC/data/com.coke.nestspace/files/mcp_token');
    const token = readFileSync(tokenFile, 'utf8').trim();
    expect(token.length).toBeGreaterThanOrEqual(16);
    const bad = await connectAdb({ token: 'x'.repeat(32) }).then(
      () => null,
      (x: Error) => x,
    );
    expect(bad).toBeInstanceOf(DeviceError);
    expect((bad as DeviceError).code).toBe('UNAUTHORIZED');
    expect(String(bad?.message)).not.toContain(token);
    expect(e.message).not.toContain(token);
  } finally {
    await conn.close();
  }
});

test('runtime missing: a clear error, or installed from runtime.apk and its service started', async () => {
  fake = (await FakeAndroid.create([{ serial: 'R58M123ABC', usb: '1-1', runtime: false }])).use();
  const missing = await failure(connectAdb({}));
  expect(missing.code).toBe('RUNTIME_NOT_INSTALLED');
  expect(missing.hint).toContain('runtime.apk');

  const wrong = await failure(connectAdb({ runtime: { apk: join(ROOT, 'fixtures/apks/notes.apk') } }));
  expect(wrong.code).toBe('RUNTIME_APK_INVALID');
  expect(wrong.message).toContain('is com.nestwright.notes, not the runtime package com.coke.nestspace');

  // A real APK through the fake's package manager (the repository's APK reader), then the
  // service of that package is started and answers.
  const conn = await connectAdb({
    runtime: { apk: join(ROOT, 'fixtures/apks/notes.apk'), package: 'com.nestwright.notes' },
  });
  try {
    expect((await fake.state()).devices[0]!.packages).toContain('com.nestwright.notes');
    expect(await conn.client.call('space_list', {})).toBeTruthy();
  } finally {
    await conn.close();
  }
});

test('a booting device: the provider waits for sys.boot_completed, which turns 1 after a delay', async () => {
  fake = (await FakeAndroid.create([])).use();
  // Boots when the test says so (the fake's boot time counts from when the device appeared).
  await fake.attach({ serial: 'R58M123ABC', usb: '1-1', bootMs: 600_000, runtime: { running: true } });
  expect((await fake.adb('shell', 'getprop', 'sys.boot_completed')).stdout).toBe('\n');
  expect((await fake.adb('shell', 'pm', 'list', 'packages')).stderr).toBe("cmd: Can't find service: package\n");
  const progress: string[] = [];
  const connecting = connectAdb({}, { onProgress: (l) => progress.push(l) });
  await expect.poll(() => progress.length, { timeout: 60_000 }).toBeGreaterThan(1);
  expect(progress[0]).toBe('R58M123ABC: waiting for boot to complete');
  expect(progress[1]).toMatch(/^R58M123ABC: booting \(\d+\.\d s\)$/);
  await fake.finishBoot('R58M123ABC');
  const conn = await connecting;
  try {
    expect((await fake.adb('shell', 'getprop', 'sys.boot_completed')).stdout).toBe('1\n');
    expect(progress.at(-1)).toMatch(/^R58M123ABC: booted \(\d+\.\d s\)$/);
    expect(await conn.client.call('space_list', {})).toBeTruthy();
  } finally {
    await conn.close();
  }
});

test('the device vanishes mid-call: the call in flight and every later one fail with DEVICE_DISCONNECTED', async () => {
  fake = (await FakeAndroid.create([PHONE])).use();
  const conn = await connectAdb({});
  try {
    const { space_id } = await conn.client.call('space_create', { name: 'vanish' });
    // Waits up to 60 s for text that never comes — unless the device goes first.
    const inFlight = conn.client.call('ui_wait_for', { space_id, text: 'never on screen', timeout_ms: 60_000 }).then(
      () => null,
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 300));
    await fake.vanish('R58M123ABC');
    const e = (await inFlight) as DeviceError;
    expect(e).toBeInstanceOf(DeviceError);
    expect(e.code).toBe('DEVICE_DISCONNECTED');
    expect(e.message).toMatch(
      /^ui_wait_for: DEVICE_DISCONNECTED: device R58M123ABC went away: R58M123ABC is no longer listed by adb/,
    );
    const next = await conn.client.call('space_list', {}).then(
      () => null,
      (x: unknown) => x,
    );
    expect((next as DeviceError).code).toBe('DEVICE_DISCONNECTED');
  } finally {
    await conn.close();
  }
});

test('pool: workers spread over online devices; an offline one is skipped', async () => {
  fake = (await FakeAndroid.create([PHONE, { ...PHONE, serial: 'HT7A1B2C3', usb: '1-3' }])).use();
  const a = await connectAdb({ pool: true }, { workerIndex: 0 });
  const b = await connectAdb({ serials: ['R58M123ABC', 'HT7A1B2C3'] }, { workerIndex: 1 });
  try {
    expect([a.serial, b.serial]).toEqual(['R58M123ABC', 'HT7A1B2C3']);
  } finally {
    await a.close();
    await b.close();
  }
  await fake.setState('R58M123ABC', 'offline');
  const c = await connectAdb({ serials: ['R58M123ABC', 'HT7A1B2C3'] }, { workerIndex: 0 });
  await c.close();
  expect(c.serial).toBe('HT7A1B2C3');
  await fake.vanish('HT7A1B2C3');
  const none = await failure(connectAdb({ serials: ['R58M123ABC', 'HT7A1B2C3'] }, { workerIndex: 0 }));
  expect(none.code).toBe('NO_DEVICE');
  expect(none.message).toContain('HT7A1B2C3              not attached');
});

test('no adb anywhere: ADB_NOT_FOUND says how to get it', async () => {
  const saved = {
    PATH: process.env.PATH,
    ANDROID_HOME: process.env.ANDROID_HOME,
    ANDROID_SDK_ROOT: process.env.ANDROID_SDK_ROOT,
  };
  process.env.PATH = '/nonexistent';
  delete process.env.ANDROID_HOME;
  delete process.env.ANDROID_SDK_ROOT;
  try {
    const e = await failure(connectAdb({}));
    expect(e.code).toBe('ADB_NOT_FOUND');
    expect(e.hint).toContain('platform-tools');
  } finally {
    Object.assign(process.env, saved);
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
  }
});

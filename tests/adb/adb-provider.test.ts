import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Adb } from '../../device-runtime/providers/adb/adb.js';
import { connectAdb } from '../../device-runtime/providers/adb/connect.js';
import { ProviderError } from '../../device-runtime/providers/adb/errors.js';
import { obtainToken } from '../../device-runtime/providers/adb/runtime.js';
import { connectDevice } from '../../device-runtime/providers/index.js';
import { DeviceError } from '../../device-runtime/client/index.js';
import { HAVE_ADB, NO_ADB_MESSAGE, RealAdb } from './real-adb.js';

/**
 * The adb provider through Google's adb (/usr/bin/adb, a private server) to simulated devices
 * that adb reaches with `adb connect`: every adb call the provider makes — devices -l, shell
 * getprop / dumpsys / pidof / am / run-as, forward, install, track-devices — goes through the
 * real client, server and transport protocol to device-runtime/sim/adbd.
 */
test.skip(!HAVE_ADB, NO_ADB_MESSAGE);
test.describe.configure({ timeout: 180_000 });

let adb: RealAdb | null = null;
test.afterEach(async () => {
  await adb?.close();
  adb = null;
});

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e, 'expected the call to fail').toBeInstanceOf(ProviderError);
  return e as ProviderError;
}

test('one device: found, runtime answering, port forwarded, client connected; close removes the forward', async () => {
  adb = (await RealAdb.create()).use();
  const dev = await adb.device();
  const conn = await connectAdb({});
  try {
    expect(conn.serial).toBe(dev.serial);
    const { space_id } = await conn.client.call('space_create', { name: 'through real adb' });
    expect((await conn.client.call('space_list', {})).spaces.map((s: { space_id: string }) => s.space_id)).toContain(
      space_id,
    );
    const port = new URL(conn.url).port;
    expect((await adb.adb('forward', '--list')).stdout.trim()).toBe(`${dev.serial} tcp:${port} tcp:8765`);
    expect(conn.timings.deviceMs).toBeGreaterThan(0);
  } finally {
    await conn.close();
  }
  expect((await adb.adb('forward', '--list')).stdout.trim()).toBe('');
});

test('through connectDevice: { provider: "adb", serial } picks that device among several; none named is SERIAL_REQUIRED', async () => {
  adb = (await RealAdb.create()).use();
  const a = await adb.device();
  const b = await adb.device();
  const several = await failure(connectAdb({}));
  expect(several.code).toBe('SERIAL_REQUIRED');
  expect(several.message).toContain(`${a.serial.padEnd(22)} device model:NestSpace_Sim`);
  expect(several.message).toContain(b.serial);
  expect((await failure(connectAdb({ serial: '127.0.0.1:1' }))).code).toBe('SERIAL_NOT_FOUND');
  const conn = await connectDevice({ provider: 'adb', serial: b.serial });
  try {
    expect((await conn.client.info())?.protocol_version).toBeTruthy();
    expect((await adb.adb('forward', '--list')).stdout.trim()).toMatch(new RegExp(`^${b.serial} tcp:\\d+ tcp:8765$`));
  } finally {
    await conn.close();
  }
  // pool: workers spread over the online devices.
  const w0 = await connectAdb({ pool: true }, { workerIndex: 0 });
  const w1 = await connectAdb({ pool: true }, { workerIndex: 1 });
  const s1 = await connectAdb({ serials: [a.serial, b.serial] }, { workerIndex: 1 });
  try {
    expect(new Set([w0.serial, w1.serial]).size).toBe(2);
    expect(s1.serial).toBe(b.serial);
  } finally {
    await Promise.all([w0.close(), w1.close(), s1.close()]);
  }
});

test('authentication: a listed key is verified by its RSA signature; a device that accepts new keys takes the one offered; one that knows no key stays unauthorized', async () => {
  adb = (await RealAdb.create()).use();
  const listed = await adb.device();
  expect(listed.adbd.log.some((l) => l.startsWith('AUTH signature verified'))).toBe(true);
  expect(listed.adbd.log.some((l) => l.startsWith('AUTH new key'))).toBe(false);

  const dev = await adb.device({ keyFiles: [], acceptNewKeys: true });
  expect(dev.adbd.log).toContain('AUTH signature from an unknown key: a new token is sent');
  expect(dev.adbd.log.some((l) => l.startsWith('AUTH new key ') && l.endsWith(' accepted'))).toBe(true);
  expect(dev.adbd.keys.acceptedCount).toBe(1);
  // Reconnect: adb signs the device's token with the key it now knows.
  await adb.adb('disconnect', dev.serial);
  await adb.waitForState(dev.serial, null);
  await adb.connect(dev.serial);
  expect(dev.adbd.log.some((l) => l.startsWith('AUTH signature verified'))).toBe(true);

  const locked = await adb.device({ keyFiles: [], connect: 'unauthorized' });
  expect(locked.adbd.log.some((l) => l.startsWith('AUTH new key ') && l.endsWith('the host stays unauthorized'))).toBe(
    true,
  );
  const e = await failure(connectAdb({ serial: locked.serial }));
  expect(e.code).toBe('DEVICE_UNAUTHORIZED');
  expect(e.hint).toContain('Allow USB debugging');
  expect((await adb.adb('-s', locked.serial, 'shell', 'echo')).stderr).toContain('unauthorized');

  // ro.adb.secure=0: no AUTH at all.
  const open = await adb.device({ secure: false });
  expect(open.adbd.log.some((l) => l.startsWith('AUTH'))).toBe(false);
  expect((await adb.adb('-s', open.serial, 'shell', 'echo', 'hi')).stdout).toBe('hi\n');
});

test('an adb command that fails carries the command and its stderr; the token is read with run-as and never appears', async () => {
  adb = (await RealAdb.create()).use();
  const dev = await adb.device({ running: false });
  const e = await failure(connectAdb({ runtime: { service: '.NoSuchService' } }));
  expect(e.code).toBe('RUNTIME_NOT_RUNNING');
  expect(e.command).toBe(`adb -s ${dev.serial} shell am start-foreground-service -n com.coke.nestspace/.NoSuchService`);
  expect(e.stderr).toContain('Error: Not found; no service started.');
  expect((await adb.adb('forward', '--list')).stdout.trim()).toBe('');

  const t = await failure(obtainToken(Adb.find('test'), dev.serial, { package: 'com.android.shell' }, undefined));
  expect(t.code).toBe('TOKEN_UNAVAILABLE');
  expect(t.command).toBe(`adb -s ${dev.serial} shell run-as com.android.shell cat files/mcp_token`);
  expect(t.stderr).toContain('run-as: unknown package: com.android.shell');

  // Started by the provider (am start-foreground-service), its token read from the device.
  const conn = await connectAdb({});
  try {
    const token = dev.adbd.device.runtime!.token()!;
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

test('runtime missing: a clear error, or installed from runtime.apk (adb install, streamed) and its service started', async () => {
  adb = (await RealAdb.create()).use();
  const dev = await adb.device({ running: false, runtimePackage: 'com.nestwright.notes', runtimeInstalled: false });
  const missing = await failure(connectAdb({ runtime: { package: 'com.nestwright.notes' } }));
  expect(missing.code).toBe('RUNTIME_NOT_INSTALLED');
  const conn = await connectAdb({
    runtime: { apk: 'fixtures/apks/notes.apk', package: 'com.nestwright.notes' },
  });
  try {
    expect(dev.adbd.device.packages.get('com.nestwright.notes')?.versionCode).toBeGreaterThan(0);
    expect(await conn.client.call('space_list', {})).toBeTruthy();
  } finally {
    await conn.close();
  }
  // A file that is not an APK: the package manager's Failure [...] reaches the provider's error.
  const notApk = join(adb.home, 'not-an.apk');
  writeFileSync(notApk, 'not a zip');
  expect((await adb.adb('install', '-r', notApk)).stderr).toMatch(
    /adb: failed to install .*not-an\.apk: Failure \[INSTALL_PARSE_FAILED_NOT_APK/,
  );
});

test('a booting device: the provider waits for sys.boot_completed', async () => {
  adb = (await RealAdb.create()).use();
  const dev = await adb.device({ bootMs: 600_000 });
  expect((await adb.adb('shell', 'getprop', 'sys.boot_completed')).stdout).toBe('\n');
  const pm = await adb.adb('shell', 'pm', 'list', 'packages');
  expect(pm.stderr).toBe("cmd: Can't find service: package\n");
  expect(pm.code).toBe(20);
  const progress: string[] = [];
  const connecting = connectAdb({}, { onProgress: (l) => progress.push(l) });
  await expect.poll(() => progress.length, { timeout: 60_000 }).toBeGreaterThan(1);
  expect(progress[0]).toBe(`${dev.serial}: waiting for boot to complete`);
  dev.adbd.device.finishBoot();
  const conn = await connecting;
  try {
    expect(progress.at(-1)).toMatch(/: booted \(\d+\.\d s\)$/);
    expect(await conn.client.call('space_list', {})).toBeTruthy();
  } finally {
    await conn.close();
  }
});

test('the device goes away mid-call: the call in flight and every later one fail with DEVICE_DISCONNECTED', async () => {
  adb = (await RealAdb.create()).use();
  const dev = await adb.device();
  const conn = await connectAdb({});
  try {
    const { space_id } = await conn.client.call('space_create', { name: 'vanish' });
    const inFlight = conn.client.call('ui_wait_for', { space_id, text: 'never on screen', timeout_ms: 60_000 }).then(
      () => null,
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 300));
    await dev.adbd.close();
    const e = (await inFlight) as DeviceError;
    expect(e).toBeInstanceOf(DeviceError);
    expect(e.code).toBe('DEVICE_DISCONNECTED');
    const next = await conn.client.call('space_list', {}).then(
      () => null,
      (x: unknown) => x,
    );
    expect((next as DeviceError).code).toBe('DEVICE_DISCONNECTED');
  } finally {
    await conn.close();
  }
});

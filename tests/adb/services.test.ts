import { test, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { HAVE_ADB, NO_ADB_MESSAGE, RealAdb, type SimDevice } from './real-adb.js';

/**
 * The simulated device's adb services, each driven by Google's adb: shell (protocol v2: stdout,
 * stderr and the exit status), exec-out, sync (push, pull, stat), both install paths (streamed
 * `cmd package install -S`, and `--no-streaming`: push, `pm install`, `rm`), uninstall, forward
 * (`tcp:` streams) and reverse (streams the device opens to the host).
 */
test.skip(!HAVE_ADB, NO_ADB_MESSAGE);
test.describe.configure({ mode: 'serial', timeout: 120_000 });

let adb: RealAdb;
let dev: SimDevice;
const sh = (...args: string[]) => adb.adb('-s', dev.serial, ...args);

test.beforeAll(async () => {
  adb = await RealAdb.create();
  dev = await adb.device();
});
test.afterAll(async () => {
  await adb?.close();
});

test('adb devices -l and the CNXN banner: the device as adb lists it', async () => {
  const out = (await adb.adb('devices', '-l')).stdout;
  expect(out).toMatch(
    new RegExp(
      `^List of devices attached\\n${dev.serial.replace(/\./g, '\\.')} +device product:nestwright_sim model:NestSpace_Sim device:nestwright_sim transport_id:\\d+\\n`,
    ),
  );
  expect((await sh('get-state')).stdout).toBe('device\n');
  const features = (await sh('features')).stdout.split('\n').filter(Boolean);
  expect(features).toEqual(expect.arrayContaining(['shell_v2', 'cmd', 'stat_v2']));
});

test('shell: stdout, stderr and the exit status come back apart (shell protocol v2); exec-out is raw', async () => {
  expect(await sh('shell', 'getprop', 'ro.build.version.sdk')).toEqual({ stdout: '34\n', stderr: '', code: 0 });
  expect(await sh('shell', 'pidof', 'no.such.app')).toEqual({ stdout: '', stderr: '', code: 1 });
  expect(await sh('shell', 'frobnicate')).toEqual({
    stdout: '',
    stderr: '/system/bin/sh: frobnicate: inaccessible or not found\n',
    code: 127,
  });
  // adb joins the words; the device's shell splits them again, quotes included.
  expect((await sh('shell', 'echo \'two  spaces\' "and quotes"')).stdout).toBe('two  spaces and quotes\n');
  const all = (await sh('shell', 'getprop')).stdout;
  expect(all).toContain('[ro.product.model]: [NestSpace Sim]\n');
  expect(all).toContain('[sys.boot_completed]: [1]\n');
  expect((await sh('exec-out', 'getprop', 'ro.product.cpu.abi')).stdout).toBe('x86_64\n');
});

test('sync: a file pushed, stat-ed and pulled back is byte for byte the same (several WRTEs, each acknowledged)', async () => {
  const big = randomBytes(3 * 1024 * 1024 + 17);
  const src = join(adb.home, 'big.bin');
  const back = join(adb.home, 'back.bin');
  writeFileSync(src, big);
  const push = await sh('push', src, '/data/local/tmp/big.bin');
  expect(push.code, push.stderr).toBe(0);
  expect(push.stdout).toContain('1 file pushed');
  expect((await sh('shell', 'ls', '/data/local/tmp')).stdout).toContain('big.bin\n');
  const pull = await sh('pull', '/data/local/tmp/big.bin', back);
  expect(pull.code, pull.stderr).toBe(0);
  expect(readFileSync(back).equals(big)).toBe(true);
  const missing = await sh('pull', '/data/local/tmp/nothing-here', back);
  expect(missing.code).toBe(1);
  // STA2 answers ENOENT; adb 29 prints its message on stdout.
  expect(missing.stdout + missing.stderr).toContain(
    "failed to stat remote object '/data/local/tmp/nothing-here': No such file or directory",
  );
  expect((await sh('shell', 'rm', '/data/local/tmp/big.bin')).code).toBe(0);
});

test('install: streamed (cmd package install -S) and pushed (--no-streaming: push, pm install, rm); the package manager refuses as on a phone', async () => {
  const streamed = await sh('install', 'fixtures/apks/chat.apk');
  expect(streamed).toMatchObject({ code: 0, stdout: 'Performing Streamed Install\nSuccess\n' });
  const again = await sh('install', 'fixtures/apks/chat.apk');
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('Failure [INSTALL_FAILED_ALREADY_EXISTS: Attempt to re-install com.nestwright.chat');
  const pushed = await sh('install', '--no-streaming', '-r', 'fixtures/apks/shop.apk');
  expect(pushed.code, pushed.stderr).toBe(0);
  expect(pushed.stdout).toMatch(/^Performing Push Install\n.*1 file pushed.*\nSuccess\n$/s);
  expect(pushed.stderr).toBe('');
  // The pushed copy was removed by adb's `rm -f … </dev/null`.
  expect((await sh('shell', 'ls', '/data/local/tmp')).stdout).not.toContain('shop.apk');
  expect((await sh('shell', 'pm', 'list', 'packages', 'nestwright')).stdout).toBe(
    'package:com.nestwright.chat\npackage:com.nestwright.shop\n',
  );
  expect((await sh('shell', 'dumpsys', 'package', 'com.nestwright.chat')).stdout).toContain(
    'Package [com.nestwright.chat]',
  );
  expect((await sh('uninstall', 'com.nestwright.chat')).stdout).toBe('Success\n');
  expect((await sh('shell', 'pm', 'path', 'com.nestwright.chat')).code).toBe(1);
});

test('forward reaches the runtime on the device port 8765; a port nothing listens on is refused', async () => {
  const port = Number((await sh('forward', 'tcp:0', 'tcp:8765')).stdout.trim());
  const res = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', body: '{}' });
  expect(res.status).toBe(401);
  await sh('forward', '--remove', `tcp:${port}`);
  const dead = Number((await sh('forward', 'tcp:0', 'tcp:1')).stdout.trim());
  await expect(fetch(`http://127.0.0.1:${dead}/`, { signal: AbortSignal.timeout(10_000) })).rejects.toThrow();
  await sh('forward', '--remove-all');
});

test('reverse: a connection to the device port reaches the host port through a stream the device opens', async () => {
  const host = net.createServer((s) => s.once('data', (d) => s.end(`host got ${d.toString()}`)));
  await new Promise<void>((r) => host.listen(0, '127.0.0.1', () => r()));
  try {
    const hostPort = (host.address() as net.AddressInfo).port;
    const r = await sh('reverse', 'tcp:0', `tcp:${hostPort}`);
    expect(r.code, r.stderr).toBe(0);
    const devicePort = Number(r.stdout.trim());
    expect((await sh('reverse', '--list')).stdout.trim()).toBe(`(reverse) tcp:${devicePort} tcp:${hostPort}`);
    const answer = await new Promise<string>((resolve, reject) => {
      let got = '';
      const s = net.connect(devicePort, '127.0.0.1', () => s.write('ping'));
      s.on('data', (d) => (got += d.toString()));
      s.on('end', () => resolve(got));
      s.on('error', reject);
    });
    expect(answer).toBe('host got ping');
    expect((await sh('reverse', '--remove', `tcp:${devicePort}`)).code).toBe(0);
    expect((await sh('reverse', '--remove', `tcp:${devicePort}`)).stderr).toContain('not found');
    expect((await sh('reverse', '--list')).stdout.trim()).toBe('');
  } finally {
    host.close();
  }
});

import { test, expect } from '@playwright/test';
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAdbd, type RunningAdbd } from '../../device-runtime/sim/adbd/index.js';
import { A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_WRTE, type Packet } from '../../device-runtime/sim/adbd/packet.js';
import { simCommand } from '../../device-runtime/sim/cli.js';
import { HAVE_ADB, NO_ADB_MESSAGE, RealAdb } from '../adb/real-adb.js';
import { androidPublicKey, RawHost } from '../adb/raw-host.js';

/**
 * The simulator's adb daemon (`nestwright sim --adb-port`) as a door into the runtime: any host
 * it lets in can read the runtime's MCP token with `run-as com.coke.nestspace cat
 * files/mcp_token`. A host gets in only with a key the device trusts; reverse traffic goes to the
 * host connection that asked for it; a sync push cannot make the daemon hold gigabytes.
 */
test.describe.configure({ timeout: 180_000 });

const TOKEN = ['shell', 'run-as', 'com.coke.nestspace', 'cat', 'files/mcp_token'];

/** adb's state for a device once AUTH has run its course (not the passing `connecting`/`authorizing`/`offline`). */
async function settledState(adb: RealAdb, serial: string): Promise<string | null> {
  const until = Date.now() + 30_000;
  for (;;) {
    const s = await adb.state(serial);
    if (s === 'device' || s === 'unauthorized' || Date.now() > until) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const tokenOf = (banner: string) => /^token: (\S+)$/m.exec(banner)?.[1] ?? '';

test.describe('AUTH: only trusted keys get in', () => {
  test.skip(!HAVE_ADB, NO_ADB_MESSAGE);
  test.describe.configure({ mode: 'serial' });
  let owner: RealAdb;
  let other: RealAdb;
  test.beforeAll(async () => {
    [owner, other] = await Promise.all([RealAdb.create(), RealAdb.create()]);
  });
  test.afterAll(async () => {
    await Promise.all([owner?.close(), other?.close()]);
  });

  test('default `nestwright sim --adb-port`: a host with an unknown key stays unauthorized and cannot read the token; the user’s own ~/.android key gets in', async () => {
    // The simulator runs as the owner (HOME = the owner's adb's HOME); `other` is another local user's adb.
    const sim = await owner.simProcess(['--print-token'], { trust: 'home', connect: false });
    const token = tokenOf(sim.banner);
    expect(token.length).toBeGreaterThan(10);

    await other.adb('connect', sim.serial);
    expect(await settledState(other, sim.serial)).toBe('unauthorized');
    const stolen = await other.adb('-s', sim.serial, ...TOKEN);
    expect(stolen.stdout).not.toContain(token);
    expect(stolen.stderr).toContain('device unauthorized');
    expect(stolen.code).not.toBe(0);
    // Still unauthorized after it tried (no one tapped Allow).
    expect(await other.state(sim.serial)).toBe('unauthorized');

    await owner.connect(sim.serial);
    expect(await owner.adb('-s', sim.serial, ...TOKEN)).toMatchObject({ code: 0, stdout: `${token}\n` });
    expect(sim.banner).toMatch(/adb: a device on .*other hosts stay unauthorized/);
  });

  test('--adb-keys FILE lets in the keys it lists; --adb-trust-new-keys lets in a key no one listed', async () => {
    const listed = await other.simProcess(['--print-token']);
    expect(await settledState(other, listed.serial)).toBe('device');
    expect((await other.adb('-s', listed.serial, ...TOKEN)).stdout).toBe(`${tokenOf(listed.banner)}\n`);

    // The owner's key is the default one; `other`'s is listed nowhere, and the flag lets it in.
    const open = await owner.simProcess(['--print-token', '--adb-trust-new-keys'], { trust: 'home', connect: false });
    expect(open.banner).toContain('--adb-trust-new-keys');
    await other.adb('connect', open.serial);
    expect(await settledState(other, open.serial)).toBe('device');
    expect((await other.adb('-s', open.serial, ...TOKEN)).stdout).toBe(`${tokenOf(open.banner)}\n`);
  });
});

test('a host that offers a trusted public key it has no private key for stays out (adbkey.pub is often readable by all)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nw-adbd-keys-'));
  const owner = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ownerKey = androidPublicKey(owner.publicKey);
  writeFileSync(join(dir, 'adb_keys'), `${ownerKey} owner@host\n`, { mode: 0o600 });
  const adbd = await startAdbd({ keyFiles: [join(dir, 'adb_keys')] });
  try {
    const thief = await RawHost.connect(adbd.port);
    // Signs with its own key, then offers the owner's public key as if it were its own.
    const got = await thief.handshake({
      privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
      encoded: ownerKey,
    });
    expect(got).toBeNull();
    expect(adbd.log.some((l) => l.startsWith('AUTH new key raw@host refused'))).toBe(true);
    expect(adbd.onlineConnections()).toBe(0);
    thief.socket.destroy();
    // The owner, who holds the key, gets in.
    const real = await RawHost.connect(adbd.port);
    expect((await real.handshake({ privateKey: owner.privateKey, encoded: ownerKey }))?.command).toBe(A_CNXN);
    real.socket.destroy();
  } finally {
    await adbd.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the adb key flags are checked before anything starts: a missing or group-writable key file, a flag without --adb-port', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nw-adbd-keys-'));
  const errors: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((s: string) => (errors.push(String(s)), true)) as typeof process.stderr.write;
  try {
    expect(await simCommand(['--adb-trust-new-keys'])).toBe(2);
    expect(errors.pop()).toContain('--adb-trust-new-keys needs --adb-port N');
    expect(await simCommand(['--ephemeral', '--adb-port', '0', '--adb-keys', join(dir, 'none')])).toBe(2);
    expect(errors.pop()).toMatch(/--adb-keys .*none: .*no such file/i);
    const keys = join(dir, 'adb_keys');
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(keys, `${androidPublicKey(publicKey)} someone@host\n`);
    chmodSync(keys, 0o664);
    expect(await simCommand(['--ephemeral', '--adb-port', '0', '--adb-keys', keys])).toBe(2);
    expect(errors.pop()).toMatch(/--adb-keys .*adb_keys: writable by other users/);
    writeFileSync(keys, 'not a key\n');
    chmodSync(keys, 0o600);
    expect(await simCommand(['--ephemeral', '--adb-port', '0', '--adb-keys', keys])).toBe(2);
    expect(errors.pop()).toMatch(/--adb-keys .*adb_keys:1: not an adb public key/);
    expect(await simCommand(['--adb-port', '0', '--adb-insecure', '--adb-trust-new-keys'])).toBe(2);
    expect(errors.pop()).toContain('--adb-insecure');
  } finally {
    process.stderr.write = write;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('adb reverse: traffic goes to the host connection that asked for it, not the newest one; its listeners go with it', async () => {
  test.skip(!HAVE_ADB, NO_ADB_MESSAGE);
  const adb = await RealAdb.create();
  const keyDir = mkdtempSync(join(tmpdir(), 'nw-adbd-raw-key-'));
  const target = net.createServer((s) => s.once('data', (d) => s.end(`reached ${d.toString()}`)));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  let newest: RawHost | null = null;
  try {
    // A second host, connected after adb, with a key the device trusts.
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const encoded = androidPublicKey(publicKey);
    writeFileSync(join(keyDir, 'adb_keys'), `${encoded} raw@host\n`, { mode: 0o600 });
    const dev = await adb.device({ keyFiles: [adb.keyFile, join(keyDir, 'adb_keys')] });
    const hostPort = (target.address() as net.AddressInfo).port;
    const r = await adb.adb('-s', dev.serial, 'reverse', 'tcp:0', `tcp:${hostPort}`);
    expect(r.code, r.stderr).toBe(0);
    const devicePort = Number(r.stdout.trim());

    newest = await RawHost.connect(dev.adbd.port);
    expect((await newest.handshake({ privateKey, encoded }))?.command).toBe(A_CNXN);
    expect(dev.adbd.onlineConnections()).toBe(2);

    // An app on the device connects to the reversed port: the stream must go to adb, which asked.
    const reached = new Promise<string>((resolve, reject) => {
      let got = '';
      const s = net.connect(devicePort, '127.0.0.1', () => s.write('ping'));
      s.on('data', (d) => (got += d.toString()));
      s.on('end', () => resolve(got));
      s.on('error', reject);
    });
    const openedOnNewest = newest.next(60_000).then((p) => ({ leaked: p }));
    const first = await Promise.race([reached.then((answer) => ({ answer })), openedOnNewest]);
    expect(first, 'the device opened the reversed stream on the newest host connection').toEqual({
      answer: 'reached ping',
    });
    expect(newest.pending()).toEqual([]);

    // adb goes away: the reverse it made goes with it (as adbd removes a transport's listeners).
    await adb.adb('disconnect', dev.serial);
    await expect.poll(() => dev.adbd.onlineConnections()).toBe(1);
    const refused = await new Promise<string>((resolve) => {
      const s = net.connect(devicePort, '127.0.0.1');
      s.on('connect', () => (s.destroy(), resolve('connected')));
      s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    expect(newest.pending()).toEqual([]);
  } finally {
    newest?.socket.destroy();
    target.close();
    await adb.close();
    rmSync(keyDir, { recursive: true, force: true });
  }
});

/** Open `service` on an online raw host; resolves with the device's id for the stream. */
async function open(h: RawHost, localId: number, service: string): Promise<number> {
  h.send(A_OPEN, localId, 0, `${service}\0`);
  const okay = await h.next();
  expect(okay).toMatchObject({ command: A_OKAY, arg1: localId });
  return okay!.arg0;
}

/**
 * Write `data` on a stream as adb does, one WRTE per OKAY, in pieces of `piece` bytes. Stops
 * early when the device writes (a FAIL) or closes the stream; returns what the device sent.
 */
async function feed(h: RawHost, localId: number, remoteId: number, data: Buffer, piece: number): Promise<Packet[]> {
  const got: Packet[] = [];
  for (let i = 0; i < data.length; i += piece) {
    h.send(A_WRTE, localId, remoteId, data.subarray(i, i + piece));
    for (;;) {
      const p = await h.next();
      if (!p) return got;
      if (p.command === A_OKAY) break;
      got.push(p);
      if (p.command === A_WRTE) h.send(A_OKAY, localId, remoteId);
      if (p.command === A_CLSE) return got;
    }
    if (got.length) return got;
  }
  return got;
}

const word = (...w: number[]) => {
  const b = Buffer.alloc(w.length * 4);
  w.forEach((x, i) => b.writeUInt32LE(x >>> 0, i * 4));
  return b;
};
const syncId = (s: string) => Buffer.from(s, 'latin1').readUInt32LE(0);

test.describe('sync and install streams are bounded', () => {
  let adbd: RunningAdbd | null = null;
  test.afterEach(async () => {
    await adbd?.close();
    adbd = null;
  });

  test('sync SEND: a DATA chunk claiming 4 GiB is refused with FAIL before any of it is held; one over 64 KiB likewise', async () => {
    adbd = await startAdbd({ secure: false });
    const h = await RawHost.connect(adbd.port);
    expect((await h.handshake())?.command).toBe(A_CNXN);
    const remote = await open(h, 1, 'sync:');
    const path = Buffer.from('/data/local/tmp/huge.bin,33188');
    const head = Buffer.concat([word(syncId('SEND'), path.length), path, word(syncId('DATA'), 0xffffffff)]);
    // 16 MiB after the header claiming 4 GiB: today's daemon would hold all of it, waiting for the rest.
    const got = await feed(h, 1, remote, Buffer.concat([head, Buffer.alloc(16 * 1024 * 1024, 7)]), 256 * 1024);
    const reply = Buffer.concat(got.filter((p) => p.command === A_WRTE).map((p) => p.data));
    expect(reply.subarray(0, 4).toString('latin1')).toBe('FAIL');
    expect(reply.subarray(8).toString()).toBe('sync: DATA chunk of 4294967295 bytes is over the 65536-byte limit');
    expect(adbd.bufferPeak()).toBeLessThanOrEqual(1024 * 1024 + 256 * 1024);
    expect(existsSync(adbd.device.hostPath('/data/local/tmp/huge.bin')!)).toBe(false);
    // No temporary file left behind either.
    expect(readdirSync(adbd.device.hostPath('/data/local/tmp')!)).toEqual([]);

    const h2 = await RawHost.connect(adbd.port);
    expect((await h2.handshake())?.command).toBe(A_CNXN);
    const remote2 = await open(h2, 1, 'sync:');
    const over = Buffer.concat([word(syncId('SEND'), path.length), path, word(syncId('DATA'), 65537)]);
    const got2 = await feed(h2, 1, remote2, Buffer.concat([over, Buffer.alloc(65537)]), 64 * 1024);
    expect(Buffer.concat(got2.map((p) => p.data)).toString('latin1')).toContain(
      'sync: DATA chunk of 65537 bytes is over the 65536-byte limit',
    );
    h.socket.destroy();
    h2.socket.destroy();
  });

  test('a 24 MiB push in 64 KiB DATA chunks and a streamed install claiming 4 GiB go to disk, never held whole in memory', async () => {
    adbd = await startAdbd({ secure: false });
    const h = await RawHost.connect(adbd.port);
    expect((await h.handshake())?.command).toBe(A_CNXN);
    const size = 24 * 1024 * 1024;
    const path = Buffer.from('/data/local/tmp/big.bin,33188');
    const parts: Buffer[] = [word(syncId('SEND'), path.length), path];
    for (let i = 0; i < size; i += 65536) parts.push(word(syncId('DATA'), 65536), Buffer.alloc(65536, i & 0xff));
    parts.push(word(syncId('DONE'), 1_700_000_000));
    const remote = await open(h, 1, 'sync:');
    const got = await feed(h, 1, remote, Buffer.concat(parts), 1024 * 1024);
    // The reply to DONE may come after the OKAY of the last WRTE.
    if (!got.length) got.push((await h.next())!);
    expect(got[0]).toMatchObject({ command: A_WRTE });
    expect(got[0]!.data.subarray(0, 4).toString('latin1')).toBe('OKAY');
    expect(statSync(adbd.device.hostPath('/data/local/tmp/big.bin')!).size).toBe(size);
    expect(adbd.bufferPeak()).toBeLessThanOrEqual(2 * 1024 * 1024);

    // `cmd package install -S 4294967296`: the APK's bytes on stdin, 24 MiB of them before the host gives up.
    const install = await open(h, 2, 'exec:cmd package install -S 4294967296');
    const fed = await feed(h, 2, install, Buffer.alloc(size, 1), 1024 * 1024);
    expect(fed).toEqual([]);
    expect(adbd.bufferPeak()).toBeLessThanOrEqual(2 * 1024 * 1024);
    h.send(A_CLSE, 2, install);
    h.socket.destroy();
  });

  test('a host that keeps writing without waiting for OKAY while the service is busy is dropped, having made the daemon hold a few MiB at most', async () => {
    adbd = await startAdbd({ secure: false });
    writeFileSync(adbd.device.hostPath('/data/local/tmp/f.bin')!, Buffer.alloc(200_000));
    const h = await RawHost.connect(adbd.port);
    expect((await h.handshake())?.command).toBe(A_CNXN);
    const remote = await open(h, 1, 'sync:');
    // RECV: the device writes the file and waits for OKAYs this host never sends.
    const path = Buffer.from('/data/local/tmp/f.bin');
    h.send(A_WRTE, 1, remote, Buffer.concat([word(syncId('RECV'), path.length), path]));
    for (let i = 0; i < 16; i++) h.send(A_WRTE, 1, remote, Buffer.alloc(1024 * 1024, i));
    while (await h.next()) {
      /* OKAYs for the first WRTEs, the device's DATA, until the connection drops */
    }
    expect(h.closed).toBe(true);
    expect(adbd.log.some((l) => l.includes("WRTEs without waiting for the device's OKAY: connection dropped"))).toBe(
      true,
    );
    expect(adbd.bufferPeak()).toBeLessThanOrEqual(6 * 1024 * 1024);
  });
});

import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { dirname } from 'node:path';
import { ByteQueue } from './byte-queue.js';
import type { AndroidDevice } from './device.js';
import type { AdbStream } from './stream.js';

/** A sync request or reply id: four ASCII letters as a little-endian word (file_sync_protocol.h). */
const id = (s: string) => s.charCodeAt(0) | (s.charCodeAt(1) << 8) | (s.charCodeAt(2) << 16) | (s.charCodeAt(3) << 24);
const ID = {
  STAT: id('STAT'),
  STA2: id('STA2'),
  LST2: id('LST2'),
  LIST: id('LIST'),
  LIS2: id('LIS2'),
  DENT: id('DENT'),
  DNT2: id('DNT2'),
  SEND: id('SEND'),
  RECV: id('RECV'),
  DONE: id('DONE'),
  DATA: id('DATA'),
  OKAY: id('OKAY'),
  FAIL: id('FAIL'),
  QUIT: id('QUIT'),
};
const ENOENT = 2;
/** The largest DATA chunk either side sends (file_sync_protocol.h SYNC_DATA_MAX); adbd refuses a larger one. */
const SYNC_DATA_MAX = 64 * 1024;
let sends = 0;

function words(...w: number[]): Buffer {
  const b = Buffer.alloc(w.length * 4);
  w.forEach((x, i) => b.writeUInt32LE(x >>> 0, i * 4));
  return b;
}

function fail(message: string): Buffer {
  const m = Buffer.from(message, 'utf8');
  return Buffer.concat([words(ID.FAIL, m.length), m]);
}

/** sync_stat_v2 (72 bytes): id, error, dev, ino, mode, nlink, uid, gid, size, atime, mtime, ctime. */
function statV2(reply: number, st: Stats | null): Buffer {
  const b = Buffer.alloc(72);
  b.writeUInt32LE(reply, 0);
  if (!st) {
    b.writeUInt32LE(ENOENT, 4);
    return b;
  }
  b.writeBigUInt64LE(BigInt(st.dev), 8);
  b.writeBigUInt64LE(BigInt(st.ino), 16);
  b.writeUInt32LE(st.mode, 24);
  b.writeUInt32LE(st.nlink, 28);
  b.writeUInt32LE(2000, 32); // shell
  b.writeUInt32LE(2000, 36);
  b.writeBigUInt64LE(BigInt(st.size), 40);
  b.writeBigInt64LE(BigInt(Math.floor(st.atimeMs / 1000)), 48);
  b.writeBigInt64LE(BigInt(Math.floor(st.mtimeMs / 1000)), 56);
  b.writeBigInt64LE(BigInt(Math.floor(st.ctimeMs / 1000)), 64);
  return b;
}

function statOf(path: string | null): Stats | null {
  try {
    return path ? statSync(path) : null;
  } catch {
    return null;
  }
}

/**
 * The `sync:` service (SYNC.TXT, file_sync_protocol.h) over the device's file tree: STAT and
 * STA2/LST2, LIST, SEND (push: `path,mode`, DATA chunks, DONE with the mtime), RECV (pull) and
 * QUIT — what `adb push`, `adb pull` and the non-streamed `adb install` use.
 */
export function startSync(dev: AndroidDevice, stream: AdbStream): boolean {
  const input = new ByteQueue(stream.meter);
  stream.onData = (d) => input.push(d);
  stream.onClose(() => input.end());
  void (async () => {
    try {
      await serve(dev, input, stream);
    } catch (e) {
      // A file the device cannot read or write mid-request: FAIL, as adbd answers an I/O error.
      await stream.write(fail(`sync: ${(e as Error).message}`));
    }
    stream.end();
  })();
  return true;
}

/** Requests, one after another, until QUIT, the end of the stream, or one that ends the session. */
async function serve(dev: AndroidDevice, input: ByteQueue, stream: AdbStream): Promise<void> {
  for (;;) {
    const head = await input.read(8);
    if (!head) break;
    const req = head.readUInt32LE(0);
    const len = head.readUInt32LE(4);
    if (req === ID.QUIT) break;
    if (len > 1024) {
      await stream.write(fail(`sync: path of ${len} bytes is too long`));
      break;
    }
    const name = (await input.read(len))?.toString('utf8');
    if (name === undefined) break;
    if (req === ID.STAT) {
      const st = statOf(dev.hostPath(name));
      await stream.write(words(ID.STAT, st?.mode ?? 0, st?.size ?? 0, st ? Math.floor(st.mtimeMs / 1000) : 0));
    } else if (req === ID.STA2 || req === ID.LST2) {
      await stream.write(statV2(req, statOf(dev.hostPath(name))));
    } else if (req === ID.LIST) {
      await stream.write(list(dev, name));
    } else if (req === ID.SEND) {
      const ok = await receive(dev, name, input, stream);
      if (!ok) break;
    } else if (req === ID.RECV) {
      await send(dev, name, stream);
    } else {
      await stream.write(fail(`sync: unknown request 0x${req.toString(16)}`));
      break;
    }
  }
}

function list(dev: AndroidDevice, name: string): Buffer {
  const dir = dev.hostPath(name);
  const parts: Buffer[] = [];
  let entries: string[] = [];
  try {
    entries = dir ? readdirSync(dir) : [];
  } catch {
    entries = [];
  }
  for (const e of ['.', '..', ...entries]) {
    const st = statOf(`${dir}/${e}`);
    if (!st) continue;
    const n = Buffer.from(e, 'utf8');
    parts.push(words(ID.DENT, st.mode, st.size, Math.floor(st.mtimeMs / 1000), n.length), n);
  }
  parts.push(words(ID.DONE, 0, 0, 0, 0));
  return Buffer.concat(parts);
}

/** RECV: the file in DATA chunks, then DONE — read and sent a WRTE's worth at a time, never whole. */
async function send(dev: AndroidDevice, name: string, stream: AdbStream): Promise<void> {
  const path = dev.hostPath(name);
  let fd: number;
  try {
    if (!path || !statSync(path).isFile()) throw new Error('not a file');
    fd = openSync(path, 'r');
  } catch {
    await stream.write(fail(`remote object '${name}' does not exist`));
    return;
  }
  try {
    // As many chunks per WRTE as the host takes, each chunk read when its WRTE is due.
    const perWrite = Math.max(1, Math.floor(stream.maxData / (SYNC_DATA_MAX + 8)));
    for (;;) {
      const parts: Buffer[] = [];
      let done = false;
      for (let i = 0; i < perWrite && !done; i++) {
        const chunk = Buffer.alloc(SYNC_DATA_MAX);
        const n = readSync(fd, chunk, 0, SYNC_DATA_MAX, null);
        if (n > 0) parts.push(words(ID.DATA, n), chunk.subarray(0, n));
        else done = true;
      }
      if (done) parts.push(words(ID.DONE, 0));
      await stream.write(Buffer.concat(parts));
      if (done || stream.isClosed) return;
    }
  } finally {
    closeSync(fd);
  }
}

/** SEND: `path,mode`, then DATA chunks (each at most SYNC_DATA_MAX) and DONE(mtime); OKAY once the file is in place, FAIL otherwise. */
async function receive(dev: AndroidDevice, spec: string, input: ByteQueue, stream: AdbStream): Promise<boolean> {
  const comma = spec.lastIndexOf(',');
  const path = dev.hostPath(comma >= 0 ? spec.slice(0, comma) : spec);
  const tmp = path ? `${path}.sync-${process.pid}-${++sends}` : null;
  let fd: number | null = null;
  let error: string | null = path ? null : `cannot write ${spec}: outside the simulated device's writable tree`;
  try {
    if (tmp) {
      mkdirSync(dirname(tmp), { recursive: true });
      fd = openSync(tmp, 'w', 0o644);
    }
  } catch (e) {
    error = `cannot write ${spec}: ${(e as Error).message}`;
  }
  const discard = () => {
    if (fd !== null) closeSync(fd);
    fd = null;
    if (tmp) rmSync(tmp, { force: true });
  };
  try {
    for (;;) {
      const head = await input.read(8);
      if (!head) return false;
      const what = head.readUInt32LE(0);
      const n = head.readUInt32LE(4);
      if (what === ID.DATA) {
        if (n > SYNC_DATA_MAX) {
          await stream.write(fail(`sync: DATA chunk of ${n} bytes is over the ${SYNC_DATA_MAX}-byte limit`));
          return false;
        }
        const chunk = await input.read(n);
        if (!chunk) return false;
        if (fd !== null) writeSync(fd, chunk);
      } else if (what === ID.DONE) {
        if (error || fd === null || !tmp || !path) {
          await stream.write(fail(error ?? 'write failed'));
          return true;
        }
        closeSync(fd);
        fd = null;
        renameSync(tmp, path);
        utimesSync(path, n, n);
        await stream.write(words(ID.OKAY, 0));
        return true;
      } else {
        await stream.write(fail('sync: SEND expects DATA or DONE'));
        return false;
      }
    }
  } finally {
    // Whatever did not end in place — refused, cut off, failed — leaves nothing behind.
    discard();
  }
}

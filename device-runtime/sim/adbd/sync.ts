import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
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
const SYNC_DATA_MAX = 64 * 1024;

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
  const input = new ByteQueue();
  stream.onData = (d) => input.push(d);
  stream.onClose(() => input.end());
  void (async () => {
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
        await stream.write(send(dev, name));
      } else {
        await stream.write(fail(`sync: unknown request 0x${req.toString(16)}`));
        break;
      }
    }
    stream.end();
  })();
  return true;
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

function send(dev: AndroidDevice, name: string): Buffer {
  const p = dev.hostPath(name);
  let data: Buffer;
  try {
    data = readFileSync(p ?? '');
  } catch {
    return fail(`remote object '${name}' does not exist`);
  }
  const parts: Buffer[] = [];
  for (let i = 0; i < data.length; i += SYNC_DATA_MAX) {
    const chunk = data.subarray(i, i + SYNC_DATA_MAX);
    parts.push(words(ID.DATA, chunk.length), chunk);
  }
  parts.push(words(ID.DONE, 0));
  return Buffer.concat(parts);
}

/** SEND: `path,mode`, then DATA chunks and DONE(mtime); OKAY once the file is in place, FAIL otherwise. */
async function receive(dev: AndroidDevice, spec: string, input: ByteQueue, stream: AdbStream): Promise<boolean> {
  const comma = spec.lastIndexOf(',');
  const path = dev.hostPath(comma >= 0 ? spec.slice(0, comma) : spec);
  const tmp = path ? `${path}.sync-${process.pid}` : null;
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
  for (;;) {
    const head = await input.read(8);
    if (!head) return false;
    const what = head.readUInt32LE(0);
    const n = head.readUInt32LE(4);
    if (what === ID.DATA) {
      const chunk = await input.read(n);
      if (!chunk) return false;
      if (fd !== null) writeSync(fd, chunk);
    } else if (what === ID.DONE) {
      if (fd !== null) closeSync(fd);
      if (error || !tmp || !path) {
        await stream.write(fail(error ?? 'write failed'));
        return true;
      }
      renameSync(tmp, path);
      utimesSync(path, n, n);
      await stream.write(words(ID.OKAY, 0));
      return true;
    } else {
      if (fd !== null) closeSync(fd);
      await stream.write(fail('sync: SEND expects DATA or DONE'));
      return false;
    }
  }
}

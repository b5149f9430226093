import { ByteQueue } from './byte-queue.js';
import { runCommand } from './commands.js';
import type { AndroidDevice } from './device.js';
import type { AdbStream } from './stream.js';

/** The shell protocol's packet ids (shell_protocol.h): [id: 1 byte][length: 4 bytes LE][data]. */
const ID_STDIN = 0;
const ID_STDOUT = 1;
const ID_STDERR = 2;
const ID_EXIT = 3;
const ID_CLOSE_STDIN = 4;

function frame(id: number, data: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(id, 0);
  head.writeUInt32LE(data.length, 1);
  return Buffer.concat([head, data]);
}

/**
 * `shell[,v2][,raw|,pty][,TERM=…]:COMMAND` and `exec:COMMAND` (SERVICES.TXT, shell_protocol.h).
 * With `v2` the output is framed — stdout, stderr, then the exit status — so `adb shell` exits
 * with the command's status; without it (and for `exec:`) stdout and stderr are the stream's raw
 * bytes, as adbd's raw subprocess writes them. Returns false for a malformed service name.
 */
export function startShell(dev: AndroidDevice, service: string, stream: AdbStream): boolean {
  let command: string;
  let v2 = false;
  if (service.startsWith('exec:')) {
    command = service.slice('exec:'.length);
  } else {
    const rest = service.slice('shell'.length);
    const colon = rest.indexOf(':');
    if (colon < 0) return false;
    v2 = rest.slice(0, colon).split(',').includes('v2');
    command = rest.slice(colon + 1);
  }
  const stdin = new ByteQueue(stream.meter);
  if (v2) {
    const incoming = new ByteQueue(stream.meter);
    stream.onData = (d) => incoming.push(d);
    void (async () => {
      for (;;) {
        const head = await incoming.read(5);
        if (!head) break;
        const length = head.readUInt32LE(1);
        // adb's frames carry at most a packet's payload; a longer claim is not adb's.
        if (length > incoming.highWater) {
          stream.abort();
          break;
        }
        const data = await incoming.read(length);
        if (head[0] === ID_STDIN && data) await stdin.push(data);
        else if (head[0] === ID_CLOSE_STDIN) stdin.end();
      }
      stdin.end();
    })();
    stream.onClose(() => incoming.end());
  } else {
    stream.onData = (d) => stdin.push(d);
  }
  stream.onClose(() => stdin.end());
  void (async () => {
    const r = await runCommand(dev, command, stdin).catch((e: unknown) => ({
      err: `${(e as Error).message}\n`,
      code: 1,
      out: undefined,
    }));
    if (v2) {
      const parts: Buffer[] = [];
      if (r.out) parts.push(frame(ID_STDOUT, Buffer.from(r.out, 'utf8')));
      if (r.err) parts.push(frame(ID_STDERR, Buffer.from(r.err, 'utf8')));
      parts.push(frame(ID_EXIT, Buffer.from([r.code & 0xff])));
      await stream.write(Buffer.concat(parts));
    } else {
      await stream.write(Buffer.from(`${r.out ?? ''}${r.err ?? ''}`, 'utf8'));
    }
    stream.end();
  })();
  return true;
}

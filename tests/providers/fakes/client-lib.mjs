// Shared by the fake `adb` and `emulator` clients: connect to the fake server over its unix
// socket (starting it when it is not running, as real adb does), then relay its newline-delimited
// JSON messages ({out}, {err}, {exit}) to stdout, stderr and the exit code.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '../../..');

export function stateDir(tool) {
  const dir = process.env.NESTWRIGHT_FAKE_ANDROID;
  if (!dir || !existsSync(dir)) {
    process.stderr.write(
      `${tool} (nestwright test fake): NESTWRIGHT_FAKE_ANDROID must name the fake's state directory\n`,
    );
    process.exit(1);
  }
  return dir;
}

function connect(path) {
  return new Promise((resolve, reject) => {
    const s = net.connect(path);
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

export async function connectOrStart(tool, relay) {
  const dir = stateDir(tool);
  const path = join(dir, 'adb.sock');
  let sock;
  try {
    sock = await connect(path);
  } catch {
    if (tool === 'adb') process.stderr.write('* daemon not running; starting now at tcp:5037\n');
    // The command FakeAndroid chose (the server esbuilt, outside the fast tier), else through tsx.
    const given = process.env.NESTWRIGHT_FAKE_ADB_SERVER_COMMAND;
    const [cmd, ...pre] = given
      ? JSON.parse(given)
      : [process.execPath, '--import', 'tsx', join(HERE, 'adb-server.ts')];
    const child = spawn(cmd, [...pre, dir], {
      cwd: ROOT,
      detached: true,
      stdio: 'ignore',
    });
    child.unref();
    const until = Date.now() + 15_000;
    while (!sock) {
      try {
        sock = await connect(path);
      } catch (e) {
        if (Date.now() > until) {
          process.stderr.write(`${tool}: cannot connect to daemon: ${e.message}\n`);
          process.exit(1);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    if (tool === 'adb') process.stderr.write('* daemon started successfully\n');
  }
  if (relay) relayMessages(sock);
  return sock;
}

export function relayMessages(sock, onMessage) {
  let buf = '';
  sock.setEncoding('utf8');
  sock.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buf.slice(0, i));
      buf = buf.slice(i + 1);
      if (onMessage && onMessage(msg)) continue;
      if (msg.out) process.stdout.write(msg.out);
      if (msg.err) process.stderr.write(msg.err);
      if (msg.exit !== undefined) {
        process.exitCode = msg.exit;
        sock.end();
      }
    }
  });
  sock.on('close', () => process.exit(process.exitCode ?? 1));
  sock.on('error', () => process.exit(1));
  for (const sig of ['SIGTERM', 'SIGINT'])
    process.on(sig, () => {
      sock.destroy();
      process.exit(130);
    });
}

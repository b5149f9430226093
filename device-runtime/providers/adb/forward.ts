import { execaSync } from 'execa';
import type { Adb } from './adb.js';
import { ProviderError } from './errors.js';

/** Forwards this process made and has not removed yet: removed on exit, even after a crash. */
const live = new Map<number, { bin: string; serial: string }>();
let hooked = false;

function removeAllSync(): void {
  for (const [port, f] of live) {
    try {
      execaSync(f.bin, ['-s', f.serial, 'forward', '--remove', `tcp:${port}`], {
        timeout: 2_000,
        reject: false,
        stdin: 'ignore',
      });
    } catch {
      // best effort while exiting
    }
  }
  live.clear();
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  // 'exit' covers normal ends and uncaught exceptions; signals are turned into exits here only if
  // nobody else handles them (Playwright's workers are ended by their runner, which exits).
  process.once('exit', removeAllSync);
}

/** `adb forward tcp:0 tcp:<devicePort>`: adb picks a free local port and prints it. */
export function forwardPort(adb: Adb, serial: string, devicePort: number): Promise<number> {
  return forwardTo(adb, serial, `tcp:${devicePort}`);
}

/**
 * `adb forward tcp:0 <remote>`, for any remote adb forwards to: `tcp:<port>`, or
 * `localabstract:<name>` (an abstract socket, such as a WebView's `webview_devtools_remote_<pid>`).
 */
export async function forwardTo(adb: Adb, serial: string, remote: string): Promise<number> {
  const r = await adb.run(serial, ['forward', 'tcp:0', remote]);
  const port = Number(r.stdout.trim().split(/\s+/).pop());
  if (!Number.isInteger(port) || port <= 0) {
    throw new ProviderError(adb.api, 'FORWARD_FAILED', `adb forward did not print the local port it chose`, {
      command: `adb -s ${serial} forward tcp:0 ${remote}`,
      stderr: r.stderr,
      hint: 'Update platform-tools: adb prints the port for tcp:0 since version 1.0.36.',
    });
  }
  live.set(port, { bin: adb.bin, serial });
  hookExit();
  return port;
}

/** `adb forward --remove tcp:<port>`; a forward that is already gone (device unplugged) is fine. */
export async function removeForward(adb: Adb, serial: string, port: number): Promise<void> {
  live.delete(port);
  await adb.run(serial, ['forward', '--remove', `tcp:${port}`], { timeoutMs: 5_000 }).catch(() => {});
}

/** Debian's `apksigner` (the platform's own verifier, in Java) as an independent oracle for the tests. */
import { execFile, spawnSync } from 'node:child_process';

export const hasApksigner = !spawnSync('apksigner', ['version'], { encoding: 'utf8' }).error;

/** `apksigner verify` verdict: true when it exits 0. Runs at most two at a time (JVM start-up is heavy). */
export function apksignerVerifies(path: string): Promise<{ ok: boolean; out: string }> {
  return limit(
    () =>
      new Promise((resolve) => {
        execFile('apksigner', ['verify', '-v', path], { timeout: 120_000 }, (err, stdout, stderr) =>
          resolve({ ok: !err, out: `${stdout}${stderr}` }),
        );
      }),
  );
}

let running = 0;
const queue: Array<() => void> = [];
async function limit<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= 2) await new Promise<void>((r) => queue.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    queue.shift()?.();
  }
}

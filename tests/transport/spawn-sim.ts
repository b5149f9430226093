import { spawn, type ChildProcess } from 'node:child_process';
import { simCommandLine } from '../child-bundle.js';
import { ROOT } from '../runtime/helpers.js';

export interface SpawnedSim {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  /** Signal the child's process group, and wait until it has exited and closed its output. */
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/**
 * Start `nestwright sim` as a child process (its own process group) and wait for its URL. By
 * default `node <bin> sim` (simCommandLine: the bundle's command line in the integration and e2e
 * tiers, cli-main.ts through tsx on the sources): one process, so its exit code is the command's;
 * `via: 'npx'` runs `npx nestwright sim` as a user types it.
 */
export async function spawnSim(args: string[], opts: { via?: 'node' | 'npx' } = {}): Promise<SpawnedSim> {
  const [cmd, ...pre] = opts.via === 'npx' ? ['npx', 'nestwright', 'sim'] : await simCommandLine();
  const child = spawn(cmd!, [...pre, ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const m = /listening on (\S+)/.exec(out);
      if (m) {
        child.stdout!.off('data', onData);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => reject(new Error(`nestwright sim exited with ${code} before listening:\n${out}`)));
  });
  return {
    child,
    url,
    stdout: () => out,
    async kill(signal) {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
      return exited;
    },
  };
}

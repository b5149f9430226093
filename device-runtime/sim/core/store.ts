import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { PersistedSpace } from './space.js';

/** Everything a restarted simulator needs to find its spaces, installs and instance data again. */
export interface PersistedState {
  version: 1;
  displayCounter: number;
  spaces: PersistedSpace[];
  idempotency: Array<[string, { fingerprint: string; result: unknown }]>;
}

/**
 * Default state directory: `.nestwright/sim` in the working directory when the project already has
 * a `.nestwright/` folder (state stays with the project), else `~/.nestwright/sim`.
 */
export function defaultStateDir(cwd = process.cwd()): string {
  return existsSync(join(cwd, '.nestwright')) ? resolve(cwd, '.nestwright', 'sim') : join(homedir(), '.nestwright', 'sim');
}

/**
 * state.json in a state directory, written the way the design writes it: whole file to a temp
 * name, then rename, so a crash mid-write leaves the previous state intact. Writes are coalesced:
 * `schedule` after every change, at most one write per `delayMs`; `flush` on shutdown.
 */
export class SimStore {
  private timer: NodeJS.Timeout | null = null;
  private pending: (() => PersistedState) | null = null;
  readonly file: string;

  constructor(
    readonly dir: string,
    private readonly delayMs = 100,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.file = join(dir, 'state.json');
  }

  load(): PersistedState | null {
    if (!existsSync(this.file)) return null;
    let raw: PersistedState;
    try {
      raw = JSON.parse(readFileSync(this.file, 'utf8')) as PersistedState;
    } catch (e) {
      throw new Error(`sim: ${this.file} is not valid JSON (${(e as Error).message}). Move it away to start with no spaces, or pass --ephemeral.`);
    }
    if (raw.version !== 1) throw new Error(`sim: ${this.file} has state version ${String(raw.version)}; this simulator reads version 1.`);
    return raw;
  }

  schedule(snapshot: () => PersistedState): void {
    this.pending = snapshot;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      // A failed background write must not take the runtime down; the next change retries it.
      try {
        this.flush();
      } catch (e) {
        this.lastError = e as Error;
        process.stderr.write(`nestwright sim: could not write ${this.file}: ${(e as Error).message}\n`);
      }
    }, this.delayMs);
  }

  /** The last background write failure, if any (shutdown's flush throws instead). */
  lastError: Error | null = null;

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const snapshot = this.pending;
    this.pending = null;
    if (!snapshot) return;
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(snapshot()), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
  return existsSync(join(cwd, '.nestwright'))
    ? resolve(cwd, '.nestwright', 'sim')
    : join(homedir(), '.nestwright', 'sim');
}

/**
 * state.json in a state directory, written the way the design writes it: whole file to a temp
 * name, then rename, so a crash mid-write leaves the previous state intact. Writes are coalesced:
 * `schedule` after every change, at most one write per `delayMs`; `flush` on shutdown.
 *
 * When a write fails (disk full, directory made read-only) the temp file is removed, state.json
 * keeps the last complete state, and `unwritable()` says why until a write succeeds again: the
 * runtime refuses calls that change state meanwhile, so memory and disk never drift apart.
 */
export class SimStore {
  private timer: NodeJS.Timeout | null = null;
  private pending: (() => PersistedState) | null = null;
  readonly file: string;

  constructor(
    readonly dir: string,
    private readonly delayMs = 100,
  ) {
    this.file = join(dir, 'state.json');
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (e) {
      throw new Error(
        `sim: cannot use ${dir} as the state directory (${(e as Error).message}). Pass another --state-dir, or --ephemeral to keep nothing on disk.`,
        { cause: e },
      );
    }
  }

  load(): PersistedState | null {
    // A process killed between writing its temp file and renaming it leaves the temp file behind;
    // state.json is still the last complete state, so the leftover is only clutter.
    for (const f of readdirSync(this.dir))
      if (/^state\.json\.\d+\.tmp$/.test(f)) rmSync(join(this.dir, f), { force: true });
    if (!existsSync(this.file)) return null;
    let raw: PersistedState;
    try {
      raw = JSON.parse(readFileSync(this.file, 'utf8')) as PersistedState;
    } catch (e) {
      throw new Error(
        `sim: ${this.file} is not valid JSON (${(e as Error).message}). Move it away to start with no spaces, or pass --ephemeral.`,
      );
    }
    if (raw.version !== 1)
      throw new Error(`sim: ${this.file} has state version ${String(raw.version)}; this simulator reads version 1.`);
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
        process.stderr.write(`nestwright sim: could not write ${this.file}: ${(e as Error).message}\n`);
      }
    }, this.delayMs);
  }

  /** The last write failure, cleared by the next successful write. */
  lastError: Error | null = null;

  /**
   * Null when state can be saved; else why not (`ENOSPC: no space left on device…`). While a
   * write is failing, each call retries it first, so the first call after space is freed succeeds.
   */
  unwritable(): { message: string; errno: string | null } | null {
    if (!this.lastError) return null;
    try {
      this.flush();
    } catch {
      /* still failing: lastError is set again */
    }
    const e = this.lastError as NodeJS.ErrnoException | null;
    return e ? { message: e.message, errno: e.code ?? null } : null;
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const snapshot = this.pending;
    if (!snapshot) return;
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify(snapshot()), { mode: 0o600 });
      renameSync(tmp, this.file);
    } catch (e) {
      // Keep the snapshot to write later, and no half-written temp file.
      try {
        rmSync(tmp, { force: true });
      } catch {
        /* a read-only disk cannot even remove it */
      }
      this.lastError = e as Error;
      throw e;
    }
    this.pending = null;
    this.lastError = null;
  }
}

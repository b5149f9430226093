import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { FingerprintSchema, type Fingerprint } from './fingerprint.js';

/** One remembered resolution: the locator, where in the spec it ran, what it resolved to. */
export const FingerprintEntrySchema = z.object({
  selector: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  fingerprint: FingerprintSchema,
});
export type FingerprintEntry = z.infer<typeof FingerprintEntrySchema>;

/** A proposal a person turned down: not proposed again for this locator at this place. */
export const RejectedSchema = z.object({ selector: z.string(), line: z.number().int(), proposed: z.string() });
export type Rejected = z.infer<typeof RejectedSchema>;

export const FingerprintFileSchema = z.object({
  version: z.literal(1),
  /** Keyed `line:column selector`, sorted, so the file diffs well. */
  entries: z.record(z.string(), FingerprintEntrySchema),
  rejected: z.array(RejectedSchema).default([]),
});
export type FingerprintFile = z.infer<typeof FingerprintFileSchema>;

/** `specs/notes.spec.ts` → `specs/__fingerprints__/notes.spec.ts.json`, next to the spec like Playwright's snapshots. */
export const fingerprintFileOf = (specFile: string) =>
  join(dirname(specFile), '__fingerprints__', `${basename(specFile)}.json`);
export const entryKey = (e: { line: number; column: number; selector: string }) =>
  `${e.line}:${e.column} ${e.selector}`;

export function readFingerprintFile(path: string): FingerprintFile {
  if (!existsSync(path)) return { version: 1, entries: {}, rejected: [] };
  const parsed = FingerprintFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success)
    throw new Error(
      `heal: ${path} is not a fingerprint file:\n${z.prettifyError(parsed.error)}\nDelete it to start again (the next passing run records new fingerprints).`,
    );
  return parsed.data;
}

/**
 * Read-modify-write `path` under an exclusive lock file (workers of one run write the same spec's
 * file), then rename into place, so a reader never sees half a file. `change` returns false when
 * nothing changed: then nothing is written, and a clean checkout stays clean.
 */
export function updateFingerprintFile(path: string, change: (file: FingerprintFile) => boolean): void {
  mkdirSync(dirname(path), { recursive: true });
  const lock = `${path}.lock`;
  const deadline = Date.now() + 10_000;
  let fd: number | null = null;
  while (fd === null) {
    try {
      fd = openSync(lock, 'wx');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (Date.now() > deadline) rmSync(lock, { force: true }); // a worker that died holding it
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  try {
    const file = readFingerprintFile(path);
    if (!change(file)) return;
    const sorted = Object.fromEntries(
      Object.entries(file.entries).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })),
    );
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ version: 1, entries: sorted, rejected: file.rejected }, null, 1)}\n`);
    renameSync(tmp, path);
  } finally {
    closeSync(fd);
    rmSync(lock, { force: true });
  }
}

/**
 * The fingerprint for a locator at a place in a spec: the one recorded at that line and column;
 * else, when the spec was edited and lines moved, the same selector's entry at the nearest line.
 */
export function findFingerprint(
  file: FingerprintFile,
  selector: string,
  line: number,
  column: number,
): FingerprintEntry | null {
  const exact = file.entries[entryKey({ line, column, selector })];
  if (exact) return exact;
  const same = Object.values(file.entries).filter((e) => e.selector === selector);
  same.sort((a, b) => Math.abs(a.line - line) - Math.abs(b.line - line) || a.column - b.column);
  return same[0] ?? null;
}

/**
 * When recorded fingerprints are written back to the spec's file: Playwright's `updateSnapshots`,
 * since fingerprints are baselines next to the spec as snapshots are. `'default'` and `'missing'`
 * add entries for locators that have none and never rewrite one, so a run over committed files
 * leaves the tree as it was (a fingerprint is no assertion: a new one does not fail the test, as a
 * new snapshot does under `'default'`); `'all'` and `'changed'` (`--update-snapshots`) rewrite the
 * entries that differ; `'none'` writes nothing.
 */
export type FingerprintUpdate = 'all' | 'changed' | 'missing' | 'none' | 'default';

/** Worker-wide cache of fingerprint files, with the entries recorded since they were read. */
export class FingerprintStore {
  private files = new Map<string, FingerprintFile>();
  private dirty = new Map<string, FingerprintEntry[]>();

  constructor(private readonly update: FingerprintUpdate = 'default') {}

  private get addsOnly(): boolean {
    return this.update === 'missing' || this.update === 'default';
  }

  get(specFile: string): FingerprintFile {
    const path = fingerprintFileOf(specFile);
    let f = this.files.get(path);
    if (!f) this.files.set(path, (f = readFingerprintFile(path)));
    return f;
  }

  /** Remember an entry (in memory; written by {@link flush}). */
  put(specFile: string, recorded: FingerprintEntry): void {
    const file = this.get(specFile);
    const key = entryKey(recorded);
    const known = file.entries[key];
    // This run heals from what it saw last either way; the file changes only as `update` allows
    // (by default, an action on a known locator stops here, before any copy or comparison).
    file.entries[key] = recorded;
    if (this.update === 'none' || (this.addsOnly && known)) return;
    // In the schema's key order, as entries read back from a file are: a file written again
    // around a new entry leaves the others byte for byte.
    const entry = FingerprintEntrySchema.parse(recorded);
    if (JSON.stringify(known) === JSON.stringify(entry)) return;
    const path = fingerprintFileOf(specFile);
    this.dirty.set(path, [...(this.dirty.get(path) ?? []), entry]);
  }

  /** Write what changed, one locked read-merge-write per file (the batch). */
  flush(): void {
    for (const [path, entries] of this.dirty) {
      updateFingerprintFile(path, (f) => {
        let changed = false;
        for (const e of entries) {
          const key = entryKey(e);
          if (this.addsOnly && f.entries[key]) continue; // another worker added it first
          if (JSON.stringify(f.entries[key]) !== JSON.stringify(e)) {
            f.entries[key] = e;
            changed = true;
          }
        }
        return changed;
      });
    }
    this.dirty.clear();
  }
}

export type { Fingerprint };

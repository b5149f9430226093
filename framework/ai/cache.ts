import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, openSync, closeSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { AiError } from './errors.js';

/**
 * The action cache: one JSON file per spec file, in `__ai-cache__/` beside it, meant to be
 * reviewed and committed. An entry is what a passing `act` did — the selectors of the nodes it
 * acted on and the texts it typed (parameters by name, never secret values) — keyed by the
 * instruction template, the app and the screen it started on. Replay runs those steps through the
 * ordinary locator actions with no model call.
 *
 * Writes: entries are staged during a test and written only when it passed; a replay that failed
 * marks its entry stale at once (so the next run asks the model). Several workers may run tests
 * of one spec file at once: each write is a read-modify-write under a lock file, renamed into place.
 */
export const CacheStepSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('tap'), selector: z.string(), node: z.string() }),
  z.strictObject({ action: z.literal('long_press'), selector: z.string(), node: z.string() }),
  z.strictObject({ action: z.literal('type_text'), selector: z.string(), node: z.string(), text: z.string() }),
  z.strictObject({
    action: z.literal('scroll'),
    selector: z.string(),
    node: z.string(),
    direction: z.enum(['up', 'down', 'left', 'right']),
  }),
  z.strictObject({ action: z.literal('press_key'), key: z.enum(['back', 'enter', 'tab', 'delete', 'search']) }),
  z
    .strictObject({ action: z.literal('function'), name: z.string(), params: z.record(z.string(), z.unknown()) })
    .describe('An app function the model called (app.functions), replayed with the same parameters'),
]);
export type CacheStep = z.infer<typeof CacheStepSchema>;

export const CacheEntrySchema = z.strictObject({
  instruction: z.string(),
  package: z.string(),
  screen: z.string().describe('package/activity the step started on'),
  endScreen: z.string().describe('package/activity it ended on: checked after replay'),
  status: z.enum(['ok', 'stale']),
  steps: z.array(CacheStepSchema),
  model: z.string(),
  recorded: z.string().describe('Date (YYYY-MM-DD) of the run that wrote it'),
  staleReason: z.string().optional(),
});
export type CacheEntry = z.infer<typeof CacheEntrySchema>;

export const CacheFileSchema = z.strictObject({
  version: z.literal(1),
  entries: z.record(z.string(), CacheEntrySchema),
});
export type CacheFile = z.infer<typeof CacheFileSchema>;

export function cacheKey(instruction: string, pkg: string, screen: string): string {
  return createHash('sha256')
    .update(JSON.stringify([instruction, pkg, screen]))
    .digest('hex')
    .slice(0, 16);
}

/** `specs/notes-ai.spec.ts` → `specs/__ai-cache__/notes-ai.spec.ts.json`. */
export function cachePathFor(specFile: string): string {
  return join(dirname(specFile), '__ai-cache__', `${basename(specFile)}.json`);
}

export function readCache(file: string): CacheFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { version: 1, entries: {} };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new AiError(
      'ai cache',
      'AI_CONFIG',
      `${file} is not JSON (${(e as Error).message}); fix it or delete it to record again`,
    );
  }
  const r = CacheFileSchema.safeParse(json);
  if (!r.success)
    throw new AiError(
      'ai cache',
      'AI_CONFIG',
      `${file}: ${z.prettifyError(r.error)}\nFix the entry or delete the file to record again.`,
    );
  return r.data;
}

/** Apply `change` to the file under a lock; keys sorted so diffs stay small. */
export async function updateCache(file: string, change: (c: CacheFile) => void): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  const lock = `${file}.lock`;
  for (let waited = 0; ; waited += 25) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // A lock left by a killed worker is taken over after 10 s.
      if (waited > 10_000 || Date.now() - statMtime(lock) > 10_000) {
        rmSync(lock, { force: true });
        continue;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  try {
    const c = readCache(file);
    change(c);
    const sorted: CacheFile = {
      version: 1,
      entries: Object.fromEntries(Object.entries(c.entries).sort(([a], [b]) => a.localeCompare(b))),
    };
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(sorted, null, 2) + '\n');
    renameSync(tmp, file);
  } finally {
    rmSync(lock, { force: true });
  }
}

function statMtime(f: string): number {
  try {
    return statSync(f).mtimeMs;
  } catch {
    return Date.now();
  }
}

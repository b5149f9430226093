import { test } from '@playwright/test';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { reviveRun, type InlineRun } from './inline.js';

/**
 * The child runs a test file shares among its tests (one `beforeAll`, one `test()` per
 * behaviour), made once per outer run. A failed test makes Playwright start a new worker for
 * the file's remaining tests, and that worker's `beforeAll` would start every child run again:
 * so the first one's outcome is kept as JSON in the project's output directory (which
 * Playwright empties when a run starts), under the runner's pid, and read back.
 *
 * `make` returns a record of JSON values; its top-level values that are child runs get their
 * `result(title)` back when read. Facts about files a run wrote (a baseline's size, whether one
 * exists) belong in the record too: read them in `make`, before the next run changes them.
 */
export async function sharedBatch<T extends Record<string, unknown>>(name: string, make: () => Promise<T>): Promise<T> {
  const info = test.info();
  // A retry (--retries) starts the runs again: it is there for a run that may go otherwise.
  const key = createHash('sha256').update(`${info.file}\0${name}\0${info.retry}`).digest('hex').slice(0, 16);
  const file = path.join(info.project.outputDir, '.shared-batches', `${process.ppid}-${key}.json`);
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(saved).map(([k, v]) => [k, isRun(v) ? reviveRun(v) : v])) as T;
  }
  const value = await make();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
  return value;
}

function isRun(v: unknown): v is Omit<InlineRun, 'result'> {
  return typeof v === 'object' && v !== null && 'results' in v && 'exitCode' in v && 'raw' in v;
}

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestInfo } from '@playwright/test';
import type { NetworkRecord } from '../network/record.js';
import type { TrajectoryStep } from '../core/trajectory-schema.js';
import type { FailureVerdict } from './classify.js';

/**
 * What an attempt of a test left for its retry to compare with: the verdict, the failing step's
 * timing, the screen at failure and the network's answers. A retry runs in a fresh worker (and
 * so a fresh app instance), so this goes through a file under the project's output folder, which
 * Playwright empties when a run starts.
 */
export interface AttemptRecord {
  retry: number;
  verdict: FailureVerdict;
  /** Every step's title and duration, in order. */
  steps: Array<{ title: string; durationMs: number; result: 'ok' | 'failed' }>;
  /** The screen at failure: `package activity, N nodes` (and whether the tree was missing). */
  screen: string | null;
  /** `METHOD url → status` per request, in order. */
  network: string[];
}

const file = (testInfo: TestInfo, retry: number) =>
  path.join(testInfo.project.outputDir, '.nestwright-attempts', `${testInfo.testId}-${retry}.json`);

export const networkLines = (records: readonly NetworkRecord[]): string[] =>
  records.map((r) => `${r.method} ${r.url} → ${r.status ?? r.error ?? 'failed'}`);

export const stepLines = (steps: readonly TrajectoryStep[]): AttemptRecord['steps'] =>
  steps.map((s) => ({ title: s.title, durationMs: s.durationMs, result: s.result }));

/** Keep this failed attempt for the next retry. */
export async function saveAttempt(testInfo: TestInfo, record: AttemptRecord): Promise<void> {
  const to = file(testInfo, record.retry);
  await mkdir(path.dirname(to), { recursive: true });
  await writeFile(to, JSON.stringify(record));
}

/** The last failed attempt before this one, if it left a record. */
export async function lastAttempt(testInfo: TestInfo): Promise<AttemptRecord | null> {
  for (let r = testInfo.retry - 1; r >= 0; r--) {
    try {
      return JSON.parse(await readFile(file(testInfo, r), 'utf8')) as AttemptRecord;
    } catch {
      /* that attempt left none (it passed, or ran without the fixture): look further back */
    }
  }
  return null;
}

/**
 * What differed between a failed attempt and the one that passed, in a line each: the failing
 * step's time then and now, the screen at failure, the network answers that changed.
 */
export function diffAttempts(
  failed: AttemptRecord,
  now: { steps: AttemptRecord['steps']; network: string[]; screen: string | null },
): string[] {
  const out: string[] = [];
  const v = failed.verdict;
  const at = v.step ? failed.steps[v.step.index] : undefined;
  const same = at ? now.steps.find((s) => s.title === at.title) : undefined;
  if (at)
    out.push(
      same
        ? `step "${at.title}": ${at.durationMs}ms and failed (${v.code}) on retry ${failed.retry}, ${same.durationMs}ms and passed now`
        : `step "${at.title}" failed (${v.code}) on retry ${failed.retry}; this attempt did not run it`,
    );
  else out.push(`failed (${v.class} · ${v.code}) on retry ${failed.retry} outside any step`);
  const total = (steps: AttemptRecord['steps']) => steps.reduce((n, s) => n + s.durationMs, 0);
  out.push(
    `steps: ${failed.steps.length} taking ${total(failed.steps)}ms then, ${now.steps.length} taking ${total(now.steps)}ms now`,
  );
  if (failed.screen)
    out.push(`screen at failure: ${failed.screen}${now.screen ? `; at the end now: ${now.screen}` : ''}`);
  const then = new Set(failed.network);
  const changed = [
    ...failed.network.filter((l) => !now.network.includes(l)).map((l) => `then only: ${l}`),
    ...now.network.filter((l) => !then.has(l)).map((l) => `now only: ${l}`),
  ];
  if (changed.length) out.push(`network answers: ${changed.slice(0, 6).join('; ')}${changed.length > 6 ? ' …' : ''}`);
  else if (failed.network.length) out.push(`network answers: the same ${failed.network.length}`);
  return out;
}

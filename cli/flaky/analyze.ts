import type { Attempt, Run } from './runs.js';

/**
 * Per test over N runs: how often it passed at the first try, how it failed (classes, codes,
 * steps), when it first and last failed, and a verdict. A test that failed in every run, at the
 * same step with the same class and code each time, is `broken` (fix it; a retry or a
 * quarantine will not help); one that failed in every run in different ways is `failing`; one
 * that sometimes passes and sometimes fails (or passed only on a retry) is `flaky`.
 */

export type Verdict = 'stable' | 'flaky' | 'broken' | 'failing';

export interface TestTrend {
  /** `project › file › describe › title`. */
  key: string;
  /** `file › describe › title`, as a quarantine entry names it. */
  title: string;
  verdict: Verdict;
  /** Runs it ran in (not skipped). */
  runs: number;
  /** Runs in which its first attempt passed. */
  passedFirstTry: number;
  /** Runs in which it failed and then passed on a retry. */
  passedOnRetry: number;
  /** Runs in which it ended failed. */
  failed: number;
  /** passedFirstTry / runs, 0..1. */
  passRate: number;
  /** Failed attempts by class (`device`, `test`, … or `unclassified`). */
  classes: Record<string, number>;
  /** Failed attempts by code. */
  codes: Record<string, number>;
  /** The step that failed most often, and how many of the failed attempts failed there. */
  failingStep: { title: string; count: number } | null;
  firstFailure: { at: string; source: string } | null;
  lastFailure: { at: string; source: string } | null;
  quarantined: boolean;
}

const failedAttempt = (a: Attempt) => !a.ok;
const count = (into: Record<string, number>, k: string) => void (into[k] = (into[k] ?? 0) + 1);

/** The trend of every test over `runs` (oldest first), worst pass rate first. */
export function analyze(runs: readonly Run[]): TestTrend[] {
  const by = new Map<string, { title: string; runs: Array<{ run: Run; attempts: Attempt[] }>; quarantined: boolean }>();
  for (const run of runs) {
    for (const t of run.tests) {
      const e = by.get(t.key) ?? { title: t.title, runs: [], quarantined: false };
      e.runs.push({ run, attempts: t.attempts });
      e.quarantined ||= t.quarantined;
      by.set(t.key, e);
    }
  }
  const trends: TestTrend[] = [];
  for (const [key, { title, runs: seen, quarantined }] of by) {
    const ran = seen.filter((s) => s.attempts.some((a) => a.status !== 'skipped'));
    if (ran.length === 0) continue;
    const classes: Record<string, number> = {};
    const codes: Record<string, number> = {};
    const steps: Record<string, number> = {};
    const ways = new Set<string>();
    let passedFirstTry = 0;
    let passedOnRetry = 0;
    let failed = 0;
    let first: TestTrend['firstFailure'] = null;
    let last: TestTrend['lastFailure'] = null;
    for (const { run, attempts } of ran) {
      const fails = attempts.filter(failedAttempt);
      const end = attempts.at(-1)!;
      if (fails.length === 0) passedFirstTry++;
      else if (end.ok) passedOnRetry++;
      else failed++;
      for (const a of fails) {
        count(classes, a.class ?? 'unclassified');
        if (a.code) count(codes, a.code);
        if (a.step) count(steps, a.step);
        ways.add(`${a.step ?? '-'}|${a.class}|${a.code}`);
      }
      if (fails.length) {
        const at = { at: new Date(run.startedAt).toISOString(), source: run.source };
        first ??= at;
        last = at;
      }
    }
    const top = Object.entries(steps).sort((a, b) => b[1] - a[1])[0];
    const verdict: Verdict =
      failed === ran.length
        ? ways.size === 1 && !ways.has('-|unclassified|null')
          ? 'broken'
          : 'failing'
        : failed + passedOnRetry > 0
          ? 'flaky'
          : 'stable';
    trends.push({
      key,
      title,
      verdict,
      runs: ran.length,
      passedFirstTry,
      passedOnRetry,
      failed,
      passRate: passedFirstTry / ran.length,
      classes,
      codes,
      failingStep: top ? { title: top[0], count: top[1] } : null,
      firstFailure: first,
      lastFailure: last,
      quarantined,
    });
  }
  return trends.sort((a, b) => a.passRate - b.passRate || a.key.localeCompare(b.key));
}

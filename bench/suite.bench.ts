import { readFileSync } from 'node:fs';
import path from 'node:path';
import { median, round, type BenchSection } from './section.js';
import { copies, ROOT, runSuite, type SuiteRun } from './suite-run.js';

/** Copies of specs/notes.spec.ts (6 tests each): long enough that start-up is a small part of the 1-worker run. */
const FILES = Number(process.env.NESTWRIGHT_BENCH_SUITE_FILES ?? 100);

const pct = (part: number, whole: number) => `${round((100 * part) / whole, 1)}%`;

function row(measure: string, r: SuiteRun): Record<string, string | number> {
  return {
    measure,
    median_ms: round(r.wallMs, 0),
    tests: r.tests,
    tests_per_s: round(r.tests / (r.wallMs / 1000)),
    test_median_ms: round(median(r.durations.length ? r.durations : [0])),
    gap_median_ms: round(median(r.gaps.length ? r.gaps : [0])),
    start_up_ms: round(r.startUpMs, 0),
    start_up: pct(r.startUpMs, r.wallMs),
    between_tests: pct(r.betweenMs, r.wallMs),
    ...(r.ok ? {} : { note: 'FAILED' }),
  };
}

/**
 * The example notes spec as a long suite on the embedded simulated device (`instant`), with 1
 * and 2 workers, and where the wall time went: start-up (before the first test and after the
 * last), the runner's time between one test and the next of a worker, the tests themselves.
 * Beside it, Playwright alone running empty tests: the floor of the time between tests.
 */
export async function benchSuite(): Promise<BenchSection> {
  const spec = readFileSync(path.join(ROOT, 'specs/notes.spec.ts'), 'utf8');
  const dir = path.join(ROOT, 'test-results/bench-suite');
  const runs: Record<number, SuiteRun> = {};
  const rows: BenchSection['rows'] = [];
  for (const workers of [1, 2]) {
    const r = await runSuite({ config: 'bench/suite.config.ts', dir, workers, write: copies(FILES, 'notes', spec), env: { NESTWRIGHT_FAULTS: 'instant' } });
    runs[workers] = r;
    const name = (w: number) => `notes spec ×${FILES} files (${runs[1]!.tests} tests), ${w} worker${w > 1 ? 's' : ''}`;
    rows.push({
      ...row(name(workers), r),
      ...(workers === 2 ? { vs: name(1), ratio: round(runs[1]!.wallMs / r.wallMs), steady_ratio: round(r.steadyPerS / runs[1]!.steadyPerS) } : {}),
    });
  }
  // Playwright's `test` (with its browser fixtures) and its root test type, which nestwright's `test` extends.
  for (const [name, what] of [['test', "its test"], ['_baseTest as test', 'its root test type']] as const) {
    const empty = `import { ${name}, expect } from '@playwright/test';\nfor (let i = 0; i < 10; i++) test(\`empty \${i}\`, async () => { expect(i).toBe(i); });\n`;
    const plain = await runSuite({ config: 'bench/plain.config.ts', dir: path.join(ROOT, 'test-results/bench-plain'), workers: 1, write: copies(Math.min(FILES, 60), 'empty', empty) });
    rows.push(row(`Playwright alone (${what}): empty tests ×10 per file, 1 worker`, plain));
  }
  return {
    title: 'suite: throughput with 1 and 2 workers, start-up, time between tests',
    rows,
    notes: [
      'median_ms: the wall time of one child Playwright run (JSON reporter), start to exit. ratio: 1 worker\'s wall time over 2 workers\' (throughput); steady_ratio: the same from the first test\'s start to the last one\'s end.',
      'start_up: before the first test (CLI, config, global setup with the embedded device, worker start, its device connection and space) plus after the last. between_tests: per worker, from one test\'s end to its next test\'s start, summed; test times include the per-test instance (launch and wipe).',
      'Playwright alone: the runner\'s own time between tests (gap_median_ms) with no nestwright at all, on this machine: with its `test`, whose browser fixtures set up two automatic fixtures per test, and with its root test type, which nestwright\'s `test` extends. On 2 cores the device, the runner and the workers share the cores.',
    ],
  };
}

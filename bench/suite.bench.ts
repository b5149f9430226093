import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { median, round, type BenchSection } from './section.js';
import { httpCeiling } from './ceiling.js';
import { copies, ROOT, runSuite, type SuiteRun } from './suite-run.js';

/**
 * Spec files on `instant`, each the notes spec's tests eight times over (48 tests): 2400 tests,
 * long enough that start-up is a small part of the run. Rounds within a file rather than more
 * files: Playwright loads every file before the first test (~20 ms each here), so
 * start-up grows with the number of files, not of tests.
 */
const FILES = Number(process.env.NESTWRIGHT_BENCH_SUITE_FILES ?? 50);
const ROUNDS = 8;
/**
 * Copies on `realistic` (a phone's latencies, ~2 s a test): far fewer tests make a long suite.
 * 9 files (54 tests): start-up under a tenth with 2 workers too (6 files gave 10.9%).
 */
const REALISTIC_FILES = Number(process.env.NESTWRIGHT_BENCH_SUITE_REALISTIC_FILES ?? 9);
/** Round trips per client for the machine's ceiling. */
const CEILING_CALLS = 3000;

const pct = (part: number, whole: number) => `${round((100 * part) / whole, 1)}%`;

function row(measure: string, r: SuiteRun): Record<string, string | number> {
  return {
    measure,
    median_ms: round(r.wallMs, 0),
    tests: r.tests,
    tests_per_s: round(r.tests / (r.wallMs / 1000)),
    test_median_ms: round(median(r.durations.length ? r.durations : [0])),
    gap_median_ms: round(median(r.gaps.length ? r.gaps : [0])),
    gap_mean_ms: round(r.gaps.length ? r.gaps.reduce((a, b) => a + b, 0) / r.gaps.length : 0),
    start_up_ms: round(r.startUpMs, 0),
    start_up: pct(r.startUpMs, r.wallMs),
    between_tests: pct(r.betweenMs, r.wallMs),
    ...(r.coresBusy !== null
      ? {
          cores_busy: round(r.coresBusy, 2),
          cpu_ms_per_test: round((r.coresBusy * r.wallMs) / Math.max(1, r.tests), 1),
        }
      : {}),
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
  const rounds = inRounds(spec, ROUNDS);
  const dir = path.join(ROOT, 'test-results/bench-suite');
  const rows: BenchSection['rows'] = [];
  for (const [profile, files] of [
    ['instant', FILES],
    ['realistic', REALISTIC_FILES],
  ] as const) {
    const runs: Record<number, SuiteRun> = {};
    for (const workers of [1, 2]) {
      const r = await runSuite({
        config: 'bench/suite.config.ts',
        dir,
        workers,
        write: copies(files, 'notes', profile === 'instant' ? rounds : spec),
        env: { NESTWRIGHT_FAULTS: profile },
      });
      runs[workers] = r;
      const name = (w: number) =>
        `notes spec ${profile === 'instant' ? `×${ROUNDS} rounds ` : ''}×${files} files (${runs[1]!.tests} tests), ${profile}, ${w} worker${w > 1 ? 's' : ''}`;
      rows.push({
        ...row(name(workers), r),
        ...(workers === 2
          ? {
              vs: name(1),
              ratio: round(runs[1]!.wallMs / r.wallMs),
              steady_ratio: round(r.steadyPerS / runs[1]!.steadyPerS),
              ...(runs[1]!.coresBusy ? { cpu_bound_ratio: round(cpus().length / runs[1]!.coresBusy) } : {}),
            }
          : {}),
      });
    }
  }
  // The same shape with nothing but HTTP: what a second client can gain on this machine.
  const one = await httpCeiling(1, CEILING_CALLS);
  const two = await httpCeiling(2, CEILING_CALLS);
  const ceiling = (n: number) =>
    `bare node:http round trips to one server process, ${n} client process${n > 1 ? 'es' : ''} × ${CEILING_CALLS}`;
  rows.push({ measure: ceiling(1), median_ms: round(one, 0), calls_per_s: round((CEILING_CALLS / one) * 1000, 0) });
  rows.push({
    measure: ceiling(2),
    median_ms: round(two, 0),
    calls_per_s: round(((2 * CEILING_CALLS) / two) * 1000, 0),
    vs: ceiling(1),
    ratio: round((2 * one) / two),
  });
  // Playwright's `test` (with its browser fixtures) and its root test type, which nestwright's `test` extends.
  for (const [name, what] of [
    ['test', 'its test'],
    ['_baseTest as test', 'its root test type'],
  ] as const) {
    const empty = `import { ${name}, expect } from '@playwright/test';\nfor (let i = 0; i < 10; i++) test(\`empty \${i}\`, async () => { expect(i).toBe(i); });\n`;
    const plain = await runSuite({
      config: 'bench/plain.config.ts',
      dir: path.join(ROOT, 'test-results/bench-plain'),
      workers: 1,
      write: copies(Math.min(FILES, 60), 'empty', empty),
    });
    rows.push(row(`Playwright alone (${what}): empty tests ×10 per file, 1 worker`, plain));
  }
  return {
    title: 'suite: throughput with 1 and 2 workers, start-up, time between tests',
    rows,
    notes: [
      "median_ms: the wall time of one child Playwright run (JSON reporter), start to exit. ratio: 1 worker's wall time over 2 workers' (throughput); steady_ratio: the same from the first test's start to the last one's end.",
      "cores_busy: the machine's busy CPU time over the run's wall time (/proc/stat: every process and thread of the run, the kernel's work for them included; other load on the machine too, so run it quiet). cpu_ms_per_test: that CPU time per test, all processes together. cpu_bound_ratio: the most 2 workers could give over 1 if a test's CPU time stayed the same — the machine's cores over the cores 1 worker already keeps busy; a ratio above it is not possible on this machine.",
      "start_up: before the first test (CLI, config, global setup with the embedded device, worker start, its device connection and space) plus after the last. between_tests: per worker, from one test's end to its next test's start, summed; test times include the per-test instance (launch and wipe).",
      "instant: the simulated device answers at once and its work (the runner process) shares the 2 cores with the workers; realistic: a phone's latencies (observations 50–150 ms), the device waiting rather than computing, as a phone or an emulator on cores of its own does. ratio on the bare node:http rows: 2 clients' throughput over 1's — the ceiling this machine puts on the instant ratio, with no MCP, simulator or Playwright in it.",
      "Playwright alone: the runner's own time between tests (gap_median_ms, gap_mean_ms) with no nestwright at all, on this machine: with its `test`, whose browser fixtures set up two automatic fixtures per test, and with its root test type, which nestwright's `test` extends. On 2 cores the device, the runner and the workers share the cores. Its mean gap is a floor under between_tests: with tests of t ms, between_tests is at least gap / (t + gap) of the time spent in tests and gaps. Playwright reports durations in whole milliseconds, rounded down, so every gap here reads up to 1 ms long (0.5 ms on average), Playwright alone's too.",
    ],
  };
}

/** The spec's tests `n` times, each time in a describe of its own (the imports and test.use once). */
function inRounds(spec: string, n: number): string {
  const at = spec.indexOf('\ntest(');
  if (at < 0) throw new Error('bench suite: specs/notes.spec.ts has no top-level test() to repeat');
  return `${spec.slice(0, at)}\nfor (let round = 1; round <= ${n}; round++) {\ntest.describe(\`round \${round}\`, () => {${spec.slice(at)}});\n}\n`;
}

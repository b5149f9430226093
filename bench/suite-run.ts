import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMBEDDED_TOKEN_ENV, EMBEDDED_URL_ENV } from '../device-runtime/providers/index.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where a run's time went, from the JSON reporter's per-result start times and durations. */
export interface SuiteRun {
  ok: boolean;
  tests: number;
  /** Wall time of the whole child run, process start to exit. */
  wallMs: number;
  /** Before the first test started (CLI, config, global setup, worker start) plus after the last ended. */
  startUpMs: number;
  /** Per worker, the time from one test's end to its next test's start, summed, averaged over workers. */
  betweenMs: number;
  /** Each gap between two tests of one worker. */
  gaps: number[];
  /** The tests' own durations (fixtures included), as Playwright reports them. */
  durations: number[];
  /** Tests per second from the first test's start to the last one's end (start-up left out). */
  steadyPerS: number;
  /**
   * Cores kept busy over the run, on average: the machine's busy CPU time (/proc/stat, every
   * process and thread: the runner with the device, the workers, V8's helper threads, the
   * kernel) over the wall time. null where /proc/stat is not there.
   */
  coresBusy: number | null;
}

/** Busy and total CPU time of the machine so far, in clock ticks (/proc/stat's first line), or null off Linux. */
function cpuTicks(): { busy: number; total: number } | null {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const n = fields.map(Number);
    const idle = n[3]! + (n[4] ?? 0);
    const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/**
 * Run `config` (a Playwright config) over `files` spec files in `dir` (written by `write`), with
 * `workers` workers, in a child Playwright with the JSON reporter; `env` on top of this
 * process's (the embedded device of the bench itself is not passed on).
 */
export function runSuite(opts: {
  config: string;
  dir: string;
  workers: number;
  write: (dir: string) => void;
  env?: Record<string, string>;
}): Promise<SuiteRun> {
  rmSync(opts.dir, { recursive: true, force: true });
  mkdirSync(opts.dir, { recursive: true });
  opts.write(opts.dir);
  const env: Record<string, string | undefined> = { ...process.env, ...opts.env };
  delete env[EMBEDDED_URL_ENV];
  delete env[EMBEDDED_TOKEN_ENV];
  const cli = path.join(ROOT, 'node_modules/@playwright/test/cli.js');
  const args = [cli, 'test', '-c', opts.config, `--workers=${opts.workers}`, '--reporter=json'];
  const started = Date.now();
  const ticks = cpuTicks();
  const t = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const wallMs = performance.now() - t;
      const after = cpuTicks();
      // Busy share of all the machine's ticks, times its cores: cores busy on average.
      const coresBusy =
        ticks && after && after.total > ticks.total
          ? ((after.busy - ticks.busy) / (after.total - ticks.total)) * cpus().length
          : null;
      const results: Array<{ worker: number; start: number; duration: number }> = [];
      try {
        const report = JSON.parse(out.slice(out.indexOf('{')));
        const walk = (suite: any): void => {
          for (const spec of suite.specs ?? [])
            for (const test of spec.tests)
              for (const r of test.results)
                results.push({ worker: r.parallelIndex, start: Date.parse(r.startTime), duration: r.duration });
          for (const s of suite.suites ?? []) walk(s);
        };
        for (const s of report.suites) walk(s);
      } catch {
        /* no report: counted as 0 tests, and not ok */
      }
      resolve({ ...analyse(results, started, wallMs, code === 0 && results.length > 0), coresBusy });
    });
  });
}

function analyse(
  results: Array<{ worker: number; start: number; duration: number }>,
  started: number,
  wallMs: number,
  ok: boolean,
): Omit<SuiteRun, 'coresBusy'> {
  if (results.length === 0)
    return { ok: false, tests: 0, wallMs, startUpMs: wallMs, betweenMs: 0, gaps: [], durations: [], steadyPerS: 0 };
  const first = Math.min(...results.map((r) => r.start));
  const last = Math.max(...results.map((r) => r.start + r.duration));
  const byWorker = new Map<number, typeof results>();
  for (const r of results) byWorker.set(r.worker, [...(byWorker.get(r.worker) ?? []), r]);
  const gaps: number[] = [];
  let between = 0;
  for (const rs of byWorker.values()) {
    rs.sort((a, b) => a.start - b.start);
    for (let i = 1; i < rs.length; i++) {
      const gap = Math.max(0, rs[i]!.start - (rs[i - 1]!.start + rs[i - 1]!.duration));
      gaps.push(gap);
      between += gap;
    }
  }
  return {
    ok,
    tests: results.length,
    wallMs,
    startUpMs: first - started + (started + wallMs - last),
    betweenMs: between / byWorker.size,
    gaps,
    durations: results.map((r) => r.duration),
    steadyPerS: results.length / ((last - first) / 1000),
  };
}

/** `n` copies of a spec file as separate files (a suite of many specs: `--repeat-each` would start a worker per repetition). */
export function copies(n: number, name: string, text: string): (dir: string) => void {
  return (dir) => {
    for (let i = 1; i <= n; i++) writeFileSync(path.join(dir, `${name}-${i}.spec.ts`), text);
  };
}

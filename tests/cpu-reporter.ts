import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Where the CPU of a run of nestwright's own tests goes, per test file: a reporter for
 * `--reporter=…,./tests/cpu-reporter.ts` with `NESTWRIGHT_CPU_REPORT=file.json` (ci/test.sh writes
 * test-reports/cpu/<run>.json for the fast tier and the tiers' run). Wall time says little on
 * 2 cores shared by two workers; CPU is what a test takes from the other worker.
 *
 * At each test's end it reads its worker's CPU from /proc (the worker's own user + system time,
 * and that of its children it has reaped: child runs, npm, tsc, Chromium, Java) and charges the
 * difference since the worker's last test to the test's file, hooks included. What a test
 * leaves running (a daemon such as adb's server, reparented away) is not counted; what a file's
 * `afterAll` reaps is charged to that worker's next test. Linux only; elsewhere it writes nothing.
 */
export default class CpuReporter implements Reporter {
  private readonly last = new Map<number, number>(); // worker pid → its CPU ticks at the last reading
  private readonly files = new Map<string, { cpu: number; tests: number; wall: number }>();
  private readonly ticksPerSecond = 100; // USER_HZ on Linux

  private readonly workers = new Workers();

  onTestBegin(_test: TestCase, result: TestResult): void {
    this.workers.pid(result.workerIndex);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const pid = this.workers.pid(result.workerIndex);
    if (pid === undefined) return;
    const now = cpuTicks(pid);
    if (now === undefined) return;
    const before = this.last.get(pid) ?? 0;
    this.last.set(pid, now);
    const file = test.location.file.replace(`${process.cwd()}/`, '');
    const entry = this.files.get(file) ?? { cpu: 0, tests: 0, wall: 0 };
    entry.cpu += (now - before) / this.ticksPerSecond;
    entry.tests += 1;
    entry.wall += result.duration / 1000;
    this.files.set(file, entry);
  }

  onEnd(_result: FullResult): void {
    const out = process.env.NESTWRIGHT_CPU_REPORT;
    if (!out || this.files.size === 0) return;
    const rows = [...this.files]
      .map(([file, e]) => ({ file, cpu: Math.round(e.cpu * 10) / 10, tests: e.tests, wall: Math.round(e.wall) }))
      .sort((a, b) => b.cpu - a.cpu);
    const total = rows.reduce((s, r) => s + r.cpu, 0);
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify({ totalCpuSeconds: Math.round(total), files: rows }, null, 2)}\n`);
  }
}

/**
 * Playwright numbers its workers in the order it forks them (workerIndex 0, 1, 2, …), and a worker
 * learns its number only after it starts (TEST_WORKER_INDEX is not in its initial environment):
 * so the n-th worker process of this runner, by start time, is worker n. Every worker runs at
 * least one test, so each is seen at its first test's begin.
 */
class Workers {
  private readonly seen = new Map<number, number>(); // pid → start time (ticks since boot)

  pid(index: number): number | undefined {
    this.look();
    const ordered = [...this.seen].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    return ordered[index]?.[0];
  }

  private look(): void {
    for (const name of safeReaddir('/proc')) {
      if (!/^\d+$/.test(name) || this.seen.has(Number(name))) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(f[1]) !== process.pid) continue;
        if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('workerProcessEntry')) continue;
        this.seen.set(Number(name), Number(f[19])); // field 22: starttime
      } catch {
        // the process ended meanwhile
      }
    }
  }
}

/** utime + stime + cutime + cstime of a process, in clock ticks. */
function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14–17 of stat(5); f[0] is field 3 (state).
    return Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  } catch {
    return undefined;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

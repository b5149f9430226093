import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { FAILURE_ANNOTATION, parseVerdict } from '../../framework/failure/classify.js';
import type { FailureClass } from '../../framework/failure/codes.js';
import { QUARANTINE_ANNOTATION } from '../../framework/quarantine/fixture.js';

/**
 * The runs `nestwright flaky` reads, each as one shape whatever it came from: a Playwright JSON
 * report (`--reporter=json`, one file per run, or one merged from CI shards), a folder of blob
 * reports (one run's shards, merged with `playwright merge-reports`), or an Allure results folder
 * (`allure-results`, one run). The failure class of an attempt is the `failure` annotation the
 * fixture wrote (Playwright reports) or label (Allure), never the message's text; an attempt
 * without one is `unclassified`.
 */

export interface Attempt {
  retry: number;
  status: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  /**
   * Whether it went as expected: passed, or failed under `test.fail()`. A quarantined test's
   * failure is not (its expected status only follows it so that it does not fail the build).
   */
  ok: boolean;
  class: FailureClass | 'unclassified' | null;
  code: string | null;
  /** The failing step's title (the trajectory step), when known. */
  step: string | null;
}

export interface TestRun {
  /** `project › file › describe › title`: the same test across runs. */
  key: string;
  /** `file › describe › title`, as a quarantine entry names it. */
  title: string;
  attempts: Attempt[];
  quarantined: boolean;
}

export interface Run {
  /** Where it was read from. */
  source: string;
  /** Epoch ms the run started (its report's, else the file's time). */
  startedAt: number;
  tests: TestRun[];
}

type Json = Record<string, any>;

/** Every run under `inputs` (files and folders), oldest first. */
export function readRuns(inputs: readonly string[]): { runs: Run[]; problems: string[] } {
  const runs: Run[] = [];
  const problems: string[] = [];
  const visit = (p: string, depth: number) => {
    if (!existsSync(p)) return void problems.push(`${p}: no such file or folder`);
    if (statSync(p).isFile()) {
      if (p.endsWith('.json')) {
        const run = playwrightJson(p, problems);
        if (run) runs.push(run);
      } else problems.push(`${p}: not a Playwright JSON report (.json); a blob report's folder is read whole`);
      return;
    }
    const names = readdirSync(p).sort();
    if (names.some((n) => n.endsWith('-result.json'))) return void runs.push(allure(p, names));
    if (names.some((n) => n.endsWith('.zip'))) {
      const run = blobs(p, problems);
      if (run) runs.push(run);
      return;
    }
    if (depth > 3) return;
    for (const n of names) {
      const child = path.join(p, n);
      if (n.endsWith('.json') || statSync(child).isDirectory()) visit(child, depth + 1);
    }
  };
  for (const input of inputs) visit(path.resolve(input), 0);
  runs.sort((a, b) => a.startedAt - b.startedAt);
  return { runs, problems };
}

function verdictOf(annotations: Json[] | undefined): Pick<Attempt, 'class' | 'code' | 'step'> {
  const a = (annotations ?? []).find((x) => x.type === FAILURE_ANNOTATION);
  const v = parseVerdict(a?.description);
  return v ? { class: v.class, code: v.code, step: v.step } : { class: 'unclassified', code: null, step: null };
}

/** One Playwright JSON report (the `json` reporter's output). */
export function fromPlaywrightReport(report: Json, source: string, fallbackTime: number): Run {
  const tests: TestRun[] = [];
  const walk = (suite: Json, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const title = [...titles, spec.title].join(' › ');
        const key = t.projectName ? `${t.projectName} › ${title}` : title;
        const annotations: Json[] = [
          ...(t.annotations ?? []),
          ...(t.results ?? []).flatMap((r: Json) => r.annotations ?? []),
        ];
        const quarantined = annotations.some((a) => a.type === QUARANTINE_ANNOTATION);
        const expected = quarantined ? 'passed' : (t.expectedStatus ?? 'passed');
        const attempts: Attempt[] = (t.results ?? []).map((r: Json) => {
          const ok = r.status === 'skipped' || r.status === expected;
          return {
            retry: r.retry ?? 0,
            status: r.status,
            ok,
            ...(ok ? { class: null, code: null, step: null } : verdictOf(r.annotations ?? t.annotations)),
          };
        });
        tests.push({ key, title, attempts, quarantined });
      }
    }
    for (const s of suite.suites ?? []) walk(s, [...titles, s.title]);
  };
  for (const s of report.suites ?? []) walk(s, [s.title]);
  const started = Date.parse(report.stats?.startTime ?? '');
  return { source, startedAt: Number.isNaN(started) ? fallbackTime : started, tests };
}

function playwrightJson(file: string, problems: string[]): Run | null {
  let report: Json;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    problems.push(`${file}: not JSON (${(e as Error).message})`);
    return null;
  }
  if (!Array.isArray(report.suites)) {
    problems.push(`${file}: not a Playwright JSON report (no "suites")`);
    return null;
  }
  return fromPlaywrightReport(report, file, statSync(file).mtimeMs);
}

/** A folder of blob reports: one run's shards, merged by Playwright's own merge-reports into its JSON. */
function blobs(dir: string, problems: string[]): Run | null {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  // The JSON goes to a file of our own: a caller's PLAYWRIGHT_JSON_OUTPUT_* (as npm scripts and CI
  // set) would otherwise send it elsewhere and leave stdout empty.
  const out = mkdtempSync(path.join(tmpdir(), 'nw-flaky-'));
  const file = path.join(out, 'report.json');
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: file };
    delete env.PLAYWRIGHT_JSON_OUTPUT_DIR;
    delete env.PLAYWRIGHT_JSON_OUTPUT_NAME;
    const merged = spawnSync(process.execPath, [cli, 'merge-reports', '--reporter', 'json', dir], {
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
      env,
    });
    try {
      return fromPlaywrightReport(JSON.parse(readFileSync(file, 'utf8')), dir, statSync(dir).mtimeMs);
    } catch {
      problems.push(
        `${dir}: playwright merge-reports could not merge its blob reports: ${(merged.stderr || merged.stdout || '').slice(0, 500)}`,
      );
      return null;
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** An Allure results folder: a result file per attempt, the attempts of one test sharing a historyId. */
function allure(dir: string, names: string[]): Run {
  const byTest = new Map<
    string,
    { key: string; title: string; attempts: Array<Attempt & { start: number }>; quarantined: boolean }
  >();
  let startedAt = Infinity;
  for (const n of names.filter((x) => x.endsWith('-result.json'))) {
    let r: Json;
    try {
      r = JSON.parse(readFileSync(path.join(dir, n), 'utf8'));
    } catch {
      continue;
    }
    const labels: Json[] = r.labels ?? [];
    const label = (name: string) => labels.find((l) => l.name === name)?.value as string | undefined;
    const project = label('parentSuite') ?? '';
    const title = [...((r.titlePath as string[] | undefined) ?? []), r.name].join(' › ');
    const key = project ? `${project} › ${title}` : title;
    const id = String(r.historyId ?? key);
    const entry = byTest.get(id) ?? { key, title, attempts: [], quarantined: false };
    const failed = r.status === 'failed' || r.status === 'broken';
    const v = verdictOf(
      labels.filter((l) => l.name === FAILURE_ANNOTATION).map((l) => ({ type: l.name, description: l.value })),
    );
    entry.attempts.push({
      retry: 0,
      start: r.start ?? 0,
      // Allure's reporter writes a test.fail() test that failed as expected as passed.
      ok: !failed,
      status: failed ? 'failed' : r.status === 'skipped' ? 'skipped' : 'passed',
      ...(failed ? v : { class: null, code: null, step: null }),
    });
    entry.quarantined ||= label(QUARANTINE_ANNOTATION) !== undefined;
    byTest.set(id, entry);
    startedAt = Math.min(startedAt, r.start ?? Infinity);
  }
  const tests: TestRun[] = [...byTest.values()].map((t) => ({
    key: t.key,
    title: t.title,
    quarantined: t.quarantined,
    attempts: t.attempts.sort((a, b) => a.start - b.start).map(({ start: _, ...a }, i) => ({ ...a, retry: i })),
  }));
  return { source: dir, startedAt: Number.isFinite(startedAt) ? startedAt : statSync(dir).mtimeMs, tests };
}

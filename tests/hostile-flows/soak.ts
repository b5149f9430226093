/**
 * The hostile soak: runs the flows of this folder under the simulator's `hostile` fault profile on
 * several seeds, each seed several times, and reports every failure and every flaky test (one that
 * passed in one run and failed in another). Exit code 1 when anything failed.
 *
 *   npm run test:hostile-soak                       seeds 1–10, each twice (once per action path), 2 workers
 *   npm run test:hostile-soak -- --seeds=3,8 --runs=4 --paths=auto --workers=1 [playwright args…]
 *
 * `--paths` lists the action paths the runs take turns on: `auto` (the device's `selector_actions`)
 * and `off` (the client-side loop, NESTWRIGHT_DEVICE_ACTIONS=off); by default run 1 of a seed is
 * device-side and run 2 client-side.
 *
 * Each run is the real Playwright CLI with the JSON reporter written to a file, so the counts are
 * Playwright's own statuses, not parsed from its console.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CONFIG = path.join(ROOT, 'tests/hostile-flows/playwright.config.ts');
const OUT = path.join(ROOT, 'test-results/hostile-soak');

interface Options {
  seeds: number[];
  runs: number;
  workers: number;
  paths: Array<'auto' | 'off'>;
  rest: string[];
}

function usage(message: string): never {
  console.error(
    `test:hostile-soak: ${message}\nUsage: npm run test:hostile-soak -- [--seeds=1-10|3,8] [--runs=2] [--paths=auto,off] [--workers=2] [playwright args…]`,
  );
  process.exit(2);
}

function parseSeeds(v: string): number[] {
  const out: number[] = [];
  for (const part of v.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) usage(`--seeds takes numbers and ranges (1-10, 3,8), got ${JSON.stringify(v)}`);
    const [a, b] = [Number(m[1]), Number(m[2] ?? m[1])];
    if (b < a) usage(`--seeds range ${part} runs backwards`);
    for (let s = a; s <= b; s++) out.push(s);
  }
  return out;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { seeds: parseSeeds('1-10'), runs: 2, workers: 2, paths: ['auto', 'off'], rest: [] };
  for (const a of argv) {
    const [k, v] = a.split(/=(.*)/s) as [string, string | undefined];
    const int = () => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) usage(`${k} takes a positive integer, got ${JSON.stringify(v)}`);
      return n;
    };
    if (k === '--seeds' && v !== undefined) o.seeds = parseSeeds(v);
    else if (k === '--runs') o.runs = int();
    else if (k === '--workers') o.workers = int();
    else if (k === '--paths' && v !== undefined) {
      const paths = v.split(',').map((p) => p.trim());
      if (paths.length === 0 || paths.some((p) => p !== 'auto' && p !== 'off'))
        usage(`--paths takes auto, off or both (auto,off), got ${JSON.stringify(v)}`);
      o.paths = paths as Options['paths'];
    } else o.rest.push(a);
  }
  return o;
}

type Status = 'passed' | 'failed' | 'timedOut' | 'interrupted' | 'skipped';
interface Outcome {
  status: Status;
  error: string;
}

/** Flatten Playwright's JSON report into one outcome per test title. */
function outcomes(report: any): Map<string, Outcome> {
  const out = new Map<string, Outcome>();
  const walk = (suite: any, prefix: string[]) => {
    for (const s of suite.suites ?? []) walk(s, s.title ? [...prefix, s.title] : prefix);
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const r = t.results?.[t.results.length - 1] ?? {};
        const error = String(r.error?.message ?? '').replace(/\u001b\[[0-9;]*m/g, '');
        out.set([...prefix, spec.title].join(' › '), { status: r.status ?? 'skipped', error });
      }
    }
  };
  for (const s of report.suites ?? []) walk(s, [s.title]);
  return out;
}

/** The action path run `run` (1-based) of a seed takes. */
const pathOf = (o: Options, run: number) => o.paths[(run - 1) % o.paths.length]!;

function runOnce(
  seed: number,
  run: number,
  o: Options,
): Promise<{ results: Map<string, Outcome>; ms: number; exitCode: number }> {
  const file = path.join(OUT, `seed-${seed}-run-${run}.json`);
  rmSync(file, { force: true });
  const started = Date.now();
  const args = [
    path.join(ROOT, 'node_modules/@playwright/test/cli.js'),
    'test',
    '-c',
    CONFIG,
    '--reporter=json',
    `--workers=${o.workers}`,
    '--retries=0',
    ...o.rest,
  ];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NESTWRIGHT_FAULTS: 'hostile',
    NESTWRIGHT_SEED: String(seed),
    PLAYWRIGHT_JSON_OUTPUT_FILE: file,
  };
  if (pathOf(o, run) === 'off') env.NESTWRIGHT_DEVICE_ACTIONS = 'off';
  else delete env.NESTWRIGHT_DEVICE_ACTIONS;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve({
          results: outcomes(JSON.parse(readFileSync(file, 'utf8'))),
          ms: Date.now() - started,
          exitCode: code ?? -1,
        });
      } catch (e) {
        reject(
          new Error(
            `test:hostile-soak: seed ${seed} run ${run} wrote no JSON report to ${file} (exit ${code}): ${(e as Error).message}`,
          ),
        );
      }
    });
  });
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  mkdirSync(OUT, { recursive: true });
  const byTest = new Map<string, Array<{ seed: number; run: number; path: string } & Outcome>>();
  let failures = 0;
  let total = 0;
  console.log(
    `hostile soak: seeds ${o.seeds.join(',')}, ${o.runs} run(s) each (action paths in turn: ${o.paths.join(', ')}), ${o.workers} worker(s)`,
  );
  for (const seed of o.seeds) {
    for (let run = 1; run <= o.runs; run++) {
      const r = await runOnce(seed, run, o);
      let failed = 0;
      for (const [title, outcome] of r.results) {
        total++;
        if (outcome.status !== 'passed' && outcome.status !== 'skipped') failed++;
        const list = byTest.get(title) ?? [];
        list.push({ seed, run, path: pathOf(o, run), ...outcome });
        byTest.set(title, list);
      }
      failures += failed;
      console.log(
        `seed ${seed} run ${run} (${pathOf(o, run) === 'off' ? 'client-side' : 'device-side'}): ${r.results.size} tests, ${failed} failed (${(r.ms / 1000).toFixed(1)} s)`,
      );
      for (const [title, outcome] of r.results)
        if (outcome.status !== 'passed' && outcome.status !== 'skipped')
          console.log(`  ✘ ${title} [${outcome.status}]\n    ${outcome.error.split('\n').slice(0, 6).join('\n    ')}`);
      if (r.results.size === 0 || (r.exitCode !== 0 && failed === 0)) {
        console.log(`  the run exited ${r.exitCode} with no failed test: see the errors above`);
        failures++;
      }
    }
  }
  const flaky = [...byTest].filter(
    ([, rs]) =>
      rs.some((x) => x.status === 'passed') && rs.some((x) => x.status !== 'passed' && x.status !== 'skipped'),
  );
  const alwaysFailing = [...byTest].filter(([, rs]) =>
    rs.every((x) => x.status !== 'passed' && x.status !== 'skipped'),
  );
  console.log(
    `\n${byTest.size} tests × ${o.seeds.length} seeds × ${o.runs} runs = ${total} results: ${failures} failures, ${flaky.length} flaky, ${alwaysFailing.length} failing on every run`,
  );
  for (const [title, rs] of flaky)
    console.log(
      `  flaky: ${title} — failed on ${rs
        .filter((x) => x.status !== 'passed')
        .map((x) => `seed ${x.seed} run ${x.run} (${x.path})`)
        .join(', ')}`,
    );
  process.exitCode = failures > 0 ? 1 : 0;
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 2;
});

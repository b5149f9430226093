import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, percentile, round, type BenchSection } from './section.js';

/**
 * The start of a user's project: one nestwright test (the Notes app, one `toBeVisible`) against
 * one plain `@playwright/test` test, each `npx playwright test` from a cold process, paired and
 * alternated in one run so both see the same machine. The nestwright project installs the package
 * as `npm pack` ships it (`dist/`, `bin/`, the sample APK), built here first; its dependencies are
 * the repository's own `node_modules`, linked. Wall time and CPU (user + system, children included).
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.NESTWRIGHT_BENCH_START_RUNS ?? 7);

function linkModules(dir: string, skip: string[] = []): void {
  const nm = path.join(dir, 'node_modules');
  mkdirSync(nm, { recursive: true });
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (skip.includes(entry) || entry.startsWith('.')) continue;
    symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(nm, entry));
  }
}

/** A project in `root/name`: its package.json, a one-worker config and one spec, linked to our node_modules. */
function project(root: string, name: string, config: string, spec: string, skip: string[] = []): string {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, 'tests'), { recursive: true });
  linkModules(dir, skip);
  writeFileSync(path.join(dir, 'package.json'), `{ "name": "${name}", "type": "module" }\n`);
  writeFileSync(path.join(dir, 'playwright.config.ts'), config);
  writeFileSync(path.join(dir, 'tests', 'one.spec.ts'), spec);
  return dir;
}

const plainProject = (root: string) =>
  project(
    root,
    'plain',
    "import { defineConfig } from '@playwright/test';\nexport default defineConfig({ testDir: './tests', workers: 1, reporter: 'line' });\n",
    "import { test, expect } from '@playwright/test';\ntest('one', async () => {\n  expect('Notes').toBe('Notes');\n});\n",
  );

/** The package as `npm pack` ships it (dist/, bin/, package.json, the sample APK). */
function nestwrightProject(root: string): string {
  const dir = project(
    root,
    'one-test',
    "import { defineConfig } from 'nestwright';\nexport default defineConfig({ testDir: './tests', workers: 1, reporter: 'line', use: { apk: 'node_modules/nestwright/fixtures/apks/notes.apk' } });\n",
    "import { test, expect } from 'nestwright';\ntest('one', async ({ app }) => {\n  await expect(app.getByText('New note')).toBeVisible();\n});\n",
    ['nestwright'],
  );
  const pkg = path.join(dir, 'node_modules', 'nestwright');
  for (const part of ['dist', 'bin', 'package.json'])
    cpSync(path.join(ROOT, part), path.join(pkg, part), { recursive: true });
  mkdirSync(path.join(pkg, 'fixtures', 'apks'), { recursive: true });
  cpSync(path.join(ROOT, 'fixtures/apks/notes.apk'), path.join(pkg, 'fixtures/apks/notes.apk'));
  return dir;
}

/** One cold `playwright test` in `dir`: wall and CPU ms (bash's `time` counts the children). */
function runOnce(dir: string): { wall: number; cpu: number } {
  const env: NodeJS.ProcessEnv = { ...process.env, TIMEFORMAT: '%R %U %S', CI: '' };
  for (const k of Object.keys(env)) if (k.startsWith('NESTWRIGHT_') || k.startsWith('PLAYWRIGHT_')) delete env[k];
  const r = spawnSync('bash', ['-c', 'time node node_modules/@playwright/test/cli.js test >run.log 2>&1'], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  const [wall, user, sys] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  if (r.status !== 0) {
    throw new Error(`start bench: the run in ${dir} failed:\n${readFileSync(path.join(dir, 'run.log'), 'utf8')}`);
  }
  return { wall: wall! * 1000, cpu: (user! + sys!) * 1000 };
}

export async function benchStart(): Promise<BenchSection> {
  if (!existsSync(path.join(ROOT, 'dist/framework/index.js')) || !process.env.NESTWRIGHT_BENCH_NO_BUILD) {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  }
  const root = mkdtempSync(path.join(tmpdir(), 'nw-start-'));
  try {
    const plain = plainProject(root);
    const nw = nestwrightProject(root);
    runOnce(plain); // warm the file cache for both before measuring
    runOnce(nw);
    const p = { wall: [] as number[], cpu: [] as number[] };
    const n = { wall: [] as number[], cpu: [] as number[] };
    const load = loadavg()[0]!;
    for (let i = 0; i < RUNS; i++) {
      const a = runOnce(plain);
      const b = runOnce(nw);
      p.wall.push(a.wall);
      p.cpu.push(a.cpu);
      n.wall.push(b.wall);
      n.cpu.push(b.cpu);
    }
    // Each side against the plain project, in wall time and in CPU.
    const row = (name: string, side: typeof p) => ({
      measure: name,
      n: side.wall.length,
      median_ms: round(median(side.wall)),
      p95_ms: round(percentile(side.wall, 95)),
      cpu_ms: round(median(side.cpu)),
      vs: 'plain @playwright/test',
      ratio: round(median(side.wall) / median(p.wall)),
      cpu_ratio: round(median(side.cpu) / median(p.cpu)),
    });
    return {
      title: 'start: a one-test project, cold `playwright test`, paired',
      rows: [row('plain @playwright/test, one test', p), row('nestwright, one toBeVisible on Notes', n)],
      notes: [
        `${RUNS} alternated pairs, load average ${loadavg()[0]!.toFixed(2)} at the end (${load.toFixed(2)} at the start)`,
      ],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

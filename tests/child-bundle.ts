import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from '@playwright/test';

/**
 * The code a child Playwright run of nestwright's own tests loads for `import … from 'nestwright'`.
 *
 * Run from the TypeScript sources, a child run loads about 500 modules through Playwright's ESM
 * loader, twice (the runner and the worker): about 1.7 s of CPU and 0.9 s of wall time of a
 * one-test run's 5.3 s and 3.8 s, paid by every one of the integration tier's child runs. Users
 * never pay it: the published package is bundled (ci/bundle.mjs). So child runs load the same
 * bundle, made with the same esbuild options from the sources of this checkout — the code under
 * test, as a user's project loads it — once per change of the sources: the folder is named by a
 * hash of every source file it is built from, and shared by the workers and later runs.
 *
 * The simulators the tests start as processes of their own (`simCommandLine()`: spawnSim,
 * RealAdb's and the fake adb's devices) run the same bundle's command line: started through tsx
 * from the sources, a `nestwright sim` costs about 2.1 s of CPU before it listens; from the
 * bundle, about 0.7 s.
 *
 * `NESTWRIGHT_CHILD_SOURCES=1` runs children on the TypeScript sources instead (stack traces
 * through framework/*.ts, no bundle step), and so does the fast tier, the inner loop, whose few
 * command-line processes do not pay back a build after each change of the sources.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Inside node_modules, as an installed package is: its bare imports resolve from ROOT/node_modules. */
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'nestwright-child-bundle');
const SOURCE_DIRS = ['framework', 'device-runtime', 'reporters', 'cli'];

/** package.json "exports" subpaths and where each is in the bundle (tsconfig.json keeps the same list). */
const SUBPATHS: Record<string, string> = {
  nestwright: 'framework/index.js',
  'nestwright/protocol': 'device-runtime/protocol/index.js',
  'nestwright/client': 'device-runtime/client/index.js',
  'nestwright/reporters/allure': 'reporters/allure/index.js',
  'nestwright/heal': 'framework/heal/index.js',
  'nestwright/conformance': 'framework/conformance/index.js',
};

let built: Promise<string> | undefined;

/** Whether this process's children load the bundle (see above). */
function bundled(): boolean {
  if (process.env.NESTWRIGHT_CHILD_SOURCES) return false;
  try {
    return test.info().project.name !== 'fast';
  } catch {
    return true; // not inside a test (a script, the bench)
  }
}

/** The bundle's package root (it holds `dist/`), built when this checkout's sources have none yet. */
export function childBundle(): Promise<string> {
  built ??= build();
  return built;
}

function sourcesHash(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(path.join(ROOT, 'ci/bundle.mjs')));
  for (const file of ['package.json', 'package-lock.json', 'bin/nestwright.js'])
    hash.update(readFileSync(path.join(ROOT, file)));
  for (const dir of SOURCE_DIRS) {
    const files = readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => !f.includes('node_modules'))
      .sort();
    for (const f of files) {
      const file = path.join(ROOT, dir, f);
      if (!statSync(file).isFile()) continue;
      hash.update(`${dir}/${f}\0`);
      hash.update(readFileSync(file));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

let sourcesKeyMemo: string | undefined;
/** sourcesHash() once per process: it reads every source file. */
function sourcesKey(): string {
  return (sourcesKeyMemo ??= sourcesHash());
}

async function build(): Promise<string> {
  const key = sourcesKey();
  const root = path.join(CACHE, key);
  if (existsSync(path.join(root, 'dist', 'framework', 'index.js'))) return root;
  // Built beside its final place and renamed into it: a worker that builds at the same time as
  // another loses the rename and uses the winner's (the same code).
  const tmp = path.join(CACHE, `${key}.${process.pid}.${Date.now()}`);
  const { bundleEntries } = (await import(path.join(ROOT, 'ci/bundle.mjs'))) as {
    bundleEntries(outdir: string, opts: { from: 'sources'; sourcemap: string }): Promise<void>;
  };
  await bundleEntries(path.join(tmp, 'dist'), { from: 'sources', sourcemap: 'linked' });
  // The rest of the published package's layout (package.json "files", `npm run build`): its
  // manifest (`nestwright/package.json` self-resolves to it), the command line, the inspector's
  // page, the fixture APKs.
  copyFileSync(path.join(ROOT, 'package.json'), path.join(tmp, 'package.json'));
  mkdirSync(path.join(tmp, 'bin'));
  copyFileSync(path.join(ROOT, 'bin/nestwright.js'), path.join(tmp, 'bin/nestwright.js'));
  cpSync(path.join(ROOT, 'cli/inspector/page'), path.join(tmp, 'dist/cli/inspector/page'), { recursive: true });
  symlinkSync(path.join(ROOT, 'fixtures'), path.join(tmp, 'fixtures'));
  try {
    renameSync(tmp, root);
  } catch {
    rmSync(tmp, { recursive: true, force: true });
  }
  // Older bundles (sources since changed) go, but not one another process may be building.
  for (const old of readdirSync(CACHE)) {
    const dir = path.join(CACHE, old);
    if (old !== key && old !== 'scripts' && !old.includes('.') && statSync(dir).mtimeMs < Date.now() - 60 * 60_000)
      rmSync(dir, { recursive: true, force: true });
  }
  return root;
}

/**
 * The command line a test starts, as a user's project has it: the bundle's `bin/nestwright.js`
 * (which runs `dist/cli/index.js`, there being no sources beside it), or the checkout's with
 * `NESTWRIGHT_CHILD_SOURCES` (which runs cli/index.ts through tsx).
 */
export async function nestwrightBin(): Promise<string> {
  if (!bundled()) return path.join(ROOT, 'bin/nestwright.js');
  return path.join(await childBundle(), 'bin/nestwright.js');
}

/**
 * The command that runs `nestwright sim` in one process (append its flags), so that its exit code
 * and signals are the simulator's: `node <bundle>/bin/nestwright.js sim`, or on the sources
 * `node --import tsx device-runtime/sim/cli-main.ts` (cwd-independent: the paths are absolute).
 */
export async function simCommandLine(): Promise<string[]> {
  if (!bundled()) return [process.execPath, '--import', 'tsx', path.join(ROOT, 'device-runtime/sim/cli-main.ts')];
  return [process.execPath, path.join(await childBundle(), 'bin/nestwright.js'), 'sim'];
}

const scripts = new Map<string, Promise<string[]>>();

/**
 * The command that runs a TypeScript helper of the tests as a process of its own (append its
 * arguments), such as the fake adb server: outside the fast tier, one JavaScript file esbuilt
 * from it into this cache (named by a hash of its folder's files and of the sources; packages
 * stay imports, resolved from the checkout's node_modules), as the sources are bundled for child
 * runs; in the fast tier or with `NESTWRIGHT_CHILD_SOURCES`, `node --import tsx <file>`. The
 * helper may import its own folder and the sources; its modules read `import.meta.url` as its own.
 */
export function scriptCommandLine(file: string): Promise<string[]> {
  if (!bundled()) return Promise.resolve([process.execPath, '--import', 'tsx', file]);
  let cmd = scripts.get(file);
  if (!cmd) scripts.set(file, (cmd = buildScript(file).then((out) => [process.execPath, out])));
  return cmd;
}

async function buildScript(file: string): Promise<string> {
  const hash = createHash('sha256').update(sourcesKey()).update(file);
  const dir = path.dirname(file);
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    if (!statSync(path.join(dir, f)).isFile()) continue;
    hash.update(`${f}\0`);
    hash.update(readFileSync(path.join(dir, f)));
  }
  const out = path.join(CACHE, 'scripts', `${path.basename(file, '.ts')}-${hash.digest('hex').slice(0, 16)}.mjs`);
  if (existsSync(out)) return out;
  mkdirSync(path.dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.${Date.now()}`;
  const { build: esbuild } = await import('esbuild');
  await esbuild({
    entryPoints: [file],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(file).href) },
    logLevel: 'warning',
  });
  renameSync(tmp, out); // atomic: a worker building the same file at once writes the same code
  // Older builds of the same helper (its sources since changed) go after an hour.
  const prefix = `${path.basename(file, '.ts')}-`;
  for (const old of readdirSync(path.dirname(out))) {
    const f = path.join(path.dirname(out), old);
    if (old.startsWith(prefix) && f !== out && statSync(f).mtimeMs < Date.now() - 60 * 60_000)
      rmSync(f, { force: true });
  }
  return out;
}

/**
 * A tsconfig.json for a child run's folder that maps `nestwright` and its subpaths to the bundle,
 * as package.json's "exports" map them for a user. Undefined when children run on the sources.
 */
export async function childTsconfig(): Promise<string | undefined> {
  if (!bundled()) return undefined;
  const root = await childBundle();
  const paths = Object.fromEntries(
    Object.entries(SUBPATHS).map(([spec, file]) => [spec, [path.join(root, 'dist', file)]]),
  );
  return `${JSON.stringify({ compilerOptions: { baseUrl: '.', paths } }, null, 2)}\n`;
}

/**
 * The arguments that make a child `playwright test` of files where they are (the example suite
 * in specs/, the repository's configs) load the bundle for `import … from 'nestwright'`:
 * `--tsconfig` with the child tsconfig, which Playwright then applies to every file it imports.
 * A folder's own tsconfig.json cannot: the specs would still find the repository's, which maps
 * `nestwright` to the sources. Empty when children run on the sources.
 *
 * Measured on the example suite's notes and settings specs (9 tests, 2 workers): 10.3 s of CPU
 * on the sources, 7.8 s on the bundle.
 */
export async function childTsconfigArgs(): Promise<string[]> {
  const body = await childTsconfig();
  if (!body) return [];
  const file = path.join(await childBundle(), 'tsconfig.child.json');
  if (!existsSync(file)) {
    const tmp = `${file}.${process.pid}.${Date.now()}`;
    writeFileSync(tmp, body);
    renameSync(tmp, file); // atomic: two workers write the same text
  }
  return ['--tsconfig', file];
}

/** Write the child tsconfig into `dir` unless the caller's files bring their own. */
export async function writeChildTsconfig(dir: string, files: Record<string, string>): Promise<void> {
  if ('tsconfig.json' in files) return;
  const body = await childTsconfig();
  if (body) writeFileSync(path.join(dir, 'tsconfig.json'), body);
}

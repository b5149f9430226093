import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test, expect } from '@playwright/test';
import { internalMembers, reachableMembers } from './public-types.js';
import { HAND_SPEC, run, USER_TSCONFIG } from './user-project.js';

/**
 * The package as a user gets it: `npm pack` (which builds dist/ through prepack), the tarball and
 * @playwright/test installed into a fresh project outside this repository, `npx nestwright init`,
 * then `npx playwright test` on the generated spec and on a hand-written one. Nothing here may
 * reach the repository's sources or its TypeScript loader. The install prefers npm's cache, so
 * it works offline once `npm ci` has run here.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PLAYWRIGHT_VERSION = JSON.parse(
  readFileSync(path.join(ROOT, 'node_modules/@playwright/test/package.json'), 'utf8'),
).version as string;

/** Everything the tarball may hold; anything else (tests, bench, sources) is a packaging bug. */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^bin\/nestwright\.js$/,
  /^fixtures\/apks\/(notes|shop|chat)\.apk$/,
  /^dist\/(framework|device-runtime|reporters|cli)\/[\w./-]+\.(js|js\.map|d\.ts)$/,
  /^dist\/chunks\/[\w-]+\.js(\.map)?$/, // the code the bundle's entry points share (ci/bundle.mjs)
  /^dist\/cli\/inspector\/page\/[\w.-]+\.(html|css|js)$/, // the inspector's page, served as files
];

test.describe.configure({ mode: 'serial', timeout: 600_000 });

let work: string;
let project: string;
let tarball: string;

test.beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'nw-pack-'));
  project = path.join(work, 'my-app-tests');
});
test.afterAll(() => {
  if (!process.env.NESTWRIGHT_KEEP_INLINE) rmSync(work, { recursive: true, force: true });
});

test('npm pack holds the compiled package and nothing else', async () => {
  // Built without tsc's type check (ci/build.mjs): `npm run typecheck` and the static checks
  // beside this test in `npm test` check the same sources; this test checks what is packed.
  const packed = await run('npm', ['pack', '--json', '--pack-destination', work], ROOT, 300_000, {
    NESTWRIGHT_BUILD_NO_CHECK: '1',
  });
  expect(packed.code, packed.out).toBe(0);
  const [info] = JSON.parse(packed.out.slice(packed.out.indexOf('[\n'))) as Array<{
    filename: string;
    size: number;
    entryCount: number;
    files: Array<{ path: string }>;
  }>;
  tarball = path.join(work, info!.filename);
  const files = info!.files.map((f) => f.path);
  expect(
    files.filter((f) => !ALLOWED.some((re) => re.test(f))),
    'files outside the allowed set',
  ).toEqual([]);
  expect(files.filter((f) => /(^|\/)(tests?|bench|specs)\//.test(f) || /\.test\.|\.bench\./.test(f))).toEqual([]);
  // Every entry point the manifest names is in the tarball.
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const targets = [
    manifest.types,
    ...Object.values(manifest.bin),
    ...Object.values(manifest.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e as object))),
  ];
  for (const t of targets as string[]) expect(files, `${t} is named in package.json`).toContain(t.replace(/^\.\//, ''));
  for (const f of [
    'LICENSE',
    'README.md',
    'fixtures/apks/notes.apk',
    'fixtures/apks/shop.apk',
    'fixtures/apks/chat.apk',
    'dist/reporters/allure/render-worker.js',
    'dist/framework/runner/global-setup.js',
    'dist/cli/inspector/page/live.html',
    'dist/cli/inspector/page/trace.html',
  ])
    expect(files).toContain(f);
  note(
    'tarball',
    `${info!.filename}: ${info!.size} bytes, ${info!.entryCount} files (${packed.ms} ms to build and pack)`,
  );
});

test('the packed declarations hide every @internal member: none is reachable from App, Locator, Space, the device fixture or expect', async () => {
  // Unpacked under the repository, so the declarations' own imports (@playwright/test, zod, …)
  // resolve to its node_modules as they would to a user's.
  const dir = path.join(ROOT, 'test-results', `packed-types-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    const untar = await run('tar', ['-xzf', tarball, '-C', dir, 'package/dist'], ROOT);
    expect(untar.code, untar.out).toBe(0);
    const pkg = path.join(dir, 'package');
    // Source maps name their sources inside the package and carry their text (no .ts is shipped), so
    // a stack trace or a debugger maps to code it can show, wherever the package is installed.
    const maps = readdirSync(path.join(pkg, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.js.map'),
    );
    expect(maps.length).toBeGreaterThan(10);
    for (const m of maps) {
      const map = JSON.parse(readFileSync(path.join(pkg, 'dist', m), 'utf8')) as {
        sources: string[];
        sourcesContent?: Array<string | null>;
      };
      for (const [i, source] of map.sources.entries()) {
        const at = path.resolve(path.dirname(path.join(pkg, 'dist', m)), source);
        expect(at.startsWith(pkg + path.sep), `${m}: ${source} is outside the package`).toBe(true);
        // A bundled dependency's own map may lack its text (the MCP SDK's do); nestwright's never do.
        if (!source.includes('node_modules/'))
          expect(typeof map.sourcesContent?.[i], `${m}: ${source} has no text`).toBe('string');
      }
    }
    const roots = ['App', 'Locator', 'Space', 'Device', 'DeviceApi', 'NestwrightMatchers', 'expect'];
    const { members, types } = reachableMembers(path.join(pkg, 'dist/framework/index.d.ts'), roots, pkg);
    const internal = internalMembers(path.join(ROOT, 'framework'));
    // The sources' tags are found (the check below is not vacuous), and the walk reaches the public API.
    for (const m of [
      'App.driver',
      'App.port',
      'Locator.driver',
      'Locator.steps',
      'Locator.waitForActionable',
      'Locator.resolve',
      'Space.create',
    ])
      expect(internal, m).toContain(m);
    for (const m of [
      'App.getByText',
      'App.ai',
      'AppAi.act',
      'Locator.tap',
      'Locator.filter',
      'Space.launch',
      'DeviceApi.newSpace',
      'NestwrightMatchers.toBeVisible',
    ])
      expect([...members.keys()], m).toContain(m);
    const leaks = [...members].filter(([m]) => internal.has(m)).map(([m, via]) => `${m} (through ${via})`);
    expect(leaks, 'internal members reachable in the packed .d.ts').toEqual([]);
    // Nor is any of the machinery behind them a type a user can name through them.
    const machinery = [
      'AppDriver',
      'DeviceCalls',
      'InstanceWatch',
      'StepRecorder',
      'Screenshots',
      'Trajectory',
      'DriverOptions',
      'TestScope',
      'AppPort',
      'InstancePort',
      'AppPortOf',
      'LocatorHealing',
      'Healer',
    ];
    expect(machinery.filter((t) => types.has(t))).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('installed into a fresh project, init and the first run are green with no TypeScript loader', async () => {
  mkdirSync(project);
  writeFileSync(
    path.join(project, 'package.json'),
    `${JSON.stringify({ name: 'my-app-tests', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );

  const install = await run(
    'npm',
    [
      'install',
      '--save-dev',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      tarball,
      `@playwright/test@${PLAYWRIGHT_VERSION}`,
    ],
    project,
  );
  expect(install.code, install.out).toBe(0);
  // A clean install on the Node the docs name (20.20+): no dependency asks for a newer one. mockttp's
  // GraphQL helpers pulled @whatwg-node/promise-helpers 2 (Node >= 22.15) until nestwright pinned
  // @graphql-tools/schema and /merge to the last releases that keep Node 20.
  expect(install.out).not.toContain('EBADENGINE');
  // The user's project sees only what npm installed: no tsx, no esbuild, not this repository.
  const req = createRequire(path.join(project, 'package.json'));
  for (const loader of ['tsx', 'esbuild'])
    expect(() => req.resolve(`${loader}/package.json`), `${loader} must not be installed`).toThrow();

  const init = await run('npx', ['nestwright', 'init'], project);
  expect(init.code, init.out).toBe(0);
  const apks = ['notes', 'shop', 'chat'].map((a) => `fixtures/apks/${a}.apk`);
  for (const f of ['playwright.config.ts', 'specs/notes.spec.ts', ...apks, '.gitignore']) {
    expect(init.out).toMatch(new RegExp(`wrote\\s+${f.replace('.', '\\.')}`));
    expect(existsSync(path.join(project, f))).toBe(true);
  }
  const pkg = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'));
  expect(pkg.scripts).toEqual({ test: 'playwright test', 'test:report': 'nestwright report' });
  expect(pkg.type).toBe('module'); // the rest of package.json is kept

  const first = await run('npx', ['playwright', 'test'], project);
  expect(first.code, first.out).toBe(0);
  expect(first.out).toContain('2 passed');
  note(
    'first run',
    `npm install ${install.ms} ms + init ${init.ms} ms + playwright test ${first.ms} ms = ${install.ms + init.ms + first.ms} ms`,
  );
});

test("declaring the fixtures parses no chunk's source map (a cold start's cost)", async () => {
  // Playwright maps the caller of each test.extend() through that file's source map, to record
  // where a fixture was declared; nestwright extends from its entry file, whose map is a few lines,
  // not from a chunk's (framework/runner/fixtures.ts, nestwrightTest). Listing the tests runs the
  // declarations in the runner and nothing else.
  const log = path.join(work, 'maps-read.log');
  writeFileSync(path.join(work, 'map-probe.cjs'), MAP_PROBE);
  const list = await run('npx', ['playwright', 'test', '--list'], project, 300_000, {
    NODE_OPTIONS: `--require ${path.join(work, 'map-probe.cjs')}`,
    MAP_PROBE_LOG: log,
  });
  expect(list.code, list.out).toBe(0);
  expect(list.out).toContain('notes.spec.ts');
  const read = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  // The probe sees the maps that are read: the entry file's is (the check below is not vacuous).
  expect(
    read.some((f) => f.endsWith('nestwright/dist/framework/index.js.map')),
    read.join('\n'),
  ).toBe(true);
  expect(read.filter((f) => f.includes('nestwright/dist/chunks/'))).toEqual([]);
});

test("listing the tests loads the declarations, not what runs them: no device client, MCP SDK or locators in Playwright's runner", async () => {
  // Playwright's runner loads the config and every spec to list the tests and runs none: the
  // package's entry gives it the declarations (fixtures, matchers' names, options) and loads what
  // they run only in workers (framework/entry.ts). A load hook logs every module the runner loads.
  const log = path.join(work, 'modules-loaded.log');
  writeFileSync(path.join(work, 'load-probe.mjs'), LOAD_PROBE);
  writeFileSync(path.join(work, 'load-probe-hooks.mjs'), LOAD_PROBE_HOOKS);
  const list = await run('npx', ['playwright', 'test', '--list'], project, 300_000, {
    NODE_OPTIONS: `--import ${pathToFileURL(path.join(work, 'load-probe.mjs')).href}`,
    LOAD_PROBE_LOG: log,
  });
  expect(list.code, list.out).toBe(0);
  expect(list.out).toContain('notes.spec.ts');
  const ours = readFileSync(log, 'utf8')
    .split('\n')
    .filter((u) => u.includes('/node_modules/nestwright/dist/'))
    .map((u) => fileURLToPath(u));
  // esbuild names each file it bundled in a comment (`// dist/framework/core/app.js`,
  // `// node_modules/zod/v4/core/core.js`): the sources of every module the runner loaded.
  const sources = new Set(
    ours.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/^\/\/ ((?:dist|node_modules)\/\S+\.js)$/gm)].map((m) => m[1]!),
    ),
  );
  // The probe sees the declarations (the checks below are not vacuous).
  expect([...sources], 'the runner loads the fixtures and expect').toEqual(
    expect.arrayContaining(['dist/framework/runner/fixtures.js', 'dist/framework/core/expect.js']),
  );
  // Not what runs the tests: the locators and the app, the device client and the MCP SDK (with
  // ajv), the simulator. (zod is loaded here: this project's config sets options the global setup
  // checks, deviceOptions and trajectory, and the Allure reporter reads trajectories with it.)
  const running = [...sources].filter(
    (s) =>
      /^node_modules\/(@modelcontextprotocol\/sdk|ajv)\//.test(s) ||
      /^dist\/device-runtime\/(sim\/|client\/(?!errors\.js))/.test(s) ||
      /^dist\/framework\/(core\/(app|locator|space|matchers)|runtime)\.js$/.test(s),
  );
  expect(running).toEqual([]);
  // The workers load the rest: the run of this project above passed with this package.
});

test('a CommonJS project (no "type": "module") loads the package through require() and runs', async () => {
  // Playwright compiles such a project's TypeScript to CommonJS: `require('nestwright')` loads the
  // ES module package (Node 20.19+), which works only while its entry has no top-level await.
  const cjs = path.join(work, 'cjs-project');
  mkdirSync(path.join(cjs, 'specs'), { recursive: true });
  symlinkSync(path.join(project, 'node_modules'), path.join(cjs, 'node_modules'));
  writeFileSync(path.join(cjs, 'package.json'), '{ "name": "cjs-project", "private": true }\n');
  writeFileSync(
    path.join(cjs, 'playwright.config.ts'),
    "import { defineConfig } from 'nestwright';\nexport default defineConfig({ testDir: './specs', reporter: 'line', use: { apk: 'node_modules/nestwright/fixtures/apks/notes.apk' } });\n",
  );
  writeFileSync(
    path.join(cjs, 'specs/one.spec.ts'),
    "import { test, expect, App } from 'nestwright';\ntest('notes', async ({ app }) => {\n  expect(app).toBeInstanceOf(App);\n  await expect(app.getByText('New note')).toBeVisible();\n});\n",
  );
  const r = await run('npx', ['playwright', 'test'], cjs);
  expect(r.code, r.out).toBe(0);
  expect(r.out).toContain('1 passed');
});

test('a hand-written spec: fixtures, locators, expect, subpath exports, types, the Allure reporter', async () => {
  writeFileSync(path.join(project, 'specs/by-hand.spec.ts'), HAND_SPEC);
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    USER_TSCONFIG.replace(
      '"types"',
      `"typeRoots": [${JSON.stringify(path.join(ROOT, 'node_modules/@types'))}],\n    "types"`,
    ),
  );
  // The declarations in dist/ type-check the user's specs and config (with this repository's tsc).
  const tsc = await run(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--listFiles'],
    project,
  );
  expect(tsc.code, tsc.out).toBe(0);
  // The declarations name no type of a dependency loaded on demand: a user's type check (and
  // editor) would load it, and what it brings (mockttp's: GraphQL's and the certificate libraries').
  // Nor the MCP SDK's (McpTransport describes its transport): its types.d.ts alone is seconds of
  // every user's `tsc`.
  const loaded = tsc.out.split('\n').filter((f) => f.includes('/node_modules/'));
  expect(loaded.length).toBeGreaterThan(100);
  expect(
    loaded.filter((f) =>
      /\/node_modules\/(mockttp|graphql|@graphql-tools|@peculiar|yaml|ts-morph|sharp|@modelcontextprotocol)\//.test(f),
    ),
  ).toEqual([]);

  rmSync(path.join(project, 'allure-results'), { recursive: true, force: true });
  const r = await run('npx', ['playwright', 'test', 'specs/by-hand.spec.ts'], project);
  expect(r.code, r.out).toBe(0);
  expect(r.out).toContain('3 passed'); // the test.fail() one counts as passed: it failed as expected

  const results = readdirJson(path.join(project, 'allure-results'));
  const names = results.map((x) => x.name).sort();
  expect(names).toEqual([
    'a failing expectation fails the test with the call log',
    'adds two notes and finds one among them',
    'reaches the device through the fixtures',
  ]);
  const adds = results.find((x) => x.name === 'adds two notes and finds one among them');
  expect(JSON.stringify(adds.steps)).toContain("Tap text='New note'");
  // screenshot: 'on' went through the compiled render worker into PNG attachments.
  const pngs = JSON.stringify(adds).match(/[0-9a-f]{64}-attachment\.png/g) ?? [];
  expect(pngs.length).toBeGreaterThan(0);
  for (const png of new Set(pngs))
    expect(
      readFileSync(path.join(project, 'allure-results', png))
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
});

test('the compiled command line and render worker run on their own', async () => {
  const version = await run('npx', ['nestwright', '--version'], project);
  expect(version.out.trim()).toBe(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
  const inspect = await run('npx', ['nestwright', 'inspect', 'fixtures/apks/notes.apk', '--json'], project);
  expect(inspect.code, inspect.out).toBe(0);
  expect(JSON.parse(inspect.out)).toBeTruthy();
  // The Allure reporter falls back to rendering inline when its thread cannot start; check the
  // thread itself loads from dist/ without tsx.
  writeFileSync(path.join(project, 'worker-probe.mjs'), WORKER_PROBE);
  const worker = await run(process.execPath, ['worker-probe.mjs'], project);
  expect(worker.out.trim(), worker.out).toBe('rendered');
  // init again: nothing changes; a spec the user edited is kept unless --force.
  writeFileSync(path.join(project, 'specs/notes.spec.ts'), '// mine\n');
  const again = await run('npx', ['nestwright', 'init'], project);
  expect(again.code).toBe(0);
  expect(again.out).toMatch(/skipped\s+specs\/notes\.spec\.ts/);
  expect(readFileSync(path.join(project, 'specs/notes.spec.ts'), 'utf8')).toBe('// mine\n');
  expect(again.out).toMatch(/unchanged\s+playwright\.config\.ts/);
});

test('healing from the compiled package: a spec for Notes 1.0 heals on 2.0, `npx nestwright heal --apply` fixes it', async () => {
  // Notes 2.0 is the app's next build (renamed ids, "Create note"): not shipped, copied in as a
  // user would get their own app's update.
  copyFileSync(path.join(ROOT, 'fixtures/apks/notes-v2.apk'), path.join(project, 'fixtures/apks/notes-v2.apk'));
  writeFileSync(path.join(project, 'specs/heal.spec.ts'), HEAL_SPEC);
  const v1 = await run('npx', ['playwright', 'test', 'specs/heal.spec.ts'], project);
  expect(v1.code, v1.out).toBe(0);
  expect(existsSync(path.join(project, 'specs/__fingerprints__/heal.spec.ts.json'))).toBe(true);

  const v2 = await run('npx', ['playwright', 'test', 'specs/heal.spec.ts'], project, 300_000, {
    NOTES_APK: 'fixtures/apks/notes-v2.apk',
    HEAL: 'auto',
  });
  expect(v2.code, v2.out).toBe(0);
  const listed = await run('npx', ['nestwright', 'heal'], project);
  expect(listed.code, listed.out).toBe(0);
  expect(listed.out).toContain('2 healing proposals from the last run');
  const applied = await run('npx', ['nestwright', 'heal', '--apply'], project);
  expect(applied.code, applied.out).toBe(0);
  expect(readFileSync(path.join(project, 'specs/heal.spec.ts'), 'utf8')).toBe(
    HEAL_SPEC.replace("getByText('New note')", "getByText('Create note')").replace(
      "getById('title')",
      "getById('note_title')",
    ),
  );
  const fixed = await run('npx', ['playwright', 'test', 'specs/heal.spec.ts'], project, 300_000, {
    NOTES_APK: 'fixtures/apks/notes-v2.apk',
    HEAL: 'off',
  });
  expect(fixed.code, fixed.out).toBe(0);
});

/** Written against Notes 1.0; NOTES_APK=fixtures/apks/notes-v2.apk runs it on 2.0, installed over 1.0 as an update. */
const HEAL_SPEC = `import { test, expect } from 'nestwright';

const apk = process.env.NOTES_APK ?? 'fixtures/apks/notes.apk';
test.use({ apk: apk, heal: (process.env.HEAL ?? 'suggest') as 'suggest' });
test.beforeAll(async ({ space }) => {
  if (apk.endsWith('notes-v2.apk')) await space.install('fixtures/apks/notes.apk');
});

test('creates a note', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Buy milk');
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Buy milk')).toBeVisible();
});
`;

/** Logs every source map a process reads (preloaded with NODE_OPTIONS=--require). */
const MAP_PROBE = `const fs = require('node:fs');
const readFileSync = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  if (typeof file === 'string' && file.endsWith('.js.map')) fs.appendFileSync(process.env.MAP_PROBE_LOG, file + '\\n');
  return readFileSync.call(this, file, ...rest);
};
`;

/** Registers LOAD_PROBE_HOOKS in every process of the run (NODE_OPTIONS --import). */
const LOAD_PROBE = `import { register } from 'node:module';
register('./load-probe-hooks.mjs', import.meta.url);
`;

/** A loader hook that logs each module's URL (Playwright's own hooks, registered later, run first). */
const LOAD_PROBE_HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  const result = await next(url, context);
  appendFileSync(process.env.LOAD_PROBE_LOG, url + '\\n');
  return result;
}
`;

const WORKER_PROBE = `
import { Worker } from 'node:worker_threads';
import { PNG } from 'pngjs';
const png = PNG.sync.write(new PNG({ width: 4, height: 4 }));
const w = new Worker(new URL('./node_modules/nestwright/dist/reporters/allure/render-worker.js', import.meta.url));
w.on('error', (e) => { console.log('worker error: ' + e.message); process.exit(1); });
w.on('message', (m) => { console.log(m.png ? 'rendered' : 'failed: ' + m.error); w.terminate(); });
w.postMessage({ id: 1, png: new Uint8Array(png), opts: { bounds: null, maxWidth: 2 } });
`;

/** A figure for the closing note: an annotation on the test, and a line in the output. */
function note(type: string, description: string): void {
  test.info().annotations.push({ type, description });
  console.log(`${type}: ${description}`);
}

function readdirJson(dir: string): any[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
}

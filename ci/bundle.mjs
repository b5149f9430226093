#!/usr/bin/env node
/**
 * `npm run build`, after tsc: the published package's JavaScript, bundled. tsc emits one file per
 * source module (about 500), and a cold `playwright test` pays for each one twice (in the runner
 * and in every worker), mostly in Playwright's ESM loader hooks, which see every import. As
 * Playwright ships its own dependencies bundled (utilsBundle), this bundles the package's entry
 * points with esbuild: each entry keeps its path (`dist/framework/index.js`, the exports of
 * package.json, the files named by path at run time), the code they share goes into
 * `dist/chunks/`, and so does the pure-JavaScript dependencies' code that is loaded on every run
 * (zod, the MCP SDK and what it imports), so a run loads tens of files, not hundreds.
 * Every other dependency stays external: native ones (sharp), large ones loaded on first use
 * (mockttp, ts-morph), and Playwright itself, which must be the one the user installed.
 * Declarations (`.d.ts`) are tsc's, untouched; source maps chain to the TypeScript sources.
 * Code moved into a chunk no longer sits beside the files it names: framework/core/package-root.ts
 * gives paths from the package root.
 */
import { build } from 'esbuild';
import { mkdtempSync, readdirSync, renameSync, rmSync, statSync, cpSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');

/** The files loaded by path: the package's exports, the command line, and what is named at run time. */
export const ENTRIES = [
  'framework/index', // nestwright
  'device-runtime/protocol/index', // nestwright/protocol
  'device-runtime/client/index', // nestwright/client
  'reporters/allure/index', // nestwright/reporters/allure
  'framework/heal/index', // nestwright/heal
  'framework/conformance/index', // nestwright/conformance
  'cli/index', // bin/nestwright.js
  'framework/runner/global-setup', // defineConfig's globalSetup
  'framework/runner/config', // nestwright maestro test's generated config
  'framework/runner/maestro-spec', // nestwright maestro test's generated spec
  'reporters/allure/render-worker', // the screenshot renderer's worker thread
  'device-runtime/protocol/skill/script-worker', // the flow and skill scripts' thread
  'cli/mcp/progress-reporter', // the agent MCP server's run_tests reporter
];

/**
 * An entry built from another source file: the package's `index.js` is framework/entry.ts, which
 * framework/index.ts re-exports for the declarations (see entry.ts).
 */
const SOURCE_OF = { 'framework/index': 'framework/entry' };

/** Dependencies bundled (with everything they import): pure JavaScript, loaded on every run. */
const BUNDLED = new Set([
  'zod',
  '@modelcontextprotocol/sdk',
  'zod-to-json-schema',
  'ajv',
  'ajv-formats',
  'fast-uri',
  'fast-deep-equal',
  'json-schema-traverse',
  'eventsource-parser',
  'pkce-challenge',
  'content-type',
]);

const packageOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
const inBundledPackage = (file) =>
  [...BUNDLED].some((p) => file.includes(`${path.sep}node_modules${path.sep}${p.replace('/', path.sep)}${path.sep}`));

/** Bare imports stay external unless their package (or the importer's) is in BUNDLED. */
const externals = {
  name: 'nestwright-externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      if (BUNDLED.has(packageOf(args.path)) || inBundledPackage(args.importer)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

function jsFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => path.join(dir, f))
    .filter((f) => /\.js(\.map)?$/.test(f) && statSync(f).isFile());
}

/**
 * esbuild the entry points into `outdir` (its `chunks/` beside them). `from: 'dist'` takes tsc's
 * JavaScript (the published package); `from: 'sources'` takes the TypeScript sources directly, as
 * nestwright's own tests do for their child runs (tests/child-bundle.ts): the same code, in tens
 * of files instead of hundreds, without waiting for tsc.
 */
export async function bundleEntries(outdir, { from = 'dist', sourcemap = 'linked' } = {}) {
  await build({
    entryPoints: ENTRIES.map((e) => ({
      in: from === 'dist' ? path.join(DIST, `${SOURCE_OF[e] ?? e}.js`) : path.join(ROOT, `${SOURCE_OF[e] ?? e}.ts`),
      out: e,
    })),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap,
    chunkNames: 'chunks/[name]-[hash]',
    // Class and function names as written: without it a class that shares its name with another
    // module's becomes `_NestwrightError` in a user's error messages and stack traces.
    keepNames: true,
    plugins: [externals],
    // CommonJS dependencies (ajv) call require() for Node's modules: give the ESM chunks one.
    banner: {
      js: "import { createRequire as __nestwrightRequire } from 'node:module';\nconst require = __nestwrightRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
}

export async function bundle() {
  // Beside dist/, at its depth: the source maps' paths are relative to their file, so a map written
  // here names `../../framework/x.ts` and stays right once copied into dist/ (from a folder in /tmp,
  // they named `../../../work/…`, which points outside the package wherever it is installed). The
  // maps carry each source's text (sourcesContent): the package ships no .ts.
  const out = mkdtempSync(path.join(ROOT, '.bundle-'));
  try {
    await bundleEntries(out);
    // tsc's JavaScript out, the bundle in; the declarations stay.
    for (const f of jsFiles(DIST)) rmSync(f);
    cpSync(out, DIST, { recursive: true });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle();

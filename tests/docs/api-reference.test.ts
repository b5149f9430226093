import { test, expect } from '@playwright/test';
import { execa } from 'execa';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const COMMITTED = join(ROOT, 'docs/api');

const files = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .sort();

/**
 * docs/api is TypeDoc's Markdown of the package's entry points (typedoc.json): regenerated here
 * and compared, so a changed signature or doc comment without `npm run docs` fails.
 */
test('docs/api is up to date with the sources (npm run docs rewrites it), and no export is undocumented', async () => {
  test.setTimeout(300_000);
  const out = mkdtempSync(join(tmpdir(), 'nestwright-api-'));
  try {
    const r = await execa(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'node_modules/typedoc/bin/typedoc'), '--out', out],
      { cwd: ROOT, reject: false, all: true },
    );
    expect(r.exitCode, r.all).toBe(0);
    const warnings = (r.all ?? '')
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .filter((l) => l.startsWith('[warning]') && !l.startsWith('[warning] Found'));
    // Every entry point is held to no warnings (an undocumented export, a broken link, a type
    // that is referenced but not exported). The `message` of a matcher's result is Playwright's
    // matcher contract, not API.
    const undocumented = warnings.filter((w) => !/NestwrightMatchers\.\w+(\.__type)+\.message /.test(w));
    expect(undocumented, 'document these (or mark them @internal)').toEqual([]);

    const fresh = files(out);
    expect(files(COMMITTED), 'the pages of docs/api: run `npm run docs` and commit docs/api').toEqual(fresh);
    const stale = fresh.filter((f) => readFileSync(join(out, f), 'utf8') !== readFileSync(join(COMMITTED, f), 'utf8'));
    expect(stale, 'these pages of docs/api are stale: run `npm run docs` and commit docs/api').toEqual([]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

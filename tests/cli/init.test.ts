import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { initCommand, type InitError, type InitStep } from '../../cli/commands/init.js';

/** Run `nestwright init --json …` in `cwd`; return its exit code and parsed report. */
async function init(cwd: string, ...args: string[]): Promise<{ code: number; steps: InitStep[]; error?: InitError }> {
  let out = '';
  const code = await initCommand(['--json', ...args], { out: (t) => (out += t), err: (t) => (out += t), cwd });
  const report = JSON.parse(out) as { ok: boolean; steps?: InitStep[]; error?: InitError };
  return { code, steps: report.steps ?? [], ...(report.error ? { error: report.error } : {}) };
}
const status = (steps: InitStep[], p: string) => steps.filter((s) => s.path === p).map((s) => s.status);
const dir = () => mkdtempSync(path.join(tmpdir(), 'nw-init-'));

test('in an empty directory init writes everything, and a second run changes nothing', async () => {
  const d = dir();
  const first = await init(d);
  expect(first.code).toBe(0);
  const apks = ['notes', 'shop', 'chat'].map((a) => `fixtures/apks/${a}.apk`); // where the docs name them
  for (const f of ['playwright.config.ts', 'specs/notes.spec.ts', ...apks, 'package.json', '.gitignore'])
    expect(status(first.steps, f)).toEqual(['wrote']);
  expect(readFileSync(path.join(d, 'playwright.config.ts'), 'utf8')).toContain("from 'nestwright'");
  for (const a of apks) expect(readFileSync(path.join(d, a)).subarray(0, 2).toString()).toBe('PK');
  expect(readFileSync(path.join(d, 'specs/notes.spec.ts'), 'utf8')).toContain("apk: 'fixtures/apks/notes.apk'");
  const pkg = JSON.parse(readFileSync(path.join(d, 'package.json'), 'utf8'));
  expect(pkg).toMatchObject({
    private: true,
    scripts: { test: 'playwright test', 'test:report': 'nestwright report' },
  });
  expect(pkg.name).toMatch(/^nw-init-/);
  const second = await init(d);
  expect(second.code).toBe(0);
  expect(new Set(second.steps.map((s) => s.status))).toEqual(new Set(['unchanged']));
});

test('in an existing project init keeps what differs unless --force, and only adds ignore lines', async () => {
  const d = dir();
  writeFileSync(
    path.join(d, 'package.json'),
    '{\n    "name": "shop-app",\n    "type": "module",\n    "scripts": { "test": "jest" }\n}\n',
  );
  writeFileSync(path.join(d, 'playwright.config.ts'), '// the web tests\n');
  writeFileSync(path.join(d, '.gitignore'), '/node_modules\ndist\ntest-results/');
  const r = await init(d);
  expect(r.code).toBe(0);
  expect(status(r.steps, 'playwright.config.ts')).toEqual(['skipped']);
  expect(readFileSync(path.join(d, 'playwright.config.ts'), 'utf8')).toBe('// the web tests\n');
  expect(status(r.steps, 'package.json')).toEqual(['skipped', 'updated']);
  expect(r.steps.find((s) => s.status === 'skipped' && s.path === 'package.json')!.detail).toContain(
    '"test" is "jest"',
  );
  const pkg = readFileSync(path.join(d, 'package.json'), 'utf8');
  expect(pkg).toContain('\n    "name": "shop-app"'); // its indentation kept
  expect(JSON.parse(pkg)).toEqual({
    name: 'shop-app',
    type: 'module',
    scripts: { test: 'jest', 'test:report': 'nestwright report' },
  });
  const ignore = readFileSync(path.join(d, '.gitignore'), 'utf8');
  expect(ignore.startsWith('/node_modules\ndist\ntest-results/\n')).toBe(true);
  expect(ignore.match(/test-results/g)).toHaveLength(1);
  expect(ignore).toContain('allure-results/');
  expect(ignore).not.toMatch(/^node_modules\/$/m);

  const forced = await init(d, '--force');
  expect(status(forced.steps, 'playwright.config.ts')).toEqual(['overwrote']);
  expect(JSON.parse(readFileSync(path.join(d, 'package.json'), 'utf8')).scripts.test).toBe('playwright test');
});

test('bad input is a structured error, exit 2, and nothing is written', async () => {
  const d = dir();
  writeFileSync(path.join(d, 'package.json'), '{ "name": "x", ');
  const broken = await init(d);
  expect(broken.code).toBe(2);
  expect(broken.error).toMatchObject({
    code: 'INVALID_PACKAGE_JSON',
    hint: expect.stringContaining('nothing was written'),
  });
  expect(readdirSync(d)).toEqual(['package.json']);

  writeFileSync(path.join(d, 'package.json'), '{ "scripts": ["test"] }');
  expect((await init(d)).error?.code).toBe('INVALID_PACKAGE_JSON');
  writeFileSync(path.join(d, 'package.json'), '[]');
  expect((await init(d)).error?.code).toBe('INVALID_PACKAGE_JSON');

  const flag = await init(d, '--forse');
  expect(flag).toMatchObject({ code: 2, error: { code: 'USAGE', message: expect.stringContaining('--forse') } });
  const extra = await init(d, 'my-dir');
  expect(extra).toMatchObject({ code: 2, error: { code: 'USAGE', message: expect.stringContaining('my-dir') } });
  expect(readdirSync(d)).toEqual(['package.json']);
  expect((await init(path.join(d, 'package.json'))).error?.code).toBe('NOT_A_DIRECTORY');
  expect(existsSync(path.join(d, 'specs'))).toBe(false);
});

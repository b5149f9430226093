import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SimRuntime } from '../device-runtime/sim/runtime.js';
import { compareImages } from '../framework/visual/compare.js';
import { Picture } from '../framework/visual/picture.js';
import { median, percentile, round, sample, type BenchSection } from './section.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stats = (xs: number[]) => ({ median_ms: round(median(xs)), p95_ms: round(percentile(xs, 95)) });

/** A Playwright run of `files` in a fresh directory under test-results/ (the real runner, the real fixtures), its JSON report. */
async function playwright(
  dir: string,
  files: Record<string, string>,
  args: string[],
  env: Record<string, string> = {},
): Promise<any> {
  mkdirSync(dir, { recursive: true });
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), body);
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', dir, '--reporter=json', ...args],
    {
      cwd: ROOT,
      env: { ...process.env, NESTWRIGHT_FAULTS: '', NESTWRIGHT_SEED: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await new Promise((resolve) => child.on('close', resolve));
  return JSON.parse(out.slice(out.indexOf('{')));
}

const CONFIG = `import { defineConfig } from 'nestwright';
export default defineConfig({ testDir: '.', outputDir: './out', timeout: 60_000, expect: { timeout: 5_000 }, use: { deviceOptions: { provider: 'sim' }, trajectory: 'off' } });
`;

/** The per-call cost on instant: N passing toHaveScreenshot of the Settings home screen, and N app.screenshot(). */
const COST = (n: number) => `import { test, expect } from 'nestwright';
import { writeFileSync } from 'node:fs';
test.use({ apk: 'com.android.settings' });
test('cost', async ({ app }) => {
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png');
  const times = { assertion: [] as number[], screenshot: [] as number[] };
  for (let i = 0; i < ${n} + 5; i++) {
    let t = performance.now();
    await expect(app).toHaveScreenshot('home.png');
    if (i >= 5) times.assertion.push(performance.now() - t);
    t = performance.now();
    await app.screenshot();
    if (i >= 5) times.screenshot.push(performance.now() - t);
  }
  writeFileSync(process.env.BENCH_OUT!, JSON.stringify(times));
});
`;

/** Twenty screens of the simulated apps, each compared with its baseline. */
const SCREENS = `import { test, expect } from 'nestwright';
test.describe('settings', () => {
  test.use({ apk: 'com.android.settings' });
  const home = async (app: any) => expect(app.getByText('Network & internet')).toBeVisible();
  test('home', async ({ app }) => { await home(app); await expect(app).toHaveScreenshot('s01.png'); });
  test('search', async ({ app }) => { await app.getByDesc('Search settings').tap(); await expect(app).toHaveScreenshot('s02.png'); });
  test('search wlan', async ({ app }) => { await app.getByDesc('Search settings').tap(); await app.getById('search_src_text').fill('WLAN'); await expect(app.getByText('Wi-Fi', { exact: true })).toBeVisible(); await expect(app).toHaveScreenshot('s03.png'); });
  test('search none', async ({ app }) => { await app.getByDesc('Search settings').tap(); await app.getById('search_src_text').fill('teleport'); await app.press('back'); await expect(app).toHaveScreenshot('s04.png'); });
  test('wifi off', async ({ app }) => { await app.getByText('Network & internet').tap(); await expect(app).toHaveScreenshot('s05.png'); });
  test('wifi on', async ({ app }) => { await app.getByText('Network & internet').tap(); await app.getByRole('switch', { name: 'Use Wi-Fi' }).tap(); await expect(app).toHaveScreenshot('s06.png', { timeout: 10_000 }); });
  test('bluetooth off', async ({ app }) => { await app.getByText('Connected devices').tap(); await expect(app).toHaveScreenshot('s07.png'); });
  test('bluetooth on', async ({ app }) => { await app.getByText('Connected devices').tap(); await app.getByRole('switch', { name: 'Use Bluetooth' }).tap(); await expect(app.getByText('Device name: Pixel Sim')).toBeVisible(); await expect(app).toHaveScreenshot('s08.png'); });
  test('display', async ({ app }) => { await app.getByText('Display').tap(); await expect(app).toHaveScreenshot('s09.png'); });
  test('dark theme', async ({ app }) => { await app.getByText('Display').tap(); const s = app.getByRole('switch', { name: 'Dark theme' }); await s.tap(); await expect(s).toBeChecked(); await expect(app).toHaveScreenshot('s10.png'); });
  test('about phone', async ({ app }) => { await app.getByText('About phone').tap(); await expect(app).toHaveScreenshot('s11.png'); });
  test('search button', async ({ app }) => { await expect(app.getByDesc('Search settings')).toHaveScreenshot('s12.png'); });
});
test.describe('notes', () => {
  test.use({ apk: 'fixtures/apks/notes.apk' });
  test('empty list', async ({ app }) => { await expect(app.getByText('New note')).toBeVisible(); await expect(app).toHaveScreenshot('n01.png'); });
  test('editor', async ({ app }) => { await app.getByText('New note').tap(); await expect(app.getById('title')).toBeVisible(); await app.press('back'); await expect(app).toHaveScreenshot('n02.png'); });
  test('one note', async ({ app }) => { await app.getByText('New note').tap(); await app.getById('title').fill('Buy milk'); await app.getByRole('button', { name: 'Save' }).tap(); await expect(app.getByText('Buy milk')).toBeVisible(); await expect(app).toHaveScreenshot('n03.png'); });
  test('menu', async ({ app }) => { await app.getByDesc('More options').tap(); await expect(app.getByText('Load sample notes')).toBeVisible(); await expect(app).toHaveScreenshot('n04.png'); });
  test('sample notes', async ({ app }) => { await app.getByDesc('More options').tap(); await app.getByText('Load sample notes').tap(); await expect(app.getById('note_row').first()).toBeVisible(); await expect(app).toHaveScreenshot('n05.png'); });
});
test.describe('shop', () => {
  test.use({ apk: 'fixtures/apks/shop.apk' });
  test('sign-in form', async ({ app }) => { await expect(app.getById('email')).toBeVisible(); await expect(app).toHaveScreenshot('p01.png'); });
  test('form error', async ({ app }) => { await app.getById('email').fill('not-an-email'); await app.press('back'); await app.getByRole('button', { name: 'Log in' }).tap(); await expect(app.getById('error')).toBeVisible(); await expect(app).toHaveScreenshot('p02.png'); });
  test('catalog', async ({ app }) => { await app.launch({ activity: '.CatalogActivity' }); await expect(app.getByText('Catalog', { exact: true })).toBeVisible(); await expect(app).toHaveScreenshot('p03.png', { timeout: 10_000 }); });
});
`;

/**
 * Visual comparisons: what a passing `toHaveScreenshot` of a full screen costs next to one
 * screenshot (instant), the comparison alone on a 1080×2400 picture, and false failures under
 * the `hostile` profile (twenty screens, ten runs each, against baselines written on `instant`).
 */
export async function benchVisual(): Promise<BenchSection> {
  const rows: BenchSection['rows'] = [];
  const notes: string[] = [];
  const work = path.join(ROOT, 'test-results', 'bench-visual');
  rmSync(work, { recursive: true, force: true });
  try {
    // 1. Per call, through the runner (instant).
    const out = path.join(work, 'cost.json');
    await playwright(
      path.join(work, 'cost'),
      { 'playwright.config.ts': CONFIG, 'cost.spec.ts': COST(30) },
      ['--workers=1', '--update-snapshots=missing'],
      { BENCH_OUT: out },
    );
    const cost = JSON.parse(readFileSync(out, 'utf8')) as { assertion: number[]; screenshot: number[] };
    rows.push({
      measure: 'app.screenshot() (1080×2400, instant)',
      ...stats(cost.screenshot),
      runs: cost.screenshot.length,
    });
    rows.push({
      measure: 'expect(app).toHaveScreenshot(), passing',
      ...stats(cost.assertion),
      vs: 'app.screenshot() (1080×2400, instant)',
      ratio: round(median(cost.assertion) / median(cost.screenshot)),
      runs: cost.assertion.length,
    });

    // 2. The comparison alone, in process, on a real simulator picture.
    const rt = new SimRuntime({});
    const call = async (name: string, args: object): Promise<any> => {
      const r = await rt.call(name, args, { sessionId: 'bench', caller: 'REMOTE_MCP' });
      if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
      return r.result;
    };
    const { space_id } = await call('space_create', {});
    await call('session_acquire', { space_id });
    await call('space_launch', { space_id, package: 'com.android.settings' });
    const png = Buffer.from((await call('ui_screenshot', { space_id, scale: 1 })).data, 'base64');
    const expected = Picture.fromPng(png);
    const decoded = await expected.pixels();
    const changed = { ...decoded, data: Buffer.from(decoded.data) };
    for (let y = 1000; y < 1020; y++)
      for (let x = 500; x < 520; x++) changed.data[(y * changed.width + x) * changed.channels] ^= 0xff;
    const changedPng = await Picture.fromPixels(changed).png();
    rows.push({
      measure: 'comparison, 1080×2400, same PNG bytes',
      ...stats(await sample(200, () => compareImages(Picture.fromPng(Buffer.from(png)), expected, {}))),
    });
    rows.push({
      measure: 'comparison, 1080×2400, decode + pixelmatch (400 px differ, within maxDiffPixels)',
      ...stats(await sample(20, () => compareImages(Picture.fromPng(changedPng), expected, { maxDiffPixels: 500 }), 3)),
    });
    rows.push({
      measure: 'comparison, 1080×2400, decode + pixelmatch + diff image (400 px differ, failing)',
      ...stats(await sample(20, () => compareImages(Picture.fromPng(changedPng), expected, {}), 3)),
    });
    rows.push({
      measure: 'PNG decode alone (sharp), 1080×2400',
      ...stats(await sample(20, () => Picture.fromPng(changedPng).pixels(), 3)),
    });
    rt.close();

    // 3. Hostile: baselines from an instant run, then ten hostile runs of the twenty screens.
    const dir = path.join(work, 'screens');
    const files = { 'playwright.config.ts': CONFIG, 'screens.spec.ts': SCREENS };
    const first = await playwright(dir, files, ['--workers=2', '--update-snapshots=all']);
    const count = (report: any) => {
      let passed = 0;
      const failed: string[] = [];
      const walk = (s: any) => {
        for (const c of s.suites ?? []) walk(c);
        for (const spec of s.specs ?? [])
          for (const t of spec.tests)
            for (const r of t.results)
              r.status === 'passed'
                ? passed++
                : failed.push(
                    `${spec.title}: ${String(r.error?.message ?? r.status)
                      .split('\n')
                      .slice(0, 4)
                      .join(' ')}`,
                  );
      };
      for (const s of report.suites ?? []) walk(s);
      return { passed, failed };
    };
    const baselineRun = count(first);
    if (baselineRun.failed.length)
      notes.push(`the instant run that wrote the baselines had failures: ${baselineRun.failed.join('; ')}`);
    const hostile = count(
      await playwright(dir, files, ['--workers=2', '--repeat-each=10'], {
        NESTWRIGHT_FAULTS: 'hostile',
        NESTWRIGHT_SEED: '7',
      }),
    );
    rows.push({
      measure: 'hostile (seed 7): 20 screens × 10 runs against instant baselines',
      median_ms: '',
      p95_ms: '',
      runs: hostile.passed + hostile.failed.length,
      'false failures': hostile.failed.length,
    });
    if (hostile.failed.length) notes.push(`hostile failures: ${hostile.failed.slice(0, 5).join(' | ')}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  notes.push(
    'Per-call rows run inside a Playwright test on the embedded simulator (instant); the comparison rows in process. A passing comparison on the simulator is usually a byte-for-byte match (its pictures are deterministic); the decode rows are what a device whose status bar changes, a mask or a locator picture costs.',
  );
  return { title: 'Visual comparisons (toHaveScreenshot)', rows, notes };
}

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, percentile, round, type BenchSection } from './section.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stats = (xs: number[]) => ({ median_ms: round(median(xs)), p95_ms: round(percentile(xs, 95)) });

const CONFIG = `import { defineConfig } from 'nestwright';
export default defineConfig({ testDir: '.', outputDir: './out', timeout: 120_000, use: { deviceOptions: { provider: 'sim' }, trajectory: 'off' } });
`;

/**
 * In one nestwright test on `instant`, with the browser warm (a first opening is not counted):
 * N times, from the catalog, tap Help and get the WebView's Page; N web-side clicks on a help
 * question in that page; and N of the same click in a plain Playwright page with the same HTML
 * in the same Chromium (a context of its own, over the same CDP connection).
 */
const SPEC = (n: number) => `import { test, expect } from 'nestwright';
import { writeFileSync } from 'node:fs';
test.use({ apk: 'fixtures/apks/shop.apk' });
test('webview', async ({ app }) => {
  await app.launch({ activity: '.CatalogActivity' });
  const times = { open: [] as number[], click: [] as number[], plain: [] as number[] };
  let help;
  for (let i = 0; i < ${n} + 1; i++) {
    const t = performance.now();
    await app.getByRole('button', { name: 'Help' }).tap();
    help = await app.webview();
    if (i > 0) times.open.push(performance.now() - t);
    if (i < ${n}) {
      await help.getByRole('button', { name: 'Back to shop' }).click();
      await expect(app).toHaveActivity('.CatalogActivity');
    }
  }
  const question = help.getByRole('button', { name: 'Where is my order?' });
  const html = await help.content();
  const plain = await help.context().browser().newContext();
  const page = await plain.newPage();
  await page.setContent(html);
  const same = page.getByRole('button', { name: 'Where is my order?' });
  for (let i = 0; i < ${n} + 3; i++) {
    let t = performance.now();
    await question.click();
    if (i >= 3) times.click.push(performance.now() - t);
    t = performance.now();
    await same.click();
    if (i >= 3) times.plain.push(performance.now() - t);
  }
  await plain.close();
  writeFileSync(process.env.BENCH_OUT!, JSON.stringify(times));
});
`;

export async function benchWebView(): Promise<BenchSection> {
  const title = 'WebViews as Playwright pages (instant, warm browser)';
  if (!existsSync(process.env.NESTWRIGHT_CHROMIUM || '/usr/bin/chromium'))
    return { title, rows: [], notes: ['skipped: no Chromium (apt-get install chromium)'] };
  const n = Number(process.env.BENCH_WEBVIEW_N ?? 10);
  const dir = path.join(ROOT, 'test-results', 'bench-webview');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'playwright.config.ts'), CONFIG);
  writeFileSync(path.join(dir, 'webview.spec.ts'), SPEC(n));
  const out = path.join(dir, 'times.json');
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', dir, '--reporter=line', '--workers=1'],
    {
      cwd: ROOT,
      env: { ...process.env, NESTWRIGHT_FAULTS: '', NESTWRIGHT_SEED: '', BENCH_OUT: out },
      stdio: 'inherit',
    },
  );
  await new Promise((resolve) => child.on('close', resolve));
  const times = JSON.parse(readFileSync(out, 'utf8')) as { open: number[]; click: number[]; plain: number[] };
  rmSync(dir, { recursive: true, force: true });
  const click = stats(times.click);
  const plain = stats(times.plain);
  return {
    title,
    rows: [
      { measure: 'tap Help + app.webview() → Page', ...stats(times.open), n, target: '≤ 1500 ms' },
      {
        measure: "web-side click in the WebView's Page",
        ...click,
        n,
        vs: 'the same click in a plain Playwright page, same Chromium',
        ratio: `${round(click.median_ms / plain.median_ms)}x`,
        target: '≤ 3x',
      },
      { measure: 'the same click in a plain Playwright page', ...plain, n },
    ],
    notes: ['The WebView click is a trajectory step (off here: trajectory "off"); the plain page is Playwright alone.'],
  };
}

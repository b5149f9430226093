import { test, expect, chromium, type Browser } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { reportCommand } from '../../cli/commands/report.js';
import { ROOT, runWithAllure, type AllureRun } from './run-inline.js';

const CHROMIUM = '/usr/bin/chromium';
/** Real nestwright specs on the embedded simulated device, screenshots on every step, with failures. */
const SPEC = `
import { test, expect } from 'nestwright';

test.use({ apk: 'fixtures/apks/notes.apk', screenshot: 'on' });

test('saves a note', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Buy milk');
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Buy milk')).toBeVisible();
});

test('expects a note that was never saved', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Buy milk');
  await expect(app.getByText('Buy bread')).toBeVisible({ timeout: 1_000 });
});

test('taps a button the app does not have', async ({ app }) => {
  test.setTimeout(10_000);
  await app.getByText('Delete everything').tap();
});
`;

let run: AllureRun;
let server: Server;
let browser: Browser;
let base = '';

test.describe.configure({ mode: 'serial' });
test.skip(
  !existsSync(CHROMIUM),
  `${CHROMIUM} is absent: this test opens the Allure report in Debian's chromium (apt-get install chromium; CI installs it)`,
);
test.skip(spawnSync('java', ['-version']).status !== 0, 'Allure 2 needs Java (apt-get install default-jre-headless)');

test.beforeAll(async () => {
  test.setTimeout(240_000);
  run = await runWithAllure({ 'notes.spec.ts': SPEC }, { nestwright: true });
  const log: string[] = [];
  const code = await reportCommand(['--results', run.resultsDir, '--output', path.join(run.dir, 'allure-report')], {
    out: (t) => log.push(t),
    err: (t) => log.push(t),
  });
  expect(code, log.join('')).toBe(0);
  server = await serve(path.join(run.dir, 'allure-report'));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

test.afterAll(async () => {
  await browser?.close();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
});

test('the run had a pass and two failures, each written as an Allure result', async () => {
  expect(run.exitCode, run.output).toBe(1);
  expect(run.results).toHaveLength(3);
  expect(run.result('expects a note that was never saved').statusDetails.message).toMatch(
    /^\[app · ASSERTION_FAILED\] /,
  );
  expect(run.result('taps a button the app does not have').statusDetails.message).toMatch(/^\[test · [A-Z_]+\] /);
});

test('the HTML report shows a failed test step by step, with its screenshots', async () => {
  test.setTimeout(120_000);
  const page = await browser.newPage({ viewport: { width: 1400, height: 1500 } });
  page.setDefaultTimeout(15_000);
  await page.goto(`${base}/index.html#suites`);
  await page.getByText('nestwright', { exact: true }).first().click(); // the project's group
  await page.getByText('notes.spec.ts', { exact: true }).first().click();
  await page.getByText('expects a note that was never saved').first().click();
  const pane = page.locator('.test-result');
  await expect(pane.getByText('App faults').or(pane.getByText('[app · ASSERTION_FAILED]')).first()).toBeVisible();
  for (const title of ["Tap text='New note'", 'Type "Buy milk" into id=title', "Expect text='Buy bread' toBeVisible"]) {
    await expect(pane.locator('.step__title', { hasText: title }).first()).toBeVisible();
  }
  // Open the Type step: its parameters and its screenshots.
  const typeTitle = 'Type "Buy milk" into id=title';
  await pane.locator('.step__title', { hasText: typeTitle }).first().click();
  const step = pane.locator('.step', { has: page.locator(':scope > .step__title', { hasText: typeTitle }) });
  await expect(step.getByText('textbox id=title').first()).toBeVisible(); // the node it resolved to
  await step
    .getByText(/^screenshot (before|after) \(target highlighted\)$/)
    .first()
    .click();
  const img = step.locator('img').first();
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(100);
  await page.screenshot({ path: test.info().outputPath('allure-failed-test.png') });
  if (process.env.NESTWRIGHT_UPDATE_DOCS_IMAGE)
    await page.screenshot({ path: path.join(ROOT, 'docs/images/allure-failed-test.png') });
  await page.close();
});

test('the categories page tells the failures apart', async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${base}/index.html#categories`);
  await expect(page.getByText('App faults').first()).toBeVisible();
  await expect(page.getByText('Test faults').first()).toBeVisible();
  await page.close();
});

/** A static file server for the report on 127.0.0.1 (Allure's HTML loads its data over http). */
function serve(dir: string): Promise<Server> {
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.json': 'application/json',
    '.png': 'image/png',
    '.svg': 'image/svg+xml',
    '.txt': 'text/plain',
    '.woff': 'font/woff',
    '.woff2': 'font/woff2',
    '.ico': 'image/x-icon',
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
    const file = path.resolve(dir, rel);
    if (!file.startsWith(dir + path.sep)) return void res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  };
  // A listener's promise is not awaited by the server: a failure ends the response instead of going unseen.
  const s = createServer((req, res) => void handle(req, res).catch((e: unknown) => res.destroy(e as Error)));
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)));
}

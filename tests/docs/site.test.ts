import { test, expect, chromium, type Browser, type Page } from '@playwright/test';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { sidebar } from '../../docs/.vitepress/sidebar.js';

/**
 * The docs site, as a reader gets it: built by VitePress (what `npm run docs:site` runs, into a
 * folder of its own), served on 127.0.0.1 and opened in Debian's Chromium, with every request
 * that leaves loopback refused and recorded, so the site is shown to work offline.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const CHROMIUM = '/usr/bin/chromium';
const IMAGE = join(ROOT, 'docs/images/site-locators.png');

let out = '';
let server: Server;
let browser: Browser;
let base = '';
const offsite: string[] = [];

test.describe.configure({ mode: 'serial' });
test.skip(
  !existsSync(CHROMIUM),
  `${CHROMIUM} is absent: this test opens the docs site in Debian's chromium (apt-get install chromium; CI installs it)`,
);

test.beforeAll(async () => {
  test.setTimeout(600_000);
  out = mkdtempSync(join(tmpdir(), 'nestwright-site-'));
  const built = await execa(
    process.execPath,
    [join(ROOT, 'node_modules/vitepress/bin/vitepress.js'), 'build', 'docs', '--outDir', out],
    { cwd: ROOT, reject: false, all: true },
  );
  expect(built.exitCode, built.all).toBe(0);
  server = await serve(out);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
});

test.afterAll(async () => {
  await browser?.close();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  if (out) rmSync(out, { recursive: true, force: true });
});

async function open(path: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(20_000);
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    offsite.push(url.href);
    return route.abort();
  });
  await page.goto(base + path);
  return page;
}

test('the home page says what nestwright is and leads to the guide', async () => {
  const page = await open('/');
  await expect(page).toHaveTitle(/nestwright/);
  await expect(page.getByText('Playwright-style tests for Android apps').first()).toBeVisible();
  await page.getByRole('link', { name: 'Get started' }).first().click();
  await expect(page).toHaveURL(/\/intro\.html$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible();
  await page.close();
});

test('the sidebar lists the pages in the order of docs/.vitepress/sidebar.ts', async () => {
  const page = await open('/intro.html');
  const items = page.locator('.VPSidebar .VPSidebarItem.level-1 .text');
  await expect(items).toHaveText(sidebar.map((s) => s.text));
  await page.close();
});

test('a search for "strict mode" finds the locators page, offline', async () => {
  const page = await open('/');
  await page.getByRole('button', { name: 'Search' }).first().click();
  await page.getByPlaceholder(/search/i).fill('strict mode');
  const hit = page.locator('.VPLocalSearchBox a.result[href*="locators"]').first();
  await expect(hit).toBeVisible();
  await hit.click();
  await expect(page).toHaveURL(/\/locators\.html#strict-mode$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Strict mode' })).toBeInViewport();
  if (process.env.NESTWRIGHT_UPDATE_DOCS_IMAGE) {
    await page.goto(`${base}/locators.html`);
    await page.screenshot({ path: IMAGE });
  }
  await page.close();
});

test('a link to the API reference resolves, and so does a page inside it', async () => {
  const page = await open('/fixtures.html');
  await page.locator('.vp-doc a[href*="api/nestwright/README"]').first().click();
  await expect(page).toHaveURL(/\/api\/nestwright\/README\.html$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/nestwright/);
  await page.locator('.vp-doc a[href*="classes/App"]').first().click();
  await expect(page).toHaveURL(/\/api\/nestwright\/classes\/App\.html$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Class: App/);
  await expect(page.getByText('404')).toHaveCount(0);
  await page.close();
});

test('nothing was fetched from outside loopback', () => {
  expect(offsite).toEqual([]);
});

test('the committed picture of the locators page is there (NESTWRIGHT_UPDATE_DOCS_IMAGE=1 retakes it)', () => {
  expect(existsSync(IMAGE) && statSync(IMAGE).size > 10_000).toBe(true);
});

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/** A static server of the built site on 127.0.0.1, as any host would serve it. */
function serve(dir: string): Promise<Server> {
  return new Promise((ok) => {
    const s = createServer((req, res) => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      let file = normalize(join(dir, path));
      if (!file.startsWith(dir)) return void res.writeHead(403).end();
      if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
      if (!existsSync(file))
        return void res.writeHead(404, { 'content-type': 'text/html' }).end(readFileSync(join(dir, '404.html')));
      res
        .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
        .end(readFileSync(file));
    });
    s.listen(0, '127.0.0.1', () => ok(s));
  });
}

import { test, expect } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveCrawl } from '../../cli/crawl/map-server.js';
import { writeCrawl } from '../../cli/crawl/report.js';
import { resolveConfig } from '../../cli/crawl/config.js';
import { runCrawl } from '../../cli/crawl/run.js';
import { DeviceClient, McpToolTransport } from '../../device-runtime/client/index.js';
import { inMemoryTransport } from '../../device-runtime/sim/mcp.js';
import { SimRuntime } from '../../device-runtime/sim/runtime.js';
import { HAVE_CHROMIUM, launch } from '../inspector/helpers.js';

test.skip(!HAVE_CHROMIUM, 'needs /usr/bin/chromium');

test('the app map in Chromium: every screen and crash a node with its picture, a click shows the path', async () => {
  test.setTimeout(240_000);
  const rt = new SimRuntime({ chromium: false });
  const client = new DeviceClient(await McpToolTransport.connect(await inMemoryTransport(rt)));
  const { result, pictures } = await runCrawl({
    client,
    app: 'fixtures/apks/shop.apk',
    instances: 4,
    minutes: 3,
    seed: 1,
    config: resolveConfig({}, null),
  }).finally(async () => {
    await client.close();
    rt.close();
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'crawl-page-'));
  writeCrawl(dir, result, pictures);
  const server = await serveCrawl(dir);
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await expect(page.locator('#summary')).toContainText(`${result.screens.length} screens`);
    await expect(page.locator('.screen')).toHaveCount(result.screens.length + result.crashes.length);
    expect(await page.locator('svg line').count()).toBeGreaterThan(result.screens.length / 2);
    // Screenshots load from the server (relative to the secret path).
    const first = page.locator('.screen img').first();
    await expect(first).toBeVisible();
    expect(await first.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // A crash node: its path ends with the tap that crashes, its log is there.
    await page.locator('.screen.crash').first().click();
    await expect(page.locator('#path')).toContainText(`await app.getById('apply_coupon').tap();`);
    await expect(page.locator('#side')).toContainText('StringIndexOutOfBoundsException');
    // A screen behind the sign-in: its path signs in first.
    const catalog = result.screens.find((s) => s.activity === '.CatalogActivity')!;
    await page.locator(`[data-id="${catalog.id}"]`).click();
    await expect(page.locator(`[data-id="${catalog.id}"]`)).toHaveClass(/selected/);
    await expect(page.locator('#path')).toContainText(`await app.getById('login').tap();`);
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
    await server.close();
  }
});

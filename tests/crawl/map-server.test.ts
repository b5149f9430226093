import { test, expect } from '@playwright/test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveCrawl } from '../../cli/crawl/map-server.js';
import { showCrawlCommand } from '../../cli/commands/show-crawl.js';
import { crawlCommand } from '../../cli/commands/crawl.js';

function crawlDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'crawl-map-'));
  mkdirSync(path.join(dir, 'screens'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>map</title>');
  writeFileSync(path.join(dir, 'screens', 's1.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(path.join(dir, 'secret.txt'), 'not for the page');
  return dir;
}

test('show-crawl serves the map and its pictures on 127.0.0.1 under its one-time path, nothing else', async () => {
  const dir = crawlDir();
  const server = await serveCrawl(dir);
  try {
    const url = new URL(server.url);
    expect(url.hostname).toBe('127.0.0.1');
    const page = await fetch(server.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>map</title>');
    const png = await fetch(new URL('screens/s1.png', server.url));
    expect(png.headers.get('content-type')).toBe('image/png');
    // Without the token, with another token, or for a file a crawl does not write: refused.
    expect((await fetch(`${url.origin}/index.html`)).status).toBe(403);
    expect((await fetch(`${url.origin}/AAAAAAAAAAAAAAAAAAAAAAAA/index.html`)).status).toBe(403);
    expect((await fetch(new URL('secret.txt', server.url))).status).toBe(404);
    expect((await fetch(new URL('screens/..%2F..%2Fsecret.txt', server.url))).status).toBe(404);
    expect((await fetch(server.url, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
  } finally {
    await server.close();
  }
});

test('the commands refuse bad input with exit 2 and say what to do', async () => {
  const err: string[] = [];
  const io = { out: () => {}, err: (t: string) => void err.push(t) };
  expect(await crawlCommand(['fixtures/apks/notes.apk', '--instances', '0'], io)).toBe(2);
  expect(err.join('')).toContain('--instances 0: a number from 1');
  const cfg = path.join(mkdtempSync(path.join(tmpdir(), 'crawl-cfg-')), 'crawl.json');
  writeFileSync(cfg, JSON.stringify({ inputs: { password: { secret: 'CRAWL_UNSET_SECRET_VAR' } } }));
  expect(await crawlCommand(['fixtures/apks/notes.apk', '--config', cfg], io)).toBe(2);
  expect(err.join('')).toContain('the environment variable CRAWL_UNSET_SECRET_VAR is not set');
  writeFileSync(cfg, JSON.stringify({ avoid: ['nope=x'], extra: 1 }));
  expect(await crawlCommand(['fixtures/apks/notes.apk', '--config', cfg], io)).toBe(2);
  expect(err.join('')).toMatch(/config/);
  expect(await crawlCommand(['fixtures/apks/notes.apk', '--bogus'], io)).toBe(2);
  expect(await showCrawlCommand([path.join(tmpdir(), 'no-such-crawl')], io)).toBe(2);
  expect(err.join('')).toContain('run `npx nestwright crawl <app.apk>');
});

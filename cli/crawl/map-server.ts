/**
 * `show-crawl`'s server: the crawl folder's map page and its pictures on 127.0.0.1, under a
 * one-time secret path (`/<token>/index.html`, compared in constant time), so the page's relative
 * links to `screens/…` work and nothing is served to whoever lacks the address. Only the files a
 * crawl writes are served (by name pattern: no path ever reaches the file system from a request),
 * and Host/Origin are checked as for the MCP servers.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { allowedHosts, badHostOrOrigin, digest } from '../../device-runtime/mcp-http/guards.js';

const FILES: Array<[RegExp, string]> = [
  [/^index\.html$/, 'text/html; charset=utf-8'],
  [/^crawl\.json$/, 'application/json'],
  [/^screens\/s\d{1,6}\.png$/, 'image/png'],
  [/^crashes\/crash-\d{1,6}\.log$/, 'text/plain; charset=utf-8'],
];

export interface MapServer {
  url: string;
  close(): Promise<void>;
}

export async function serveCrawl(dir: string, port = 0): Promise<MapServer> {
  const token = randomBytes(18).toString('base64url');
  const expected = digest(token);
  const hosts = allowedHosts(false, []);
  const server = createServer((req, res) => {
    const refuse = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`${text}\n`);
    };
    const bad = badHostOrOrigin(req, hosts);
    if (bad) return refuse(403, bad);
    if (req.method !== 'GET') return refuse(405, 'only GET');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const [, given = '', ...rest] = url.pathname.split('/');
    if (!timingSafeEqual(digest(given), expected))
      return refuse(403, 'nestwright show-crawl: wrong or missing token; open the address the command printed');
    const name = rest.join('/') || 'index.html';
    const type = FILES.find(([re]) => re.test(name))?.[1];
    if (!type) return refuse(404, `nothing at ${name}`);
    readFile(path.join(dir, name)).then(
      (body) => {
        res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
        res.end(body);
      },
      () => refuse(404, `nothing at ${name}`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/${token}/index.html`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

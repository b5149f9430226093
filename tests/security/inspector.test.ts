/**
 * The inspector's JSON API (`nestwright codegen` / `record`, cli/inspector/server.ts) refuses a
 * body over its limit with 413 and a structured body, before reading it (Content-Length) or as
 * soon as the limit is crossed (a chunked body of unknown length) — never a 500, never reading on.
 * The server runs in this process on 127.0.0.1 with a live inspector that is not connected to a
 * device: `save` needs none (it writes the recording so far).
 */
import { test, expect } from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LiveInspector } from '../../cli/inspector/live.js';
import { startInspectorServer, type InspectorServer } from '../../cli/inspector/server.js';

const MiB = 1024 * 1024;

let root: string;
let server: InspectorServer;
let token: string;

test.beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'nw-inspector-sec-'));
  server = await startInspectorServer({ live: new LiveInspector(root, 'com.nestwright.notes', { provider: 'sim' }) });
  token = new URL(server.url).searchParams.get('token')!;
});

test.afterEach(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

type Answer = { status: number; body: { code?: string; message?: string } };

/**
 * POST to /api/save with `head` sent at once and then, unless `end`, the request left open: the
 * answer must come without the rest of the body. Bounded: no answer in 20 s is a failure.
 */
function post(opts: { head: Buffer; contentLength?: number; end: boolean }): Promise<Answer> {
  const url = new URL('/api/save', server.url);
  return new Promise<Answer>((resolve, reject) => {
    const headers: Record<string, string | number> = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    };
    if (opts.contentLength !== undefined) headers['content-length'] = opts.contentLength;
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer['body'] });
        } catch {
          resolve({ status: res.statusCode ?? 0, body: { message: text } });
        }
      });
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('no answer in 20 s: the server is waiting for the rest of the body'));
    }, 20_000);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.write(opts.head);
    if (opts.end) req.end();
  });
}

function saveBody(size: number): Buffer {
  const head = '{"format":"spec","path":"specs/saved.spec.ts","pad":"';
  return Buffer.from(head + 'x'.repeat(size - head.length - 2) + '"}');
}

function expectRefused(answer: Answer): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(413);
  expect(answer.body.code).toBe('PAYLOAD_TOO_LARGE');
  expect(answer.body.message).toMatch(/over the 1048576-byte limit/);
  expect(existsSync(path.join(root, 'specs/saved.spec.ts'))).toBe(false);
}

test('save with a 2 MiB body is answered 413 with a structured body, not 500', async () => {
  const body = saveBody(2 * MiB);
  expectRefused(await post({ head: body, contentLength: body.length, end: true }));
});

test('a 2 MiB Content-Length is refused from the header, before any of the body is read', async () => {
  // Only 1 KiB of the promised 2 MiB is ever sent: an answer proves the server did not wait for it.
  expectRefused(await post({ head: saveBody(2 * MiB).subarray(0, 1024), contentLength: 2 * MiB, end: false }));
});

test('a chunked body of unknown length is refused as soon as it crosses the limit', async () => {
  // 1 MiB + 64 KiB sent, then the request stays open: the server must stop at the limit and answer.
  expectRefused(await post({ head: saveBody(2 * MiB).subarray(0, MiB + 64 * 1024), end: false }));
});

test('a body under the limit still saves', async () => {
  const small = Buffer.from(JSON.stringify({ format: 'spec', path: 'specs/saved.spec.ts' }));
  const answer = await post({ head: small, contentLength: small.length, end: true });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(await readFile(path.join(root, 'specs/saved.spec.ts'), 'utf8')).toContain(
    "import { test, expect } from 'nestwright'",
  );
});

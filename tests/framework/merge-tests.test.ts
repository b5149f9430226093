import { test, expect } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { plain, runInline } from './inline.js';

/**
 * nestwright's `test` carries no browser fixtures; a test that needs `request` (or `page`) next
 * to the app merges Playwright's in with `mergeTests`, and keeps the options of both: a
 * browser-side one (`extraHTTPHeaders`) reaches `request`, a shared one (`actionTimeout`) the app.
 * The API is a real HTTP server on loopback; the app runs on the embedded simulated device.
 */
let server: Server;
let api: string;
const received: Array<{ url: string; suite: string | undefined; body: string }> = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ url: req.url ?? '', suite: req.headers['x-suite'] as string | undefined, body });
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('mergeTests(test, browserTest): request and app in one test, the options of both kept', async () => {
  test.setTimeout(120_000);
  const run = await runInline(
    {
      'merged.spec.ts': `import { mergeTests, test as browserTest } from '@playwright/test';
import { test as appTest, expect } from 'nestwright';

const test = mergeTests(appTest, browserTest);
test.use({ apk: 'fixtures/apks/notes.apk', actionTimeout: 1_234, extraHTTPHeaders: { 'x-suite': 'merged' } });

test('a note made over the API and one in the app', async ({ request, app }) => {
  const res = await request.post(process.env.API_URL + '/notes', { data: { title: 'Buy milk' } });
  expect(res.status()).toBe(201);
  await app.getByText('New note').tap();
  await app.getById('title').fill('Call Ana');
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Call Ana')).toBeVisible();
});

test('the shared actionTimeout reaches the app', async ({ app }) => {
  await app.getByText('Nowhere to be found').tap();
});
`,
    },
    { env: { API_URL: api } },
  );
  const made = run.result('a note made over the API and one in the app');
  expect(made.status, made.error).toBe('passed');
  expect(received).toEqual([{ url: '/notes', suite: 'merged', body: '{"title":"Buy milk"}' }]);
  const timed = run.result('the shared actionTimeout reaches the app');
  expect(timed.status).toBe('failed');
  expect(plain(timed.error)).toContain('timeout 1234ms exceeded');
});

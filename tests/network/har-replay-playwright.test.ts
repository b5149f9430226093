import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { NestwrightError } from '../../framework/core/errors.js';
import { HOST } from './engine-helpers.js';
import { harBackend, network, ORIGIN, type Backend, type Client } from './har-helpers.js';

/**
 * `app.routeFromHAR()` replaying, by the cases of Playwright's own tests
 * (tests/library/browsercontext-har.spec.ts of microsoft/playwright, each named in its title):
 * the real proxy in-process, a real HTTPS backend on 127.0.0.1 to record from, and replays made
 * where that backend is gone (its address refuses connections), so only the HAR can answer.
 */
test.describe.configure({ mode: 'default' });

let backend: Backend;
let dir: string;
test.beforeAll(async () => {
  backend = await harBackend();
  dir = await mkdtemp(path.join(tmpdir(), 'nw-har-replay-'));
});
test.afterAll(async () => {
  await backend.server.stop();
  await rm(dir, { recursive: true, force: true });
});

type H = Array<{ name: string; value: string }>;
/** A HAR entry as DevTools and Playwright write one (only what a replay reads, plus headers). */
function entry(method: string, url: string, status: number, headers: H, content: object, request: object = {}) {
  return {
    request: { method, url, headers: [], ...request },
    response: { status, statusText: '', headers, content },
  };
}
const har = (entries: object[]) => JSON.stringify({ log: { version: '1.2', entries } });
const ct = (v: string): H => [{ name: 'Content-Type', value: v }];

/** Playwright's har-fulfill.har, on this backend's origin: a page, a stylesheet also POSTed, a script moved once. */
const FULFILL = har([
  entry('GET', `${ORIGIN}/`, 200, ct('text/html'), {
    text: "<title>Hey</title><link rel='stylesheet' href='./style.css'>",
  }),
  entry('POST', `${ORIGIN}/style.css`, 200, ct('text/css'), { text: 'body { background:cyan }' }),
  entry('GET', `${ORIGIN}/style.css`, 200, ct('text/css'), { text: 'body { background: red }' }),
  entry('GET', `${ORIGIN}/script.js`, 301, [{ name: 'location', value: `${ORIGIN}/script2.js` }], { text: '' }),
  entry('GET', `${ORIGIN}/script2.js`, 200, ct('text/javascript'), { text: "window.value='foo'" }),
  // A form POSTed to /login is sent on to the page as a GET (301/302 of a POST, and 303).
  entry('POST', `${ORIGIN}/login`, 302, [{ name: 'Location', value: '/home' }], { text: '' }),
  entry('GET', `${ORIGIN}/home`, 200, ct('text/plain'), { text: 'welcome' }),
  entry('GET', `${ORIGIN}/loop-a`, 302, [{ name: 'location', value: '/loop-b' }], { text: '' }),
  entry('GET', `${ORIGIN}/loop-b`, 302, [{ name: 'location', value: '/loop-a' }], { text: '' }),
]);

async function write(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

test('an entry that redirects is followed to the entry it points to; the method decides which (browsercontext-har.spec.ts: should context.routeFromHAR, matching the method and following redirects)', async () => {
  const file = await write('fulfill.har', FULFILL);
  const n = await network('gone');
  await n.net.routeFromHAR(file);
  const script = await n.client.get(`${ORIGIN}/script.js`);
  expect(script.status).toBe(200);
  expect(script.text).toBe("window.value='foo'");
  expect(script.headers['content-type']).toBe('text/javascript');
  // The POST of the stylesheet is not the GET's answer.
  expect((await n.client.get(`${ORIGIN}/style.css`)).text).toBe('body { background: red }');
  const login = await n.client.send('POST', `${ORIGIN}/login`, 'user=ann', {
    'content-type': 'application/x-www-form-urlencoded',
  });
  expect([login.status, login.text]).toEqual([200, 'welcome']);
  // A chain that comes back on itself has no answer: notFound's (abort).
  await expect(n.client.get(`${ORIGIN}/loop-a`)).rejects.toThrow();
  await n.close();
});

/** Record POST /echo of each body with routeFromHAR's update, then replay where the backend is gone. */
async function recordEchoes(file: string, bodies: string[]): Promise<void> {
  const rec = await network(backend);
  await rec.net.routeFromHAR(file, { update: true });
  for (const b of bodies) expect((await rec.client.send('POST', `${ORIGIN}/echo`, b)).text).toBe(b);
  await rec.close();
}
const echo = async (c: Client, body: string) => (await c.send('POST', `${ORIGIN}/echo`, body)).text;

test('each POST gets the entry of its own body; a body no entry has is aborted, not given the first entry for the URL (browsercontext-har.spec.ts: should round-trip har with postData)', async () => {
  const file = path.join(dir, 'echo.har');
  await recordEchoes(file, ['1', '2', '3']);
  const n = await network('gone');
  await n.net.routeFromHAR(file);
  expect(await echo(n.client, '1')).toBe('1');
  expect(await echo(n.client, '2')).toBe('2');
  expect(await echo(n.client, '3')).toBe('3');
  await expect(echo(n.client, '4')).rejects.toThrow();
  expect(n.trajectory.network.at(-1)).toMatchObject({ answeredBy: `har ${file} (abort)`, error: 'failed' });
  await n.close();
});

test("with notFound: 'fallback' a body no entry has goes to the network (browsercontext-har.spec.ts: fallback:continue should continue when not found in har)", async () => {
  const file = path.join(dir, 'echo-fallback.har');
  await recordEchoes(file, ['1']);
  const n = await network(backend);
  await n.net.routeFromHAR(file, { notFound: 'fallback' });
  expect(await echo(n.client, '1')).toBe('1');
  expect(await echo(n.client, '4')).toBe('4');
  expect(n.trajectory.network.map((r) => r.answeredBy)).toEqual([`har ${file} (fulfill)`, 'network']);
  await n.close();
});

test('of entries that differ only in headers, the one with most headers in common answers; a tie goes to the first (browsercontext-har.spec.ts: should disambiguate by header)', async () => {
  const file = path.join(dir, 'headers.har');
  const send = (c: Client, baz: string) =>
    c.send('POST', `${ORIGIN}/echo-header`, '', { foo: 'foo-value', bar: 'bar-value', baz });
  const rec = await network(backend);
  await rec.net.routeFromHAR(file, { update: true });
  for (const baz of ['baz1', 'baz2', 'baz3']) expect((await send(rec.client, baz)).text).toBe(baz);
  await rec.close();

  const n = await network('gone');
  await n.net.routeFromHAR(file);
  for (const baz of ['baz1', 'baz2', 'baz3']) expect((await send(n.client, baz)).text).toBe(baz);
  expect((await send(n.client, 'baz4')).text).toBe('baz1');
  await n.close();
});

test('a multipart body matches whatever boundary its client drew; other content does not (browsercontext-har.spec.ts: should ignore boundary when matching multipart/form-data body)', async () => {
  const file = path.join(dir, 'multipart.har');
  const form = (boundary: string, value: string) =>
    [`--${boundary}`, 'Content-Disposition: form-data; name="note"', '', value, `--${boundary}--`, ''].join('\r\n');
  const post = (c: Client, boundary: string, value: string) =>
    c.send('POST', `${ORIGIN}/form.html`, form(boundary, value), {
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
  const rec = await network(backend);
  await rec.net.routeFromHAR(file, { update: true });
  expect((await post(rec.client, '----recorded1', 'hello')).text).toBe('<div>done</div>');
  await rec.close();

  const n = await network('gone');
  await n.net.routeFromHAR(file, { notFound: 'abort' });
  expect((await post(n.client, '----replayed22', 'hello')).text).toBe('<div>done</div>');
  await expect(post(n.client, '----replayed22', 'goodbye')).rejects.toThrow();
  await n.close();
});

test("a file that is JSON but not a HAR: with notFound: 'fallback' every request falls through; with 'abort' it is refused up front, on purpose (browsercontext-har.spec.ts: fallback:continue should continue requests on bad har)", async () => {
  const file = await write('bad.har', JSON.stringify({ log: {} }));
  const n = await network(backend);
  await n.net.routeFromHAR(file, { notFound: 'fallback' });
  const res = await n.client.get(`${ORIGIN}/one-style.html`);
  expect(res.status).toBe(200);
  expect(res.text).toContain('hello, world!');
  // Playwright would abort every request; a HAR that answers nothing is refused instead, naming the field.
  const e = await n.net.routeFromHAR(file).catch((x: unknown) => x);
  expect((e as NestwrightError).code).toBe('HAR_INVALID');
  expect((e as Error).message).toMatch(/^app\.routeFromHAR: .*bad\.har is not a HAR file: har\.log\.entries: /);
  await n.close();
});

const sha1 = (b: string | Buffer) => createHash('sha1').update(b).digest('hex');

test("bodies stored beside the HAR (content._file, Playwright's content: 'attach') are served and matched (browsercontext-har.spec.ts: should fulfill from har with content in a file)", async () => {
  const sub = await mkdtemp(path.join(dir, 'beside-'));
  const page = '<html><head></head><body>Hello, world</body></html>';
  await writeFile(path.join(sub, `${sha1(page)}.html`), page);
  await writeFile(path.join(sub, `${sha1('q=lamp')}.dat`), 'q=lamp');
  const file = path.join(sub, 'sha1.har');
  await writeFile(
    file,
    har([
      entry('GET', `${ORIGIN}/`, 200, ct('text/html'), { size: page.length, _file: `${sha1(page)}.html` }),
      entry(
        'POST',
        `${ORIGIN}/search`,
        200,
        ct('text/plain'),
        { text: 'found a lamp' },
        { postData: { mimeType: 'text/plain', text: '', _file: `${sha1('q=lamp')}.dat` } },
      ),
    ]),
  );
  const n = await network('gone');
  await n.net.routeFromHAR(file);
  expect((await n.client.get(`${ORIGIN}/`)).text).toBe(page);
  expect((await n.client.send('POST', `${ORIGIN}/search`, 'q=lamp')).text).toBe('found a lamp');
  await expect(n.client.send('POST', `${ORIGIN}/search`, 'q=sofa')).rejects.toThrow();
  await n.close();
});

test("a _file outside the HAR's folder is refused, naming the entry (harBackend.ts: HAR entry _file escapes base directory)", async () => {
  const secret = await write('secret.txt', 's3cret');
  const sub = await mkdtemp(path.join(dir, 'escape-'));
  const file = path.join(sub, 'escape.har');
  await writeFile(
    file,
    har([entry('GET', `${ORIGIN}/`, 200, ct('text/plain'), { _file: path.relative(sub, secret) })]),
  );
  const n = await network('gone');
  const e = await n.net.routeFromHAR(file).catch((x: unknown) => x);
  expect((e as NestwrightError).code).toBe('HAR_INVALID');
  expect((e as Error).message).toMatch(/har\.log\.entries\[0\]: _file "\.\.\/secret\.txt" is outside the HAR's folder/);
  await n.close();
});

test('a request that failed when recorded fails when replayed, at once and without a handler error: on purpose, where Playwright leaves it unanswered (browsercontext-har.spec.ts: should ignore aborted requests)', async () => {
  const file = path.join(dir, 'aborted.har');
  const rec = await network(backend);
  await rec.net.routeFromHAR(file, { update: true });
  await expect(rec.client.get(`${ORIGIN}/x`)).rejects.toThrow();
  await rec.close();
  const recorded = JSON.parse(await readFile(file, 'utf8')) as { log: { entries: Array<{ response: object }> } };
  expect(recorded.log.entries[0]!.response).toMatchObject({ status: -1 });

  const n = await network('gone');
  await n.net.routeFromHAR(file);
  await expect(n.client.get(`${ORIGIN}/x`)).rejects.toThrow();
  expect(n.net.failure).toBeNull();
  expect(n.trajectory.network[0]).toMatchObject({ url: `https://${HOST}/x`, status: null, error: 'failed' });
  await n.close();
});

test('each Set-Cookie of a response reaches the app, is recorded as a header of its own and served again (browsercontext-har.spec.ts: should record multiple set-cookie headers)', async () => {
  const cookies = ['first=foo', 'second=bar'];
  const file = path.join(dir, 'cookies.har');
  const url = `${ORIGIN}/cookies?${cookies.map((c) => `c=${encodeURIComponent(c)}`).join('&')}`;
  const rec = await network(backend);
  await rec.net.routeFromHAR(file, { update: true });
  expect((await rec.client.get(url)).headers['set-cookie']).toEqual(cookies);
  await rec.close();
  const recorded = JSON.parse(await readFile(file, 'utf8')) as {
    log: { entries: Array<{ response: { headers: H } }> };
  };
  expect(recorded.log.entries[0]!.response.headers.filter((h) => h.name === 'set-cookie')).toEqual(
    cookies.map((value) => ({ name: 'set-cookie', value })),
  );

  const n = await network('gone');
  await n.net.routeFromHAR(file, { notFound: 'abort' });
  expect((await n.client.get(url)).headers['set-cookie']).toEqual(cookies);
  await n.close();
});

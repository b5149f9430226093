import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { NestwrightError } from '../../framework/core/errors.js';
import { TestNetwork, type RecordHarOptions } from '../../framework/network/test-network.js';
import {
  BIG_JSON,
  harBackend,
  ORIGIN,
  PAGE,
  PNG,
  recordWith,
  STYLE,
  unzipped,
  type Backend,
  type Client,
  type HarLog,
} from './har-helpers.js';

/**
 * HAR recording (`use.recordHar`) by the cases of Playwright's own tests
 * (tests/library/har.spec.ts of microsoft/playwright, each named in its title): what the entries
 * hold, and the `content`, `mode` and `.zip` options. The requests are real, through the
 * instance's proxy to a real HTTPS backend on 127.0.0.1; archives are read with Info-ZIP's
 * `unzip`, not with nestwright's own reader.
 */
test.describe.configure({ mode: 'default' });

let backend: Backend;
let dir: string;
test.beforeAll(async () => {
  backend = await harBackend();
  dir = await mkdtemp(path.join(tmpdir(), 'nw-har-record-'));
});
test.afterAll(async () => {
  await backend.server.stop();
  await rm(dir, { recursive: true, force: true });
});

const sha1 = (b: string | Buffer) => createHash('sha1').update(b).digest('hex');
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

/** Playwright's har.html: the page, its stylesheet, then an image fetched. */
async function harPage(c: Client) {
  expect((await c.get(`${ORIGIN}/one-style.html`)).text).toBe(PAGE);
  expect((await c.get(`${ORIGIN}/one-style.css`)).text).toBe(STYLE);
  expect((await c.get(`${ORIGIN}/pptr.png`)).body.equals(PNG)).toBe(true);
}

/** The pages recorded with `options` to a new file `name`; its log (read from the archive for `.zip`). */
async function recorded(
  name: string,
  options: Omit<RecordHarOptions, 'path'>,
  body: (c: Client) => Promise<void> = harPage,
): Promise<{ file: string; log: HarLog; zip: Map<string, Buffer> | null }> {
  const file = path.join(await mkdtemp(path.join(dir, 'rec-')), name);
  await recordWith(test.info(), backend, { path: file, ...options }, body);
  const zip = file.endsWith('.zip') ? unzipped(file) : null;
  const text = zip ? zip.get('har.har')!.toString('utf8') : await readFile(file, 'utf8');
  return { file, log: (JSON.parse(text) as { log: HarLog }).log, zip };
}

test('embedded content: text as text, binary in base64, each with its size and compression 0 (har.spec.ts: should include content @smoke)', async () => {
  const { log } = await recorded('test.har', {});
  const [html, css, png] = log.entries.map((e) => e.response.content);
  expect(html).toMatchObject({ mimeType: 'text/html; charset=utf-8', text: PAGE, size: PAGE.length, compression: 0 });
  expect(html!.encoding).toBeUndefined();
  expect(css).toMatchObject({ mimeType: 'text/css; charset=utf-8', text: STYLE, size: STYLE.length, compression: 0 });
  expect(png).toMatchObject({ mimeType: 'image/png', encoding: 'base64', size: PNG.length, compression: 0 });
  expect(Buffer.from(png!.text!, 'base64').equals(PNG)).toBe(true);
});

test('a .zip path is an archive: har.har and each body as a file named by its SHA-1 (har.spec.ts: should use attach mode for zip extension)', async () => {
  const { file, log, zip } = await recorded('test.har.zip', {});
  expect((await readFile(file)).subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
  expect(log.entries[0]!.response.content.text).toBeUndefined();
  expect(zip!.get(`${sha1(PAGE)}.html`)!.toString()).toBe(PAGE);
  expect(await modeOf(file)).toBe(0o600);
});

test("content: 'omit' keeps no body, neither in the HAR nor beside it (har.spec.ts: should omit content)", async () => {
  const { file, log } = await recorded('test.har', { content: 'omit' });
  for (const e of log.entries) {
    expect(e.response.content.text).toBeUndefined();
    expect(e.response.content._file).toBeUndefined();
  }
  expect(await readdir(path.dirname(file))).toEqual(['test.har']);
});

test("content: 'attach' to a .zip: each body in the archive, named by its SHA-1 and type, with its size (har.spec.ts: should attach content)", async () => {
  const { log, zip } = await recorded('test.har.zip', { content: 'attach' });
  const [html, css, png] = log.entries.map((e) => e.response.content);
  expect(html).toMatchObject({ mimeType: 'text/html; charset=utf-8', _file: `${sha1(PAGE)}.html`, compression: 0 });
  expect(css).toMatchObject({ _file: `${sha1(STYLE)}.css`, size: STYLE.length });
  expect(png).toMatchObject({ _file: `${sha1(PNG)}.png`, size: PNG.length });
  for (const c of [html, css, png]) expect(c!.text).toBeUndefined();
  expect(zip!.get(`${sha1(PAGE)}.html`)!.toString()).toContain('hello, world!');
  expect(zip!.get(`${sha1(STYLE)}.css`)!.toString()).toContain('pink');
  expect(zip!.get(`${sha1(PNG)}.png`)!.byteLength).toBe(png!.size);
});

test("content: 'attach' to a .har: the bodies are files beside it, the user's alone like the HAR (har.spec.ts: should produce extracted zip)", async () => {
  const { file, log } = await recorded('har.har', { mode: 'minimal', content: 'attach' });
  expect(await readFile(file, 'utf8')).not.toContain('background-color');
  const css = log.entries[1]!.response.content;
  const beside = path.join(path.dirname(file), css._file!);
  expect(await readFile(beside, 'utf8')).toBe(STYLE);
  expect(await modeOf(beside)).toBe(0o600);
  expect(await modeOf(file)).toBe(0o600);
});

test('a redirect is recorded with its target as an absolute URL (har.spec.ts: should include redirectURL)', async () => {
  const { log } = await recorded('test.har', {}, async (c) => {
    expect((await c.get(`${ORIGIN}/foo.html`)).status).toBe(302);
    expect((await c.get(`${ORIGIN}/empty.html`)).status).toBe(200);
  });
  expect(log.entries).toHaveLength(2);
  expect(log.entries[0]!.response).toMatchObject({ status: 302, redirectURL: `${ORIGIN}/empty.html` });
  expect(log.entries[1]!.response.redirectURL).toBe('');
});

test('a POST body is recorded with its type and no params (har.spec.ts: should include postData)', async () => {
  const { log } = await recorded('test.har', {}, async (c) => {
    await c.send('POST', `${ORIGIN}/post`, 'Hello', { 'content-type': 'text/plain;charset=UTF-8' });
  });
  expect(log.entries[0]!.request.postData).toEqual({ mimeType: 'text/plain;charset=UTF-8', params: [], text: 'Hello' });
});

test("a form's fields are recorded as params (har.spec.ts: should include form params)", async () => {
  const { log } = await recorded('test.har', {}, async (c) => {
    await c.send('POST', `${ORIGIN}/post`, 'foo=bar&baz=123', { 'content-type': 'application/x-www-form-urlencoded' });
  });
  expect(log.entries[0]!.request.postData).toEqual({
    mimeType: 'application/x-www-form-urlencoded',
    params: [
      { name: 'foo', value: 'bar' },
      { name: 'baz', value: '123' },
    ],
    text: 'foo=bar&baz=123',
  });
});

test('content.compression is what gzip saved (har.spec.ts: should work with gzip compression)', async () => {
  const { log } = await recorded('test.har', {}, async (c) => {
    // The app gets the bytes as sent, and inflates them itself.
    expect(gunzipSync((await c.get(`${ORIGIN}/simplezip.json`)).body).toString()).toBe(BIG_JSON);
  });
  const { response } = log.entries[0]!;
  expect(response.headers).toContainEqual({ name: 'content-encoding', value: 'gzip' });
  expect(response.content.size).toBe(BIG_JSON.length);
  expect(response.content.compression).toBeGreaterThan(4000);
  expect(response.content.compression! + response.bodySize).toBe(BIG_JSON.length);
});

test("mode: 'minimal' leaves out sizes, timings and pages (har.spec.ts: tracing.startHar should record a HAR with options)", async () => {
  const { log } = await recorded('test.har', { mode: 'minimal', urlFilter: '**/one-style.css' });
  expect(log.entries.map((e) => e.request.url)).toEqual([`${ORIGIN}/one-style.css`]);
  const [e] = log.entries;
  expect(e!.request.bodySize).toBe(-1);
  expect(e!.response.bodySize).toBe(-1);
  expect(e!.response.content.size).toBe(-1);
  expect(e!.response.content.compression).toBeUndefined();
  expect(e!.time).toBe(-1);
  expect(log.pages).toBeUndefined();
  // What a replay needs stays.
  expect(e!.response.content.text).toBe(STYLE);
});

test('content and mode take only their words, naming the option', () => {
  const refused = (o: object) => {
    try {
      new TestNetwork({ path: path.join(dir, 'never.har'), ...o } as RecordHarOptions);
    } catch (e) {
      expect(e).toBeInstanceOf(NestwrightError);
      return (e as Error).message;
    }
    throw new Error('accepted');
  };
  expect(refused({ content: 'inline' })).toBe(
    `use.recordHar: content is 'omit', 'embed', 'attach' or left out, got "inline"`,
  );
  expect(refused({ mode: 'small' })).toBe(`use.recordHar: mode is 'minimal', 'full' or left out, got "small"`);
});

test('cookies are read from the Cookie and Set-Cookie headers, attributes and all (har.spec.ts: should include cookies, should include set-cookies, should include set-cookies with lowercase attributes, should skip invalid Expires, should include secure set-cookies)', async () => {
  const set = [
    'name1=value1; HttpOnly',
    'name2="value2"',
    'name3=value4; Path=/; Domain=example.com; Max-Age=1500',
    'name=value; path=/; httponly; secure; samesite=Lax',
    'name=value;Expires=Sat Sep 14 01:02:27 CET 2024',
    'name1=value1; Secure',
  ];
  const url = `${ORIGIN}/cookies?${set.map((c) => `c=${encodeURIComponent(c)}`).join('&')}`;
  const { log } = await recorded('test.har', {}, async (c) => {
    await c.get(url, { cookie: 'name1="value1"; name2=val"ue2; name3=val=ue3; name4=val,ue4' });
  });
  const [e] = log.entries as Array<HarLog['entries'][number] & CookieParts>;
  expect(e!.request.cookies).toEqual([
    { name: 'name1', value: '"value1"' },
    { name: 'name2', value: 'val"ue2' },
    { name: 'name3', value: 'val=ue3' },
    { name: 'name4', value: 'val,ue4' },
  ]);
  const cookies = e!.response.cookies;
  expect(cookies[0]).toEqual({ name: 'name1', value: 'value1', httpOnly: true });
  expect(cookies[1]).toEqual({ name: 'name2', value: '"value2"' });
  expect(new Date(cookies[2]!.expires!).valueOf()).toBeGreaterThan(Date.now());
  expect(cookies[2]).toMatchObject({ path: '/', domain: 'example.com' });
  expect(cookies[3]).toEqual({
    name: 'name',
    value: 'value',
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
  });
  expect(cookies[4]).toEqual({ name: 'name', value: 'value' });
  expect(cookies[5]).toEqual({ name: 'name1', value: 'value1', secure: true });
});

test("a redacted Cookie or Set-Cookie header gives no cookies, and mode: 'minimal' records none", async () => {
  const url = `${ORIGIN}/cookies?c=${encodeURIComponent('sid=s3cret-set')}`;
  const visit = async (c: Client) => void (await c.get(url, { cookie: 'sid=req-s3cret' }));
  for (const options of [{ redact: ['Cookie', 'set-cookie'] }, { mode: 'minimal' as const }]) {
    const { file, log } = await recorded('test.har', options, visit);
    const [e] = log.entries as Array<HarLog['entries'][number] & CookieParts>;
    expect([e!.request.cookies, e!.response.cookies]).toEqual([[], []]);
    // (The Set-Cookie's value is in the URL this backend takes it from; the request's cookie is nowhere.)
    if (options.redact) expect(await readFile(file, 'utf8')).not.toContain('req-s3cret');
  }
});

type CookieParts = {
  request: { cookies: Array<Record<string, unknown>> };
  response: { cookies: Array<{ expires?: string } & Record<string, unknown>> };
};

import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { REDACTED } from './har.js';
import { requestCookies, responseCookies, type HarCookie } from './har-cookies.js';
import { writeZip } from './har-zip.js';
import type { Request, Response } from './messages.js';
import type { Exchange } from './proxy.js';
import { MIME_TYPES } from './route.js';

/**
 * HAR recording (`use.recordHar`, `app.routeFromHAR(path, { update: true })`), with Playwright's
 * options:
 *
 * - `content`: `'embed'` keeps each body in the HAR (text when it is UTF-8, base64 otherwise);
 *   `'attach'` stores it beside the HAR as a file named by its SHA-1 (`content._file`), or in the
 *   archive; `'omit'` keeps none.
 * - `mode`: `'full'` keeps sizes, timings and pages; `'minimal'` only what a replay needs.
 * - A path ending in `.zip` is an archive: the HAR as `har.har`, the attached bodies beside it.
 *
 * Entries are Playwright's: `postData.params` for a form, `content.compression` (the bytes the
 * content encoding saved), `redirectURL` absolute. Kept apart on purpose: a request body that is
 * not UTF-8 is embedded in base64 with `encoding` (Playwright leaves it out, text `''`), so that
 * a binary POST recorded here replays; Playwright's reader takes `encoding` too.
 */

export type HarContent = 'omit' | 'embed' | 'attach';
export type HarMode = 'minimal' | 'full';

/** How a recording is written; `content` and `mode` default as Playwright's recordHar does. */
export interface HarWriteOptions {
  redact?: readonly string[];
  content?: HarContent;
  mode?: HarMode;
}

type NameValue = { name: string; value: string };
type Attach = (body: Buffer, mimeType: string) => string;

/** The HAR of these exchanges, as a document; attached bodies go through `attach`, which returns the `_file` name. */
export function harDocument(exchanges: readonly Exchange[], opts: HarWriteOptions & { attach?: Attach } = {}): object {
  const hidden = new Set((opts.redact ?? []).map((h) => h.toLowerCase()));
  const pairs = (h: Record<string, string>): NameValue[] =>
    Object.entries(h).flatMap(([name, value]) =>
      // One header per value, as they came: a response's cookies are separate lines.
      (name === 'set-cookie' ? value.split('\n') : [value]).map((v) => ({
        name,
        value: hidden.has(name.toLowerCase()) ? REDACTED : v,
      })),
    );
  const full = (opts.mode ?? 'full') === 'full';
  const content = opts.content ?? 'embed';
  const body = (b: Buffer, mimeType: string) => storedBody(b, mimeType, content, opts.attach);
  // Cookies are read from their headers: none from a header whose value is redacted, none in minimal mode.
  const cookies = (header: 'cookie' | 'set-cookie', value: string | null): HarCookie[] =>
    !full || hidden.has(header) ? [] : header === 'cookie' ? requestCookies(value) : responseCookies(value);
  return {
    log: {
      version: '1.2',
      creator: { name: 'nestwright', version: '1' },
      ...(full ? { pages: [] } : {}),
      entries: exchanges.map((x) => harEntry(x, { pairs, full, body, cookies })),
    },
  };
}

interface EntryParts {
  pairs: (h: Record<string, string>) => NameValue[];
  full: boolean;
  body: (b: Buffer, mimeType: string) => { text?: string; encoding?: 'base64'; _file?: string };
  cookies: (header: 'cookie' | 'set-cookie', value: string | null) => HarCookie[];
}

function harEntry(x: Exchange, parts: EntryParts): object {
  const { pairs, full, body, cookies } = parts;
  const req = x.request;
  const res = x.response;
  const size = (n: number) => (full ? n : -1);
  return {
    startedDateTime: new Date(req._startedAt).toISOString(),
    time: full ? x.durationMs : -1,
    request: {
      method: req.method(),
      url: req.url(),
      httpVersion: 'HTTP/1.1',
      cookies: cookies('cookie', req.headerValue('cookie')),
      headers: pairs(req.headers()),
      queryString: [...new URL(req.url()).searchParams].map(([name, value]) => ({ name, value })),
      ...postData(req, body),
      headersSize: -1,
      bodySize: size(req._body.length),
    },
    response: res ? responseOf(x, res, parts) : failedResponse(x, full),
    cache: {},
    timings: full ? { send: 0, wait: x.durationMs, receive: 0 } : { send: -1, wait: -1, receive: -1 },
    _answeredBy: x.answeredBy,
  };
}

function postData(req: Request, body: EntryParts['body']): object {
  const data = req.postDataBuffer();
  if (!data) return {};
  const mimeType = req.headerValue('content-type') ?? 'application/octet-stream';
  const params = /^application\/x-www-form-urlencoded\b/i.test(mimeType)
    ? [...new URLSearchParams(data.toString('utf8'))].map(([name, value]) => ({ name, value }))
    : [];
  return { postData: { mimeType, params, text: '', ...body(data, mimeType) } };
}

function responseOf(x: Exchange, res: Response, { pairs, full, body, cookies }: EntryParts): object {
  const mimeType = res.headerValue('content-type') ?? 'x-unknown';
  const location = res.headerValue('location');
  const decoded = res._body.length;
  return {
    status: res.status(),
    statusText: res.statusText(),
    httpVersion: 'HTTP/1.1',
    cookies: cookies('set-cookie', res.headerValue('set-cookie')),
    headers: pairs(res.headers()),
    content: {
      size: full ? decoded : -1,
      mimeType,
      // What the content encoding saved: the network's bytes are counted as they came.
      ...(full ? { compression: Math.max(0, decoded - (x.encodedBodySize ?? decoded)) } : {}),
      ...body(res._body, mimeType),
    },
    redirectURL: location === null ? '' : absolute(location, x.request.url()),
    headersSize: -1,
    bodySize: full ? (x.encodedBodySize ?? decoded) : -1,
  };
}

function failedResponse(x: Exchange, full: boolean): object {
  return {
    status: -1,
    statusText: '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [],
    content: { size: full ? 0 : -1, mimeType: 'x-unknown' },
    redirectURL: '',
    headersSize: -1,
    bodySize: -1,
    ...(x.error ? { _failureText: x.error } : {}),
  };
}

function absolute(location: string, base: string): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}

function storedBody(
  b: Buffer,
  mimeType: string,
  content: HarContent,
  attach: Attach | undefined,
): { text?: string; encoding?: 'base64'; _file?: string } {
  if (content === 'omit') return {};
  if (content === 'attach' && attach) return { _file: attach(b, mimeType) };
  const text = b.toString('utf8');
  return Buffer.from(text, 'utf8').equals(b) ? { text } : { text: b.toString('base64'), encoding: 'base64' };
}

/** An attached body's file name: its SHA-1 and an extension for its type (Playwright's names). */
function bodyName(b: Buffer, mimeType: string): string {
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  const ext = Object.entries(MIME_TYPES).find(([, t]) => t === type)?.[0] ?? '.dat';
  return createHash('sha1').update(b).digest('hex') + ext;
}

/**
 * Write the HAR of `exchanges` to `path` (its folder made), readable by the user alone: new
 * files of mode 0600 renamed over the old ones, so a file that was readable by others is
 * replaced, not rewritten in place with its old mode. `.zip`: an archive (bodies attached by
 * default); `content: 'attach'` to a `.har`: each body a 0600 file beside it.
 */
export async function writeHar(
  path: string,
  exchanges: readonly Exchange[],
  opts: HarWriteOptions = {},
): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const zipped = path.endsWith('.zip');
  const content = opts.content ?? (zipped ? 'attach' : 'embed');
  const bodies = new Map<string, Buffer>();
  const attach: Attach = (b, mimeType) => {
    const name = bodyName(b, mimeType);
    bodies.set(name, b);
    return name;
  };
  const json = JSON.stringify(harDocument(exchanges, { ...opts, content, attach }), null, 2);
  if (zipped) {
    const entries = new Map([['har.har', Buffer.from(json)], ...bodies]);
    return privately(path, (file) => writeZip(file, entries));
  }
  for (const [name, b] of bodies) await privately(join(dir, name), (file) => file.writeFile(b));
  await privately(path, (file) => file.writeFile(json));
}

/** `path` written by `write` into a new 0600 file, renamed over whatever was there. */
async function privately(path: string, write: (file: FileHandle) => Promise<void>): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const file = await open(temp, 'wx', 0o600);
  try {
    await write(file);
  } catch (e) {
    await file.close();
    await rm(temp, { force: true });
    throw e;
  }
  await file.close();
  await rename(temp, path).catch(async (e: unknown) => {
    await rm(temp, { force: true });
    throw e;
  });
}

import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { describeIssues } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from '../core/api-call.js';
import type { Exchange } from './proxy.js';
import type { Route } from './route.js';
import type { Request } from './messages.js';

/**
 * HAR 1.2 (the W3C draft every browser's DevTools writes): the test's requests recorded, and a
 * recorded file replayed by `app.routeFromHAR()`, with Playwright's rules — an entry answers a
 * request with the same method and URL (and, when both have one, the same body); a request no
 * entry answers is aborted (`notFound: 'abort'`, the default) or handed on (`'fallback'`).
 * Bodies are kept as text when they are UTF-8, base64 otherwise (`content.encoding`).
 *
 * A HAR holds what the app sent and got, its Authorization and Cookie headers included (as
 * Playwright's do), so the files are written for the user alone (0600), and `redact` names headers
 * whose values are left out: such a header stays, by name, with the value {@link REDACTED}, and a
 * replay does not serve it.
 */

/** The value a redacted header has in a HAR. */
export const REDACTED = '[redacted]';

const NameValue = z.object({ name: z.string(), value: z.string() });
const HarEntrySchema = z.object({
  request: z.object({
    method: z.string(),
    url: z.string().url(),
    postData: z.object({ mimeType: z.string().optional(), text: z.string().optional() }).optional(),
  }),
  response: z.object({
    status: z.number().int(),
    statusText: z.string().optional(),
    headers: z.array(NameValue),
    content: z.object({
      mimeType: z.string().optional(),
      text: z.string().optional(),
      encoding: z.string().optional(),
    }),
  }),
});
const HarSchema = z.object({ log: z.object({ entries: z.array(HarEntrySchema) }) });
type HarEntry = z.infer<typeof HarEntrySchema>;

/** The HAR of these exchanges, as a document; the headers named in `redact` (any case) without their values. */
export function harDocument(exchanges: readonly Exchange[], redact: readonly string[] = []): object {
  const hidden = new Set(redact.map((h) => h.toLowerCase()));
  const pairs = (h: Record<string, string>) =>
    Object.entries(h).map(([name, value]) => ({ name, value: hidden.has(name.toLowerCase()) ? REDACTED : value }));
  return {
    log: {
      version: '1.2',
      creator: { name: 'nestwright', version: '1' },
      pages: [],
      entries: exchanges.map((x) => harEntry(x, pairs)),
    },
  };
}

function harEntry(x: Exchange, pairs: (h: Record<string, string>) => Array<{ name: string; value: string }>): object {
  const req = x.request;
  const url = new URL(req.url());
  const res = x.response;
  const content = res ? bodyOf(res._body) : { text: '' };
  const body = req._body;
  return {
    startedDateTime: new Date(req._startedAt).toISOString(),
    time: x.durationMs,
    request: {
      method: req.method(),
      url: req.url(),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(req.headers()),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(body.length ? { postData: { mimeType: req.headerValue('content-type') ?? '', ...bodyOf(body) } } : {}),
      headersSize: -1,
      bodySize: body.length,
    },
    response: {
      status: res?.status() ?? 0,
      statusText: res?.statusText() ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: res ? pairs(res.headers()) : [],
      content: { size: res?._body.length ?? 0, mimeType: res?.headerValue('content-type') ?? '', ...content },
      redirectURL: res?.headerValue('location') ?? '',
      headersSize: -1,
      bodySize: res?._body.length ?? -1,
      ...(x.error ? { _failureText: x.error } : {}),
    },
    cache: {},
    timings: { send: 0, wait: x.durationMs, receive: 0 },
    _answeredBy: x.answeredBy,
  };
}

function bodyOf(b: Buffer): { text: string; encoding?: 'base64' } {
  const text = b.toString('utf8');
  return Buffer.from(text, 'utf8').equals(b) ? { text } : { text: b.toString('base64'), encoding: 'base64' };
}

/**
 * Write the HAR of `exchanges` to `path` (its folder made), readable by the user alone: a new
 * file of mode 0600 renamed over the old one, so a file that was readable by others is replaced,
 * not rewritten in place with its old mode.
 */
export async function writeHar(
  path: string,
  exchanges: readonly Exchange[],
  redact?: readonly string[],
): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const file = await open(temp, 'wx', 0o600);
  try {
    await file.writeFile(JSON.stringify(harDocument(exchanges, redact), null, 2));
  } finally {
    await file.close();
  }
  await rename(temp, path).catch(async (e: unknown) => {
    await rm(temp, { force: true });
    throw e;
  });
}

/** A HAR file read and checked: its entries, or a HAR_INVALID error naming the bad field. */
export async function readHar(call: ApiCall, path: string): Promise<HarEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw call.error(
      `cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): record it first with app.routeFromHAR(path, { update: true }) or use.recordHar`,
      { code: 'HAR_INVALID' },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw call.error(
      `${path} is not JSON (${(e as Error).message}): a HAR file is the JSON DevTools and Playwright write`,
      {
        code: 'HAR_INVALID',
      },
    );
  }
  const parsed = HarSchema.safeParse(json);
  if (!parsed.success)
    throw call.error(`${path} is not a HAR file: ${describeIssues(parsed.error, 'har')}`, { code: 'HAR_INVALID' });
  return parsed.data.log.entries;
}

/** The entry that answers `request`: the same method and URL, and body when both have one. */
export function findEntry(entries: readonly HarEntry[], request: Request): HarEntry | undefined {
  const body = request.postData();
  const same = entries.filter((e) => e.request.method === request.method() && e.request.url === request.url());
  return (
    same.find((e) => body === null || e.request.postData?.text === undefined || e.request.postData.text === body) ??
    same[0]
  );
}

/** Answer `route` from `entry`. */
export function fulfillFromEntry(route: Route, entry: HarEntry): Promise<void> {
  const c = entry.response.content;
  const body =
    c.text === undefined ? Buffer.alloc(0) : Buffer.from(c.text, c.encoding === 'base64' ? 'base64' : 'utf8');
  const headers: Record<string, string> = {};
  for (const h of entry.response.headers) {
    const name = h.name.toLowerCase();
    if (name === 'content-encoding' || name === 'content-length' || name === 'transfer-encoding') continue;
    if (h.value === REDACTED) continue;
    headers[name] = headers[name] ? `${headers[name]}, ${h.value}` : h.value;
  }
  return route.fulfill({ status: entry.response.status, headers, body });
}

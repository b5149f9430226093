import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { ApiCall } from '../core/api-call.js';
import { flatHeaders, type Headers, type Request, Response } from './messages.js';

/** `route.abort()`'s codes, Playwright's (the app sees its connection fail either way). */
export const ABORT_CODES = [
  'aborted',
  'accessdenied',
  'addressunreachable',
  'blockedbyclient',
  'blockedbyresponse',
  'connectionaborted',
  'connectionclosed',
  'connectionfailed',
  'connectionrefused',
  'connectionreset',
  'internetdisconnected',
  'namenotresolved',
  'timedout',
  'failed',
] as const;
/** An error code of `route.abort()`: `'failed'`, `'connectionrefused'`, `'timedout'`, … (Playwright's). */
export type AbortCode = (typeof ABORT_CODES)[number];

/** Playwright's (Chromium's) failure text for an abort code: `connectionrefused` → `net::ERR_CONNECTION_REFUSED`. */
export function abortErrorText(code: AbortCode): string {
  const words: Partial<Record<AbortCode, string>> = {
    accessdenied: 'ACCESS_DENIED',
    addressunreachable: 'ADDRESS_UNREACHABLE',
    blockedbyclient: 'BLOCKED_BY_CLIENT',
    blockedbyresponse: 'BLOCKED_BY_RESPONSE',
    connectionaborted: 'CONNECTION_ABORTED',
    connectionclosed: 'CONNECTION_CLOSED',
    connectionfailed: 'CONNECTION_FAILED',
    connectionrefused: 'CONNECTION_REFUSED',
    connectionreset: 'CONNECTION_RESET',
    internetdisconnected: 'INTERNET_DISCONNECTED',
    namenotresolved: 'NAME_NOT_RESOLVED',
    timedout: 'TIMED_OUT',
  };
  return `net::ERR_${words[code] ?? code.toUpperCase()}`;
}

/** The failure text of a request the network did not answer, from Node's error code. */
export function networkErrorText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const byCode: Record<string, string> = {
    ECONNREFUSED: 'net::ERR_CONNECTION_REFUSED',
    ECONNRESET: 'net::ERR_CONNECTION_RESET',
    ECONNABORTED: 'net::ERR_CONNECTION_ABORTED',
    ENOTFOUND: 'net::ERR_NAME_NOT_RESOLVED',
    EAI_AGAIN: 'net::ERR_NAME_NOT_RESOLVED',
    ETIMEDOUT: 'net::ERR_TIMED_OUT',
    EHOSTUNREACH: 'net::ERR_ADDRESS_UNREACHABLE',
    ENETUNREACH: 'net::ERR_INTERNET_DISCONNECTED',
  };
  if (code && byCode[code]) return byCode[code];
  if (code && /CERT|SSL|TLS|SELF_SIGNED/.test(code)) return 'net::ERR_CERT_INVALID';
  return 'net::ERR_FAILED';
}

/** What a handler decided for its request. */
export type Decision =
  | { kind: 'fulfill'; status: number; headers: Headers; body: Buffer; fetched: boolean }
  | { kind: 'abort'; code: AbortCode }
  | { kind: 'continue' }
  | { kind: 'fallback' };

/** `route.fulfill()`'s options, Playwright's. */
export interface FulfillOptions {
  /** Default 200 (or the `response`'s). */
  status?: number;
  headers?: Record<string, string>;
  /** Sets `content-type`. */
  contentType?: string;
  body?: string | Buffer;
  /** Serialized as the body; `content-type: application/json` unless given. */
  json?: unknown;
  /** A file whose bytes are the body (its content type from the extension). */
  path?: string;
  /** A response from `route.fetch()`: its status, headers and body, each replaced by the fields above that are given. */
  response?: Response;
}

/** `route.continue()`, `route.fallback()` and `route.fetch()` overrides, Playwright's. */
export interface ContinueOptions {
  url?: string;
  method?: string;
  headers?: Record<string, string>;
  postData?: string | Buffer | unknown;
}

/** `route.fetch()`'s options, Playwright's: the overrides, and how many redirects it follows. */
export interface FetchOptions extends ContinueOptions {
  /** Redirects followed before it gives up (default 20); 0: the redirect itself is the response. */
  maxRedirects?: number;
}

/** What a Route reaches of its proxy. */
export interface RouteContext {
  readonly request: Request;
  /** Start the call named `api` (its errors are `api: …`). */
  wrap<T>(api: string, body: (call: ApiCall) => Promise<T>): Promise<T>;
  /** Record the handler's decision; throws when it already made one. */
  decide(call: ApiCall, d: Decision): void;
  /** The request sent to the network now, as it stands, following up to `maxRedirects` redirects. */
  fetch(call: ApiCall, maxRedirects: number): Promise<Response>;
}

/** The content type of a file by its extension (route.fulfill's `path`; a recorded body's file name). */
export const MIME_TYPES: Readonly<Record<string, string>> = {
  '.json': 'application/json',
  '.html': 'text/html',
  '.txt': 'text/plain',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
};

/**
 * One request in one route handler's hands (Playwright's `Route`): answer it (`fulfill`), fail it
 * (`abort`), send it on to the network (`continue`), hand it to the next handler (`fallback`), or
 * fetch the real response to change it (`fetch`, then `fulfill({ response })`). A handler decides
 * once: a second `fulfill`, `abort`, `continue` or `fallback` throws.
 */
export class Route {
  /** @internal Made by the proxy for each handler a request meets. */
  constructor(private readonly ctx: RouteContext) {}

  /** The request being routed. */
  request(): Request {
    return this.ctx.request;
  }

  /** Answer the request with this response; the network is not asked. */
  fulfill(opts: FulfillOptions = {}): Promise<void> {
    return this.ctx.wrap('route.fulfill', async (call) => {
      const base = opts.response;
      const headers: Headers = flatHeaders({ ...(base?.headers() ?? {}), ...(opts.headers ?? {}) });
      let body: Buffer = base ? await base.body() : Buffer.alloc(0);
      if (opts.json !== undefined) {
        body = Buffer.from(JSON.stringify(opts.json));
        if (!opts.contentType && !opts.headers?.['content-type']) headers['content-type'] = 'application/json';
      } else if (opts.body !== undefined) {
        body = typeof opts.body === 'string' ? Buffer.from(opts.body) : Buffer.from(opts.body);
      } else if (opts.path !== undefined) {
        body = await readFile(opts.path).catch((e: NodeJS.ErrnoException) => {
          throw call.error(`cannot read ${opts.path} (${e.code ?? e.message}): give a file that exists`, {
            code: 'USAGE',
          });
        });
        headers['content-type'] ??= MIME_TYPES[extname(opts.path).toLowerCase()] ?? 'application/octet-stream';
      }
      if (opts.contentType) headers['content-type'] = opts.contentType;
      // The body is served decoded: a fetched response's encoding and length no longer describe
      // it. Its length is sent, as Playwright's fulfill does, unless the test gave one: without
      // it the app's connection must close to end the body, and every request pays a handshake.
      delete headers['content-encoding'];
      if (!Object.keys(opts.headers ?? {}).some((k) => k.toLowerCase() === 'content-length')) {
        if (body.length) headers['content-length'] = String(body.length);
        else delete headers['content-length'];
      }
      const status = opts.status ?? base?.status() ?? 200;
      if (!Number.isInteger(status) || status < 100 || status > 999)
        throw call.error(`status must be an HTTP status (100–999), got ${String(status)}`, { code: 'USAGE' });
      this.ctx.decide(call, { kind: 'fulfill', status, headers, body, fetched: !!base });
    });
  }

  /** Fail the request: the app's connection is closed with no answer (`errorCode`, default `failed`, is recorded). */
  abort(errorCode: AbortCode = 'failed'): Promise<void> {
    return this.ctx.wrap('route.abort', async (call) => {
      if (!(ABORT_CODES as readonly string[]).includes(errorCode))
        throw call.error(`unknown error code '${String(errorCode)}': use one of ${ABORT_CODES.join(', ')}`, {
          code: 'USAGE',
        });
      this.ctx.decide(call, { kind: 'abort', code: errorCode });
    });
  }

  /** Send the request to the network (with `opts` changed); no later handler sees it. */
  continue(opts: ContinueOptions = {}): Promise<void> {
    return this.ctx.wrap('route.continue', async (call) => {
      this.override(call, opts);
      this.ctx.decide(call, { kind: 'continue' });
    });
  }

  /** Hand the request (with `opts` changed) to the handler registered before this one, or to the network. */
  fallback(opts: ContinueOptions = {}): Promise<void> {
    return this.ctx.wrap('route.fallback', async (call) => {
      this.override(call, opts);
      this.ctx.decide(call, { kind: 'fallback' });
    });
  }

  /** The real response to this request (with `opts` changed), to read or to change and `fulfill({ response })` with. */
  fetch(opts: FetchOptions = {}): Promise<Response> {
    return this.ctx.wrap('route.fetch', async (call) => {
      const { maxRedirects = 20, ...overrides } = opts;
      if (!Number.isInteger(maxRedirects) || maxRedirects < 0)
        throw call.error(`maxRedirects must be a whole number ≥ 0, got ${String(maxRedirects)}`, { code: 'USAGE' });
      this.override(call, overrides);
      return this.ctx.fetch(call, maxRedirects);
    });
  }

  private override(call: ApiCall, o: ContinueOptions): void {
    if (o.url !== undefined) {
      const from = new URL(this.ctx.request.url()).protocol;
      let to: string;
      try {
        to = new URL(o.url).protocol;
      } catch {
        throw call.error(`url must be an absolute URL, got ${JSON.stringify(o.url)}`, { code: 'USAGE' });
      }
      if (to !== from)
        throw call.error(
          `New URL must have same protocol as overridden URL (${from} → ${to}): change the host or path, not the scheme`,
          { code: 'USAGE' },
        );
    }
    const body =
      o.postData === undefined
        ? undefined
        : Buffer.isBuffer(o.postData)
          ? o.postData
          : Buffer.from(typeof o.postData === 'string' ? o.postData : JSON.stringify(o.postData));
    this.ctx.request._override({
      ...(o.url !== undefined ? { url: o.url } : {}),
      ...(o.method !== undefined ? { method: o.method } : {}),
      ...(o.headers !== undefined ? { headers: o.headers } : {}),
      ...(body !== undefined ? { body } : {}),
    });
  }
}

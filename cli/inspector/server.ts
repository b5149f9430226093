import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { COMPILED, PACKAGE_ROOT } from '../../framework/core/package-root.js';
import {
  authorized,
  badHostOrOrigin,
  allowedHosts,
  digest,
  HttpError,
  readJsonBody,
} from '../../device-runtime/mcp-http/guards.js';
import { InspectorError, type LiveInspector } from './live.js';
import type { Trace } from './trace.js';

/**
 * The page's files: plain HTML, JS and CSS served as they are (no bundler, nothing fetched). Each
 * mode has its own HTML: the trace viewer's is read-only, with none of the live inspector's
 * controls or its picture of the device's screen.
 */
const PAGE_DIR = path.join(COMPILED ? path.join(PACKAGE_ROOT, 'dist') : PACKAGE_ROOT, 'cli', 'inspector', 'page');
const STATIC: Record<string, string> = { '/app.js': 'text/javascript', '/style.css': 'text/css' };
/** The largest API request body: the page sends a selector, a typed value or a path (a few KB at most). */
const MAX_BODY_BYTES = 1024 * 1024;

export interface InspectorServer {
  /** The page's address with its one-time token: print it, open it. */
  url: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  // After a 413 the rest of the body is not wanted: close the connection rather than read it.
  const close = status === 413 ? { connection: 'close' } : {};
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...close });
  res.end(JSON.stringify(body));
}

/** The page's error body for what an API call threw: `{ code, message }` with its status. */
function failure(e: unknown): { status: number; body: { code: string; message: string } } {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof InspectorError) return { status: e.status, body: { code: e.code, message } };
  if (e instanceof HttpError) return { status: e.status, body: { code: e.code, message } };
  return { status: 500, body: { code: 'INTERNAL', message } };
}

/**
 * Serve the inspector on 127.0.0.1: the page, and a JSON API for it. Every API call carries the
 * one-time token (`authorization: Bearer …`), compared in constant time; the page gets it from
 * its URL. Host and Origin are checked as for the MCP servers, so another site cannot drive it.
 */
export async function startInspectorServer(opts: {
  port?: number;
  live?: LiveInspector;
  trace?: Trace;
}): Promise<InspectorServer> {
  const token = randomBytes(18).toString('base64url');
  const expected = digest(token);
  const hosts = allowedHosts(false, []);
  const mode = opts.live ? 'live' : 'trace';

  async function api(route: string, req: IncomingMessage, url: URL): Promise<unknown> {
    const body =
      req.method === 'POST' ? (((await readJsonBody(req, MAX_BODY_BYTES)) as Record<string, any>) ?? {}) : {};
    if (route === 'info') return { mode, app: opts.live?.app ?? null, title: opts.trace?.title ?? null };
    if (route === 'trace') {
      if (!opts.trace) throw new InspectorError('NOT_FOUND', 'no trace in live mode', 404);
      return opts.trace;
    }
    const live = opts.live;
    if (!live) throw new InspectorError('NOT_FOUND', `no ${route} in trace mode`, 404);
    switch (route) {
      case 'screen':
        return live.screen(url.searchParams.get('since') ?? undefined);
      case 'locators':
        return live.locators(String(body.node_id));
      case 'try':
        return live.tryLocator(String(body.selector ?? ''));
      case 'act':
        return live.act(body as never);
      case 'assert':
        return live.assert(body as never);
      case 'undo':
        live.recording.undo();
        return live.code();
      case 'code':
        return live.code();
      case 'save':
        return live.save({ format: body.format === 'skill' ? 'skill' : 'spec', path: String(body.path ?? '') });
      case 'reconnect':
        await live.connect();
        return { connected: true };
      default:
        throw new InspectorError('NOT_FOUND', `no API ${route}`, 404);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bad = badHostOrOrigin(req, hosts);
    if (bad) return send(res, 403, { code: 'FORBIDDEN', message: bad });
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/') {
      // The page itself needs the token too: a wrong or missing one gets nothing but a refusal.
      if (digest(url.searchParams.get('token') ?? '').compare(expected) !== 0) {
        res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('nestwright inspector: wrong or missing token. Open the address the command printed.\n');
        return;
      }
      const page = await readFile(path.join(PAGE_DIR, `${mode}.html`)); // read before the head is sent
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(page);
      return;
    }
    const type = STATIC[url.pathname];
    if (type) {
      const file = await readFile(path.join(PAGE_DIR, url.pathname.slice(1)));
      res.writeHead(200, { 'content-type': type });
      res.end(file);
      return;
    }
    if (!url.pathname.startsWith('/api/'))
      return send(res, 404, { code: 'NOT_FOUND', message: `nothing at ${url.pathname}` });
    if (!authorized(req, expected))
      return send(res, 401, {
        code: 'UNAUTHORIZED',
        message: 'wrong or missing token; reload the address the command printed',
      });
    try {
      send(res, 200, await api(url.pathname.slice(5), req, url));
    } catch (e) {
      const { status, body } = failure(e);
      send(res, status, body);
    }
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((e: Error) =>
      // After the head went out, an answer cannot change: end the connection instead of the process.
      res.headersSent ? res.destroy(e) : send(res, 500, { code: 'INTERNAL', message: e.message }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await opts.live?.close();
    },
  };
}

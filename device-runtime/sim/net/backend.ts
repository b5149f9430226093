import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../faults/clock.js';
import type { FaultProfile } from '../faults/profile.js';
import type { ApiRoute, ApiResponse } from './api.js';
import type { IssuedCert } from './ca.js';
import { chatRoutes } from './chat-api.js';
import { shopRoutes } from './shop-api.js';

/** The app backends' host names, as the apps call them (the simulator's hosts table maps them to loopback). */
export const SHOP_HOST = 'api.shop.nestwright.test';
export const CHAT_HOST = 'api.chat.nestwright.test';
export const BACKEND_HOSTS = [SHOP_HOST, CHAT_HOST] as const;

/**
 * The simulator's app backends: one HTTPS server on loopback per runtime, started when first
 * needed, serving the Shop and Chat APIs (sim/net/shop-api.ts, chat-api.ts) by Host header with a
 * certificate for both names signed by the simulator's CA. Latencies are the server's: each
 * route names its time, which the run's fault profile scales (a `realistic` catalog page takes
 * 800 ms, `hostile` 3×, `instant` none); the payment takes its 5 s whatever the profile.
 */
export class SimBackend {
  private server: Server | null = null;
  private readonly routes: Record<string, ApiRoute>;

  constructor(
    private readonly faults: () => FaultProfile,
    private readonly clock: () => Clock,
    private readonly cert: IssuedCert,
  ) {
    this.routes = { [SHOP_HOST]: shopRoutes(), [CHAT_HOST]: chatRoutes() };
  }

  /** Listen on 127.0.0.1 (a free port); resolves with the port. */
  async start(): Promise<number> {
    const server = createServer({ cert: this.cert.cert, key: this.cert.key }, (req, res) => void this.serve(req, res));
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.unref();
    this.server = server;
    return (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const url = new URL(req.url ?? '/', `https://${host || 'localhost'}`);
    let body: unknown = undefined;
    const raw = await readBody(req);
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        return send(res, { status: 400, json: { error: 'the request body is not JSON' } });
      }
    }
    // A web page's preflight (the help centre's page fetches from another origin): any origin may ask.
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...CORS,
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
        'access-control-allow-headers': String(req.headers['access-control-request-headers'] ?? 'content-type'),
        'access-control-max-age': '600',
      });
      return void res.end();
    }
    const route = this.routes[host] as ApiRoute | undefined;
    const answer = route?.({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body,
      headers: req.headers,
    }) ?? {
      status: 404,
      json: { error: route ? `no ${req.method} ${url.pathname} on ${host}` : `unknown host ${host}` },
    };
    const wait = (answer.delayMs ?? 0) * this.faults().loadScale + (answer.fixedDelayMs ?? 0);
    if (wait > 0) {
      // The server's time is the device's simulated time (a virtual clock in tests moves it).
      const clock = this.clock();
      await (clock.until ? clock.until(clock.now() + wait) : new Promise((r) => setTimeout(r, wait)));
    }
    send(res, answer.later ? { ...answer, json: answer.later() } : answer);
  }
}

/** The APIs answer pages of any origin (a WebView's page at https://appassets.androidplatform.net). */
const CORS = { 'access-control-allow-origin': '*' };

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 1_000_000) req.destroy(new Error('request body over 1 MB'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, answer: ApiResponse): void {
  if (res.destroyed) return;
  const text = answer.json === undefined ? '' : JSON.stringify(answer.json);
  res.writeHead(answer.status, {
    ...CORS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

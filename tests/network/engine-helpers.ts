import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { generateCACertificate, getLocal, type Mockttp } from 'mockttp';
import type { NetInfo, ToolName } from '../../device-runtime/protocol/index.js';
import { ApiCall } from '../../framework/core/api-call.js';
import type { InstancePort } from '../../framework/core/port.js';
import { Trajectory } from '../../framework/core/trajectory.js';

/** The backend's name, as a runtime's hosts file would map it. */
export const HOST = 'api.shop.example.test';

/** 200 products of the catalog, 20 a page, as the simulator's Shop backend serves them. */
export function catalogPage(page: number): {
  items: Array<{ id: number; name: string; price: number }>;
  next: number | null;
} {
  const items = Array.from({ length: 20 }, (_, i) => {
    const id = (page - 1) * 20 + i + 1;
    return { id, name: `Product ${id}`, price: 100 * id };
  });
  return { items, next: page < 10 ? page + 1 : null };
}

/** A real HTTPS backend on loopback (mockttp in server mode, its certificates from a CA of its own). */
export async function startBackend(): Promise<{ server: Mockttp; ca: string; info: NetInfo; hits: () => number }> {
  const ca = await generateCACertificate({ subject: { commonName: 'test backend CA' } });
  const server = getLocal({ https: ca, cors: false });
  await server.start();
  let hits = 0;
  await server.forGet('/products').thenCallback((req) => {
    hits++;
    const page = Number(new URL(req.url).searchParams.get('page') ?? 1);
    // A length, so the connection is kept alive (a close-delimited body ends it).
    const body = Buffer.from(JSON.stringify(catalogPage(page)));
    return {
      statusCode: 200,
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      rawBody: body,
    };
  });
  await server.forPost('/orders').thenCallback(async (req) => {
    hits++;
    const body = (await req.body.getJson()) as { items?: unknown[] } | undefined;
    return body?.items?.length
      ? { statusCode: 201, json: { orderId: 1001 } }
      : { statusCode: 400, json: { error: 'no items' } };
  });
  const info: NetInfo = {
    hosts: [{ host: HOST, port: 443, address: '127.0.0.1', address_port: server.port }],
    system_ca_pem: ca.cert,
  };
  return { server, ca: ca.cert, info, hits: () => hits };
}

/** What the fake runtime saw of the proxy tools. */
export interface FakeRuntime {
  proxy: { host: string; port: number; ca_pem: string; auth?: { username: string; password: string } } | null;
  offline: boolean;
  calls: string[];
}

/**
 * An InstancePort over a fake runtime that offers `net_proxy` (or not): net_info answers the
 * backend's mapping, net_proxy_set remembers the proxy. Everything else of the port is the real
 * call context and trajectory.
 */
export function fakePort(
  info: NetInfo,
  opts: { offers?: boolean; instance?: string } = {},
): {
  port: InstancePort;
  runtime: FakeRuntime;
  trajectory: Trajectory;
} {
  const runtime: FakeRuntime = { proxy: null, offline: false, calls: [] };
  const trajectory = new Trajectory();
  const port = {
    pkg: 'com.nestwright.shop',
    instance: opts.instance ?? '1',
    spaceId: 'space-1',
    offers: async (name: string) => name === 'net_proxy' && (opts.offers ?? true),
    who: () => `com.nestwright.shop@${opts.instance ?? '1'}`,
    wrap: <T>(api: string, o: { timeout?: number }, body: (call: ApiCall) => Promise<T>) =>
      body(new ApiCall(api, o.timeout ?? 5_000, undefined)),
    step: <T>(call: ApiCall, meta: { title: string }, body: (r: unknown) => Promise<T>) => {
      const record = trajectory.begin({
        kind: 'app',
        api: call.api,
        title: meta.title,
        selector: null,
        instance: null,
      });
      return body(record).then(
        (v) => (trajectory.end(record), v),
        (e: unknown) => {
          trajectory.end(record, e);
          throw e;
        },
      );
    },
    call: async (_call: ApiCall, tool: ToolName, input: Record<string, unknown>) => {
      runtime.calls.push(tool);
      if (tool === 'net_info') return info;
      if (tool === 'net_proxy_set') runtime.proxy = input as FakeRuntime['proxy'];
      if (tool === 'net_proxy_clear') runtime.proxy = null;
      if (tool === 'net_offline_set') runtime.offline = input.offline as boolean;
      return { ok: true };
    },
    trajectory,
    hold: () => {},
    describeTimeout: (ms: number) => `${ms}ms`,
    timeout: (given: number | undefined) => given ?? 5_000,
  } as unknown as InstancePort;
  return { port, runtime, trajectory };
}

/**
 * An HTTPS client that goes through an HTTP proxy (CONNECT, with the credentials net_proxy_set
 * gave) and trusts `ca`, as an app behind net_proxy_set does; keep-alive.
 */
export function proxiedClient(proxy: Pick<NonNullable<FakeRuntime['proxy']>, 'port' | 'ca_pem' | 'auth'>) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 8 });
  let tunnels = 0;
  const auth = proxy.auth
    ? {
        'proxy-authorization': `Basic ${Buffer.from(`${proxy.auth.username}:${proxy.auth.password}`).toString('base64')}`,
      }
    : undefined;
  (agent as unknown as { createConnection: unknown }).createConnection = (
    o: { host: string; port: number; servername?: string },
    cb: (err: Error | null, s?: Duplex) => void,
  ) => {
    tunnels++;
    const req = http.request({
      host: '127.0.0.1',
      port: proxy.port,
      method: 'CONNECT',
      path: `${o.host}:${o.port}`,
      ...(auth ? { headers: auth } : {}),
    });
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) return cb(new Error(`CONNECT answered ${res.statusCode}`));
      const t = tls.connect({ socket, servername: o.host, ca: proxy.ca_pem }, () => cb(null, t));
      t.on('error', (e) => cb(e));
    });
    req.on('error', (e) => cb(e));
    req.end();
  };
  const request = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
    send(method, url, body === undefined ? undefined : Buffer.from(JSON.stringify(body)), {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    });
  const send = (method: string, url: string, data: Buffer | undefined, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; body: Buffer }>(
      (resolve, reject) => {
        const u = new URL(url);
        const r = https.request(
          {
            host: u.hostname,
            port: Number(u.port || 443),
            path: u.pathname + u.search,
            method,
            agent,
            headers: { ...headers, ...(data ? { 'content-length': data.length } : {}) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const body = Buffer.concat(chunks);
              resolve({ status: res.statusCode!, headers: res.headers, text: body.toString(), body });
            });
            res.on('error', reject);
          },
        );
        r.on('error', reject);
        r.end(data);
      },
    );
  return {
    get: (url: string, headers?: Record<string, string>) => request('GET', url, undefined, headers),
    post: (url: string, body: unknown, headers?: Record<string, string>) => request('POST', url, body, headers),
    /** Any method with this body as it is (its content-type among `headers`). */
    send: (method: string, url: string, body: string | Buffer | undefined, headers?: Record<string, string>) =>
      send(method, url, typeof body === 'string' ? Buffer.from(body) : body, headers),
    /** How many CONNECT tunnels (so TLS handshakes) the client has opened: keep-alive reuses them. */
    tunnels: () => tunnels,
    close: () => agent.destroy(),
  };
}

import type { buildConnector, Dispatcher } from 'undici';
import type { SimNet } from './net-state.js';
import type { HostEntry, SimNetwork } from './sim-network.js';

/** A request of a simulated app. */
export interface AppRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute URL, e.g. https://api.shop.nestwright.test/products?page=1 */
  url: string;
  /** A JSON body (sent with content-type application/json). */
  json?: unknown;
  headers?: Record<string, string>;
  /** Polling and other work the user does not wait for: does not keep the UI busy. */
  background?: boolean;
}

/** A request with any body and headers, as a WebView's page sends it (sim/web/web-page.ts). */
export interface RawAppRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** A raw request's answer (any status, its headers and bytes), or the failure that kept it from one. */
export type RawAppResponse =
  | { status: number; headers: Record<string, string>; body: Buffer; error: null }
  | { status: null; headers: null; body: null; error: AppFailure };

/** Why a request got no answer: no connectivity, a certificate the instance does not trust, anything else. */
export type NetFailureKind = 'offline' | 'tls' | 'network';

/** What the app gets back: an answer (any status), or the failure that kept it from one. */
export type AppResponse =
  { status: number; json: unknown; error: null } | { status: null; json: null; error: AppFailure };

export interface AppFailure {
  kind: NetFailureKind;
  code: string;
  message: string;
}

const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|HOSTNAME|ALTNAME/;
const HEADERS_TIMEOUT_MS = 60_000;

type Undici = typeof import('undici');
let undiciModule: Promise<Undici> | undefined;
/**
 * undici, imported on an app's first request: loading it costs a simulator's start about 100 ms
 * of CPU (more than the rest of its network code), which a run whose apps make no request
 * (Notes, Settings) never needs.
 */
const undici = (): Promise<Undici> => (undiciModule ??= import('undici'));

/**
 * One instance's HTTP client, as its app's process has it inside a NestSpace container: names
 * resolve through the device's hosts table (`api.shop.nestwright.test:443` → the simulator's
 * backend on loopback), every request goes through the instance's proxy when net_proxy_set gave
 * it one (HTTP CONNECT for https, with the credentials it gave in Proxy-Authorization — undici's
 * ProxyAgent sends them on every CONNECT), TLS is verified against the instance's trust store (the
 * system CA — the simulator's — plus the CA net_proxy_set gave), and when the instance is offline
 * every request fails before a socket opens. Built on undici (Agent with a connector that maps
 * names, ProxyAgent for the proxy), rebuilt whenever the instance's network setting changes.
 */
export class AppHttpClient {
  private dispatcher: Dispatcher | null = null;
  private version = -1;

  constructor(
    private readonly net: SimNet,
    private readonly network: SimNetwork,
  ) {}

  /** A JSON request of the app: the answer's body is parsed (null when it is not JSON). */
  async send(req: AppRequest): Promise<AppResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    let body: Buffer | undefined;
    if (req.json !== undefined) {
      body = Buffer.from(JSON.stringify(req.json));
      headers['content-type'] = 'application/json';
    }
    const res = await this.sendRaw({ method: req.method ?? 'GET', url: req.url, headers, ...(body ? { body } : {}) });
    if (res.error) return { status: null, json: null, error: res.error };
    let json: unknown = null;
    const text = res.body.toString('utf8');
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
    }
    return { status: res.status, json, error: null };
  }

  /** Any request, its body and the answer's as bytes (a WebView's page: documents, scripts, fetches). */
  async sendRaw(req: RawAppRequest): Promise<RawAppResponse> {
    if (this.net.offline) return failure('offline', 'ENETUNREACH', 'no network connection');
    try {
      const dispatcher = await this.current();
      if (this.net.offline) return failure('offline', 'ENETUNREACH', 'no network connection');
      const { request } = await undici();
      const res = await request(req.url, {
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        ...(req.body !== undefined && req.body.length > 0 ? { body: req.body } : {}),
        dispatcher,
        headersTimeout: HEADERS_TIMEOUT_MS,
        bodyTimeout: HEADERS_TIMEOUT_MS,
      });
      const body = Buffer.from(await res.body.arrayBuffer());
      // Offline since the request went out: the answer never arrives.
      if (this.net.offline) return failure('offline', 'ENETUNREACH', 'no network connection');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      return { status: res.statusCode, headers, body, error: null };
    } catch (e) {
      return describe(e);
    }
  }

  /** Close the connections (the instance is gone or its network changed). */
  close(): void {
    const d = this.dispatcher;
    this.dispatcher = null;
    void d?.close().catch(() => undefined);
  }

  private async current(): Promise<Dispatcher> {
    if (this.dispatcher && this.version === this.net.version) return this.dispatcher;
    const hosts = await this.network.hosts();
    const { Agent, ProxyAgent, buildConnector } = await undici();
    if (this.dispatcher && this.version === this.net.version) return this.dispatcher;
    this.close();
    const ca = [this.network.systemCa, ...this.net.extraCa];
    const proxy = this.net.proxy;
    this.version = this.net.version;
    this.dispatcher = proxy
      ? new ProxyAgent({
          uri: `http://${proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host}:${proxy.port}`,
          ...(proxy.auth ? { token: basicAuth(proxy.auth) } : {}),
          requestTls: { ca },
          keepAliveTimeout: 4_000,
        })
      : new Agent({
          connect: mappedConnector(buildConnector({ ca, timeout: 10_000 }), hosts),
          keepAliveTimeout: 4_000,
        });
    return this.dispatcher;
  }
}

/** undici's TLS connector `base`, with the names of the hosts table leading where the table says (SNI and verification keep the name). */
function mappedConnector(base: buildConnector.connector, hosts: HostEntry[]): buildConnector.connector {
  return (opts, callback) => {
    const port = Number(opts.port || (opts.protocol === 'http:' ? 80 : 443));
    const entry = hosts.find((h) => h.host === opts.hostname && h.port === port);
    if (!entry) return base(opts, callback);
    return base(
      { ...opts, hostname: entry.address, port: String(entry.address_port), servername: opts.hostname },
      callback,
    );
  };
}

/** `Proxy-Authorization`'s value for these credentials (RFC 7617, UTF-8). */
function basicAuth(auth: { username: string; password: string }): string {
  return `Basic ${Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64')}`;
}

function failure(kind: NetFailureKind, code: string, message: string): RawAppResponse {
  return { status: null, headers: null, body: null, error: { kind, code, message } };
}

function describe(e: unknown): RawAppResponse {
  let err = e as { code?: string; message?: string; cause?: unknown } | undefined;
  // undici wraps socket errors: the cause says what happened.
  for (let i = 0; i < 3 && err?.cause && typeof err.cause === 'object'; i++) {
    const cause = err.cause as { code?: string };
    if (!cause.code) break;
    err = cause as typeof err;
  }
  const code = String(err?.code ?? 'ERR_NETWORK');
  const message = String(err?.message ?? e);
  return failure(TLS_CODES.test(code) || /certificate/i.test(message) ? 'tls' : 'network', code, message);
}

const clients = new WeakMap<SimNet, AppHttpClient>();

/** The HTTP client of the instance whose network is `net` (a new one when its data is reset). */
export function appHttp(net: SimNet, network: SimNetwork): AppHttpClient {
  let c = clients.get(net);
  if (!c) clients.set(net, (c = new AppHttpClient(net, network)));
  return c;
}

import http from 'node:http';
import https from 'node:https';
import { createSecureContext, rootCertificates } from 'node:tls';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

import type { NetInfo } from '../../device-runtime/protocol/index.js';

/** A request on its way to the network. */
export interface OutgoingRequest {
  url: string;
  method: string;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** What the network answered: the body as sent (`raw`) and decoded (`body`). */
export interface UpstreamResponse {
  status: number;
  statusText: string;
  headers: Record<string, string | string[]>;
  raw: Buffer;
  body: Buffer;
}

/** Headers that belong to one connection, not to the request (RFC 9110 §7.6.1), and the proxy's own. */
const HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The real request behind `route.continue()`, `route.fetch()` and an unrouted request: sent the
 * way the instance's app would send it, with the names its runtime resolves itself (`net_info`'s
 * hosts: the simulator's `api.shop.nestwright.test:443` is a port on its loopback) and the CA its
 * trust store holds beyond the public ones — nothing here knows which runtime it is.
 *
 * Node's own `http`/`https` rather than mockttp's passthrough: the passthrough resolves names
 * through DNS only and cannot be handed a runtime's hosts file, and the route API needs the
 * response in hand anyway (`route.fetch()`), which a callback rule then serves. One keep-alive
 * agent per proxy, so a test's requests reuse their connections as the app's would.
 */
export class Upstream {
  private readonly agents: { http: http.Agent; https: https.Agent };

  constructor(private readonly info: NetInfo) {
    // One secure context for the proxy's life: made from the public roots and the runtime's CA
    // per connection, it would cost tens of milliseconds each time.
    const secureContext = info.system_ca_pem
      ? createSecureContext({ ca: [...rootCertificates, info.system_ca_pem] })
      : undefined;
    this.agents = {
      http: new http.Agent({ keepAlive: true }),
      https: new https.Agent({ keepAlive: true, ...(secureContext ? { secureContext } : {}) }),
    };
  }

  send(req: OutgoingRequest, signal?: AbortSignal): Promise<UpstreamResponse> {
    const url = new URL(req.url);
    const secure = url.protocol === 'https:';
    const port = Number(url.port || (secure ? 443 : 80));
    const host = url.hostname;
    const mapped = this.info.hosts.find((h) => h.host === host && h.port === port);
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k.toLowerCase())) headers[k] = v;
    headers['host'] = url.port ? `${host}:${url.port}` : host;
    if (req.body.length > 0 || !['GET', 'HEAD'].includes(req.method))
      headers['content-length'] = String(req.body.length);
    const options: https.RequestOptions = {
      method: req.method,
      host: mapped?.address ?? host,
      port: mapped?.address_port ?? port,
      path: url.pathname + url.search,
      headers,
      agent: secure ? this.agents.https : this.agents.http,
      ...(secure ? { servername: host } : {}),
      ...(signal ? { signal } : {}),
    };
    return new Promise((resolve, reject) => {
      const r = (secure ? https : http).request(options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const out: Record<string, string | string[]> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
          try {
            resolve({
              status: res.statusCode ?? 502,
              statusText: res.statusMessage ?? '',
              headers: out,
              raw,
              body: decode(raw, String(res.headers['content-encoding'] ?? '')),
            });
          } catch (e) {
            reject(e);
          }
        });
      });
      r.on('error', reject);
      // An empty body is no body: end(Buffer) would make it chunked, a second packet Nagle holds back.
      if (req.body.length) r.end(req.body);
      else r.end();
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

/** A body as its `content-encoding` says (gzip, deflate, br; anything else as is). */
export function decode(raw: Buffer, encoding: string): Buffer {
  const e = encoding.trim().toLowerCase();
  if (raw.length === 0) return raw;
  if (e === 'gzip' || e === 'x-gzip') return gunzipSync(raw);
  if (e === 'deflate') return inflateSync(raw);
  if (e === 'br') return brotliDecompressSync(raw);
  return raw;
}

import type { Dispatcher } from 'undici';

/**
 * Maestro's `http.get/post/put/delete/request` for scripts, as the host makes them: on the
 * caller's own event loop, asynchronously (the script, on its thread, waits for the answer:
 * script-thread.ts). When the app instance's network proxy is running, its owner passes a
 * {@link ScriptRoute} and the request goes through that proxy — its 127.0.0.1 port, its
 * credentials in `Proxy-Authorization`, trusting only its CA for HTTPS — so the test's routes
 * answer it and its events and HAR see it; with none it goes straight from this host, as Maestro's
 * does. The request and the response cross to the script as JSON text. undici (the HTTP client
 * Node's own fetch is built on) makes the request: its ProxyAgent speaks to an authenticated proxy.
 * It is loaded with the first request (a few hundred modules), not with the script engine.
 */

/** The instance's proxy a script's http goes through: its 127.0.0.1 URL, credentials and CA. */
export interface ScriptRoute {
  /** `http://127.0.0.1:<port>`. */
  proxyUrl: string;
  username: string;
  password: string;
  /** The proxy's CA certificate (PEM): the only one trusted for HTTPS through it. */
  caPem: string;
}

/** The largest response body a script gets, bytes (it lands in the isolate's heap, which is 64 MB). */
export const SCRIPT_HTTP_MAX_BODY = 32 * 2 ** 20;

/** What the script's `http` sends: `{ url, method, headers, body }` as JSON. */
interface HttpRequest {
  url: string;
  method: string;
  headers: Record<string, unknown>;
  body: string | null;
}

/** `http.get(https://…)`: how messages name a request. */
export function describeRequest(json: string): string {
  try {
    const r = JSON.parse(json) as HttpRequest;
    return `http.${String(r.method).toLowerCase()}(${String(r.url)})`;
  } catch {
    return 'http';
  }
}

/**
 * One request, answered within `timeoutMs`: `json` is the JSON of an {@link HttpRequest}, the
 * answer the JSON of `{ ok, status, body, headers }`. Rejects with an Error whose message names
 * the call (the script may catch it, as in Maestro).
 */
export async function httpRequest(json: string, timeoutMs: number, route: ScriptRoute | null): Promise<string> {
  const call = describeRequest(json);
  const ms = Math.max(1, Math.floor(timeoutMs));
  const { ProxyAgent, request } = await import('undici');
  const agent = route
    ? new ProxyAgent({
        uri: route.proxyUrl,
        token: `Basic ${Buffer.from(`${route.username}:${route.password}`, 'utf8').toString('base64')}`,
        requestTls: { ca: route.caPem },
      })
    : null;
  try {
    const r = JSON.parse(json) as HttpRequest;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.headers && typeof r.headers === 'object' ? r.headers : {}))
      headers[k] = String(v);
    const res = await request(r.url, {
      method: r.method as Dispatcher.HttpMethod,
      headers,
      body: r.body ?? undefined,
      signal: AbortSignal.timeout(ms),
      ...(agent ? { dispatcher: agent } : {}),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > SCRIPT_HTTP_MAX_BODY) {
        res.body.destroy();
        throw new Error(`the response body is larger than ${SCRIPT_HTTP_MAX_BODY / 2 ** 20} MB`);
      }
      chunks.push(chunk);
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
    const status = res.statusCode;
    return JSON.stringify({
      ok: status >= 200 && status < 300,
      status,
      body: Buffer.concat(chunks).toString('utf8'),
      headers: out,
    });
  } catch (e) {
    const err = e as Error & { cause?: unknown };
    const why =
      err.name === 'TimeoutError' || err.name === 'AbortError'
        ? `no answer within ${ms}ms`
        : String(err.cause instanceof Error ? err.cause.message : err.message);
    throw new Error(`${call}: ${why}${route ? " (through the instance's network proxy)" : ''}`);
  } finally {
    if (agent) void agent.close().catch(() => {});
  }
}

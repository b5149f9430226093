import { STATUS_CODES } from 'node:http';
import type { CompletedRequest, Mockttp } from 'mockttp';
import type { requestSteps } from 'mockttp';

type CallbackResponseResult = requestSteps.CallbackResponseResult;
import type { ApiCall } from '../core/api-call.js';
import { NestwrightError } from '../core/errors.js';
import type { ProxyCa } from './ca.js';
import { conditionsDelay, type NetworkConditions } from './conditions.js';
import { flatHeaders, Request, Response } from './messages.js';
import type { ProxyCredentials } from './proxy-credentials.js';
import { newCredentials, ProxyGate, startOffNetwork } from './proxy-gate.js';
import { abortErrorText, networkErrorText, Route, type Decision } from './route.js';
import type { Upstream } from './upstream.js';
import { urlMatches, type UrlMatcher } from './url-match.js';

/** A route handler: Playwright's `(route, request) => …`. */
export type RouteHandler = (route: Route, request: Request) => unknown;

/** A registered route: what it matches, its handler, how many more times it may run. */
export interface RouteEntry {
  matcher: UrlMatcher;
  handler: RouteHandler;
  /** Left to run; undefined: any number. */
  times: number | undefined;
  /** How records name it: `route **\/products*`, `har catalog.har`. */
  label: string;
  /** Requests it matched so far: a test that timed out names the routes that matched none. */
  matched?: number;
}

/** What happened to one request, for the record, the HAR and the events. */
export interface Exchange {
  request: Request;
  response: Response | null;
  answeredBy: string;
  error?: string;
  durationMs: number;
  /** The response body's size as the network sent it (content-encoded); absent when a route answered. */
  encodedBodySize?: number;
}

/** How the proxy answered one request: `error` for the record, `errorText` (`net::ERR_…`) for `request.failure()`. */
interface Answer {
  response: Response | null;
  raw?: Buffer;
  answeredBy: string;
  error?: string;
  errorText?: string;
}

/** The statuses a fetch follows. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What the proxy reaches of its instance's network controls. */
export interface ProxyHost {
  readonly instance: string | null;
  /** A call context for a Route method (errors named after it). */
  wrap<T>(api: string, body: (call: ApiCall) => Promise<T>): Promise<T>;
  /** The routes, latest last (tried latest first). */
  readonly routes: RouteEntry[];
  readonly conditions: NetworkConditions | null;
  readonly upstream: Upstream;
  seen(request: Request): void;
  done(exchange: Exchange): void;
  /** A handler threw: the request failed, and the test fails with this. */
  handlerFailed(route: RouteEntry, error: unknown): void;
}

/**
 * One instance's intercepting proxy: a mockttp server (HTTP proxy, HTTPS through CONNECT, TLS
 * terminated with certificates of the worker's CA, HTTP/1.1 and HTTP/2), with a single callback
 * rule that hands every request to the instance's routes, latest first, as Playwright's router
 * does; a request no route decides goes to the network ({@link Upstream}). The network
 * conditions are applied to every answer.
 *
 * It is the instance's alone: clients reach it only through its {@link ProxyGate}, on 127.0.0.1,
 * with credentials made for it and given to the runtime with `net_proxy_set` (`auth`); mockttp
 * itself listens on no TCP port (proxy-gate.ts says why and how). A phone reaches it through
 * `adb reverse`, which ends on this loopback too.
 *
 * One proxy per instance, not one per worker: the runtime is told only an address and
 * credentials (`net_proxy_set`), so the port is what says which instance a request came from —
 * two instances on one device routing the same URL differently need two ports. A proxy starts in
 * a few milliseconds (the CA, the costly part, is the worker's: ca.ts); figures in docs/network.md.
 */
export class InstanceProxy {
  private constructor(
    private readonly stopServer: () => Promise<void>,
    private readonly gate: ProxyGate,
    private readonly host: ProxyHost,
    /** What the instance's runtime sends in Proxy-Authorization (net_proxy_set's `auth`). */
    readonly credentials: ProxyCredentials,
  ) {}

  static async start(host: ProxyHost, ca: ProxyCa): Promise<InstanceProxy> {
    // mockttp (about 800 modules) loads on the first proxy a run starts, not with the framework.
    const { getLocal } = await import('mockttp');
    const mockttp: Mockttp = getLocal({ https: { key: ca.key, cert: ca.cert }, cors: false, recordTraffic: false });
    const { server, stop } = await startOffNetwork(mockttp);
    const credentials = newCredentials();
    let gate: ProxyGate | null = null;
    try {
      gate = await ProxyGate.open(credentials, (socket) => server.emit('connection', socket));
      const proxy = new InstanceProxy(stop, gate, host, credentials);
      await mockttp.forAnyRequest().thenCallback((req) => proxy.handle(req));
      return proxy;
    } catch (e) {
      await (gate ? gate.close(stop) : stop());
      throw e;
    }
  }

  /** The port on 127.0.0.1. */
  get port(): number {
    return this.gate.port;
  }

  /** Connections refused so far for lacking the credentials. */
  get refused(): number {
    return this.gate.refused;
  }

  async stop(): Promise<void> {
    await this.gate.close(this.stopServer);
  }

  private async handle(req: CompletedRequest): Promise<CallbackResponseResult> {
    const started = Date.now();
    const headers = flatHeaders(req.headers);
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const body = (await req.body.getDecodedBuffer().catch(() => undefined)) ?? req.body.buffer;
    const request = new Request(req.url, req.method, headers, body, started, this.host.instance);
    this.host.seen(request);
    let out: Answer;
    try {
      out = await this.answer(request);
    } catch (e) {
      out = { response: null, answeredBy: 'network', error: (e as Error).message, errorText: networkErrorText(e) };
    }
    const c = this.host.conditions;
    if (c) {
      const ms = conditionsDelay(c, request._body.length, out.response?._body.length ?? 0);
      if (ms > 0) await new Promise((r) => setTimeout(r, ms));
    }
    const { errorText, raw, ...answered } = out;
    const exchange: Exchange = {
      request,
      ...answered,
      durationMs: Date.now() - started,
      ...(raw ? { encodedBodySize: raw.length } : {}),
    };
    if (out.response) request._response = out.response;
    else request._failure = errorText ?? 'net::ERR_FAILED';
    request._settle();
    this.host.done(exchange);
    if (!out.response) return out.error === 'connectionreset' ? 'reset' : 'close';
    const r = out.response;
    const sent = framed(wireHeaders(r.headers()), r.status(), request.method(), (out.raw ?? r._body).length);
    return out.raw
      ? { statusCode: r.status(), statusMessage: r.statusText() || undefined, headers: sent, rawBody: out.raw }
      : { statusCode: r.status(), statusMessage: r.statusText(), headers: sent, body: r._body };
  }

  /** The routes in turn, then the network. */
  private async answer(request: Request): Promise<Answer> {
    const routes = this.host.routes;
    // The routes as the request found them (Playwright's snapshot): a handler that routes or
    // unroutes changes what later requests meet, not which handlers this one goes through.
    for (const entry of routes.slice().reverse()) {
      if (!urlMatches(entry.matcher, request.url())) continue;
      // Unrouted since the request came (by an earlier handler of it): skipped.
      const index = routes.indexOf(entry);
      if (index === -1) continue;
      entry.matched = (entry.matched ?? 0) + 1;
      if (entry.times !== undefined && --entry.times <= 0) routes.splice(index, 1);
      const { decision, fetched } = await this.run(entry, request);
      if (!decision)
        return {
          response: null,
          answeredBy: entry.label,
          error: 'the route handler threw',
          errorText: 'net::ERR_FAILED',
        };
      if (decision.kind === 'fallback') continue;
      if (decision.kind === 'abort')
        return {
          response: null,
          answeredBy: `${entry.label} (abort)`,
          error: decision.code,
          errorText: abortErrorText(decision.code),
        };
      if (decision.kind === 'continue') return this.network(request, `${entry.label} (continue)`);
      const response = new Response(
        request,
        request.url(),
        decision.status,
        reasonPhrase(decision.status),
        decision.headers,
        decision.body,
      );
      return { response, answeredBy: `${entry.label} (${fetched || decision.fetched ? 'fetch' : 'fulfill'})` };
    }
    return this.network(request, 'network');
  }

  private async network(request: Request, answeredBy: string) {
    const res = await this.host.upstream.send({
      url: request.url(),
      method: request.method(),
      headers: request.headers(),
      body: request._body,
    });
    const response = new Response(
      request,
      request.url(),
      res.status,
      res.statusText,
      flatHeaders(res.headers),
      res.body,
    );
    return { response, raw: res.raw, answeredBy };
  }

  /**
   * `route.fetch()`: the request to the network, following redirects as Playwright's fetch does
   * (303, and 301/302 of a POST, become a GET without a body; 307/308 keep both). The response is
   * the last one, its `url()` where it came from; the request itself is not changed.
   */
  private async fetchFollowing(call: ApiCall, request: Request, maxRedirects: number): Promise<Response> {
    let out = { url: request.url(), method: request.method(), headers: request.headers(), body: request._body };
    for (let left = maxRedirects; ; left--) {
      const res = await this.host.upstream.send(out);
      const location = res.headers['location'];
      const next = typeof location === 'string' && REDIRECTS.has(res.status) ? new URL(location, out.url) : null;
      if (!next || maxRedirects === 0)
        return new Response(request, out.url, res.status, res.statusText, flatHeaders(res.headers), res.body);
      if (left <= 0)
        throw call.error(
          `Max redirect count exceeded: ${request.url()} redirected more than ${maxRedirects} times (last to ${next.href}); raise maxRedirects, or 0 to get the redirect itself`,
          { code: 'USAGE' },
        );
      const toGet = res.status === 303 || ((res.status === 301 || res.status === 302) && out.method === 'POST');
      const headers = { ...out.headers };
      if (toGet) {
        delete headers['content-type'];
        delete headers['content-length'];
      }
      if (next.origin !== new URL(out.url).origin) {
        delete headers['authorization'];
        delete headers['cookie'];
      }
      out = {
        url: next.href,
        method: toGet && out.method !== 'HEAD' ? 'GET' : out.method,
        headers,
        body: toGet ? Buffer.alloc(0) : out.body,
      };
    }
  }

  /** Run one handler until it decides (or throws); null decision: it threw before deciding. */
  private run(entry: RouteEntry, request: Request): Promise<{ decision: Decision | null; fetched: boolean }> {
    return new Promise((resolve) => {
      let decided: Decision | null = null;
      let fetched = false;
      const route = new Route({
        request,
        wrap: (api, body) => this.host.wrap(api, body),
        decide: (call, d) => {
          if (decided)
            throw call.error(
              `Route is already handled! (${decided.kind}): a handler answers a request once — call fulfill, abort, continue or fallback one time`,
              { code: 'USAGE' },
            );
          decided = d;
          resolve({ decision: d, fetched });
        },
        fetch: async (call, maxRedirects) => {
          fetched = true;
          try {
            return await this.fetchFollowing(call, request, maxRedirects);
          } catch (e) {
            if (e instanceof NestwrightError) throw e;
            throw call.error(
              `the network did not answer ${request.method()} ${request.url()}: ${(e as Error).message}`,
              // The route's fetch() went to the real server, which did not answer: the routes' set-up.
              { cause: e, code: 'ROUTE_FAILED' },
            );
          }
        },
      });
      Promise.resolve()
        .then(() => entry.handler(route, request))
        .catch((e: unknown) => {
          this.host.handlerFailed(entry, e);
          if (!decided) resolve({ decision: null, fetched });
        });
    });
  }
}

/** Headers as they go to the app: each cookie of `set-cookie` (one per line in {@link Headers}) a header of its own. */
function wireHeaders(h: Record<string, string>): Record<string, string | string[]> {
  const cookies = h['set-cookie'];
  return cookies?.includes('\n') ? { ...h, 'set-cookie': cookies.split('\n') } : h;
}

/**
 * The headers with the body's length when they frame it no other way (a replayed HAR entry, an
 * empty fulfill): mockttp writes exactly the headers given, so without a length or a chunked
 * encoding the app's connection would have to close to end the body, and keep-alive is lost.
 */
function framed(h: Record<string, string | string[]>, status: number, method: string, length: number) {
  if ('content-length' in h || 'transfer-encoding' in h) return h;
  if (method === 'HEAD' || status < 200 || status === 204 || status === 304) return h;
  return { ...h, 'content-length': String(length) };
}

/** The standard reason phrase of a status a route made, as Playwright gives it (`Unknown` for one without). */
function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown';
}

import { EventEmitter } from 'node:events';
import type { ToolInput, ToolName, ToolResult } from '../../device-runtime/protocol/index.js';
import type { ScriptRoute } from '../../device-runtime/protocol/skill/index.js';
import { ApiCall } from '../core/api-call.js';
import { NestwrightError, TestEndedError, TimeoutError } from '../core/errors.js';
import type { InstancePort } from '../core/port.js';
import { proxyCa } from './ca.js';
import { describeConditions, resolveConditions, type NetworkConditions, type NetworkPreset } from './conditions.js';
import type { HarFile } from './har.js';
import { harReplay } from './har-replay.js';
import { writeHar, type HarWriteOptions } from './har-write.js';
import { harOptionsProblem } from './har-options.js';
import type { Request, Response } from './messages.js';
import { InstanceProxy, type Exchange, type ProxyHost, type RouteEntry, type RouteHandler } from './proxy.js';
import type { NetworkRecord } from './record.js';
import { currentTestNetwork } from './test-network.js';
import { Upstream } from './upstream.js';
import { describeMatcher, matcherProblem, sameMatcher, urlMatches, type UrlMatcher } from './url-match.js';

/** The request events, Playwright's names: what each listener gets. */
export interface NetworkEvents {
  request: Request;
  response: Response;
  requestfinished: Request;
  requestfailed: Request;
}

/** `app.routeFromHAR()`'s options, Playwright's. */
export interface RouteFromHAROptions {
  /** Only requests whose URL this matches are answered from (or recorded to) the file. */
  url?: string | RegExp;
  /** A request the file has no entry for: `'abort'` (default) or `'fallback'` to the next route or the network. */
  notFound?: 'abort' | 'fallback';
  /** Record instead: requests go to the network and the file is written when the instance closes. */
  update?: boolean;
  /**
   * When recording (`update`): headers whose values the file leaves out (any case), e.g.
   * `['authorization', 'cookie', 'set-cookie']`; each stays by name with the value `[redacted]`,
   * which a replay does not serve.
   */
  redact?: string[];
  /** When recording: bodies in files beside the HAR or in its archive (`'attach'`, default) or in the HAR (`'embed'`). */
  updateContent?: 'attach' | 'embed';
  /** When recording: only what a replay needs (`'minimal'`, default) or sizes and timings too (`'full'`). */
  updateMode?: 'minimal' | 'full';
}

const ROUTE_FROM_HAR_OPTIONS = ['url', 'notFound', 'update', 'redact', 'updateContent', 'updateMode'] as const;

const EXTENSION = 'net_proxy';
const WAIT_DEFAULT_MS = 30_000;

/**
 * One instance's network in the test's hands (docs/network.md): its routes, its HAR replays and
 * recordings, its waits and events, offline and network conditions. App's network members are
 * this object's. The proxy (proxy.ts) starts with the first call that needs it and is set on the
 * instance with `net_proxy_set`; everything goes through the device protocol's `net_proxy`
 * extension, so a runtime without it fails with NOT_SUPPORTED naming the extension.
 *
 * @internal App's members are the public API.
 */
export class AppNetwork implements ProxyHost {
  readonly routes: RouteEntry[] = [];
  conditions: NetworkConditions | null = null;
  /** Every request the proxy answered, for the HAR. */
  readonly exchanges: Exchange[] = [];
  private proxy: Promise<{ proxy: InstanceProxy; upstream: Upstream }> | null = null;
  private upstreamValue: Upstream | null = null;
  private started: InstanceProxy | null = null;
  /** The CA certificate (PEM) the started proxy's TLS is signed with. */
  private startedCa = '';
  private readonly events = new EventEmitter();
  private readonly failures: NestwrightError[] = [];
  private readonly recordings: Array<{ path: string; url: string | RegExp | undefined; options: HarWriteOptions }> = [];
  /** The HARs replayed, open until the instance closes (an archive keeps its file open). */
  private readonly replayed: HarFile[] = [];
  private closed = false;

  constructor(private readonly port: InstancePort) {
    this.events.setMaxListeners(0);
    currentTestNetwork()?.add(this);
  }

  get instance(): string | null {
    return this.port.instance;
  }
  get upstream(): Upstream {
    return this.upstreamValue!;
  }
  wrap<T>(api: string, body: (call: ApiCall) => Promise<T>): Promise<T> {
    return this.port.wrap(api, {}, body);
  }

  seen(request: Request): void {
    this.events.emit('request', request);
  }

  done(x: Exchange): void {
    this.exchanges.push(x);
    const record: NetworkRecord = {
      instance: this.port.instance,
      method: x.request.method(),
      url: x.request.url(),
      status: x.response?.status() ?? null,
      startedAt: x.request._startedAt,
      durationMs: x.durationMs,
      answeredBy: x.answeredBy,
      ...(x.error ? { error: x.error } : {}),
    };
    this.port.trajectory.network.push(record);
    if (x.response) {
      this.events.emit('response', x.response);
      this.events.emit('requestfinished', x.request);
    } else this.events.emit('requestfailed', x.request);
  }

  handlerFailed(route: RouteEntry, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.failures.push(
      new NestwrightError('app.route', `the handler of ${route.label} threw, so its request failed: ${message}`, {
        cause: error,
        code: 'ROUTE_FAILED',
      }),
    );
  }

  /** The first handler error of the test, if any (the fixture fails the test with it). */
  get failure(): NestwrightError | null {
    return this.failures[0] ?? null;
  }

  /** The proxy, started and set on the instance once. */
  start(call: ApiCall): Promise<unknown> {
    if (this.closed) throw call.error(`${this.port.who()} is closed`, { code: 'USAGE' });
    this.proxy ??= this.startProxy(call).catch((e: unknown) => {
      this.proxy = null;
      throw e;
    });
    return this.proxy;
  }

  private async startProxy(call: ApiCall): Promise<{ proxy: InstanceProxy; upstream: Upstream }> {
    const info = await this.tool(call, 'net_info', {});
    this.upstreamValue = new Upstream(info);
    const ca = await proxyCa();
    const proxy = await InstanceProxy.start(this, ca);
    try {
      await this.tool(call, 'net_proxy_set', {
        ...this.ref(),
        host: '127.0.0.1',
        port: proxy.port,
        ca_pem: ca.cert,
        auth: proxy.credentials,
      });
    } catch (e) {
      await proxy.stop();
      throw e;
    }
    this.started = proxy;
    this.startedCa = ca.cert;
    return { proxy, upstream: this.upstreamValue };
  }

  private ref(): { space_id: string; package: string; instance?: string } {
    return {
      space_id: this.port.spaceId,
      package: this.port.pkg,
      ...(this.port.instance ? { instance: this.port.instance } : {}),
    };
  }

  /** A `net_proxy` tool call; NOT_SUPPORTED naming the extension when the runtime lacks it. */
  private async tool<N extends ToolName>(call: ApiCall, tool: N, input: ToolInput<N>): Promise<ToolResult<N>> {
    if (!(await this.port.offers(EXTENSION)))
      throw call.error(
        `this device runtime does not offer ${tool} (NOT_SUPPORTED): it lacks the \`${EXTENSION}\` extension, so the instance's network cannot be routed, recorded or throttled. Run on the simulator or a NestSpace runtime that lists "${EXTENSION}" in runtime_info.extensions.`,
        { code: 'NOT_SUPPORTED' },
      );
    return this.port.call(call, tool, input);
  }

  private step<T>(api: string, title: string, body: (call: ApiCall) => Promise<T>, timeout?: number): Promise<T> {
    return this.port.wrap(api, { timeout }, (call) =>
      this.port.step(call, { kind: 'app', title, selector: null }, () => body(call)),
    );
  }

  route(url: UrlMatcher, handler: RouteHandler, opts: { times?: number } = {}): Promise<void> {
    return this.step('app.route', `Route ${describeMatcher(url)}`, async (call) => {
      checkMatcher(call, url);
      if (typeof handler !== 'function')
        throw call.error('the handler must be a function (route, request) => …', { code: 'USAGE' });
      if (opts.times !== undefined && (!Number.isInteger(opts.times) || opts.times < 1))
        throw call.error(`times must be a whole number ≥ 1, got ${String(opts.times)}`, { code: 'USAGE' });
      await this.start(call);
      this.routes.push({ matcher: url, handler, times: opts.times, label: `route ${describeMatcher(url)}` });
    });
  }

  unroute(url: UrlMatcher, handler?: RouteHandler): Promise<void> {
    return this.step('app.unroute', `Unroute ${describeMatcher(url)}`, async () => {
      for (let i = this.routes.length - 1; i >= 0; i--) {
        const r = this.routes[i]!;
        if (sameMatcher(r.matcher, url) && (!handler || r.handler === handler)) this.routes.splice(i, 1);
      }
    });
  }

  unrouteAll(): Promise<void> {
    return this.step('app.unrouteAll', 'Remove every route', async () => {
      this.routes.length = 0;
    });
  }

  routeFromHAR(path: string, opts: RouteFromHAROptions = {}): Promise<void> {
    const title = `${opts.update ? 'Record' : 'Replay'} ${path}${opts.url ? ` for ${String(opts.url)}` : ''}`;
    return this.step('app.routeFromHAR', title, async (call) => {
      const problem = harOptionsProblem(opts, ROUTE_FROM_HAR_OPTIONS);
      if (problem) throw call.error(problem, { code: 'USAGE' });
      if (opts.url !== undefined) checkMatcher(call, opts.url);
      if (opts.notFound !== undefined && !['abort', 'fallback'].includes(opts.notFound))
        throw call.error(`notFound is 'abort' or 'fallback', got ${JSON.stringify(opts.notFound)}`, { code: 'USAGE' });
      if (opts.update) {
        await this.start(call);
        // Playwright's defaults for a recording made by routeFromHAR: bodies attached, minimal entries.
        const options = {
          redact: opts.redact,
          content: opts.updateContent ?? 'attach',
          mode: opts.updateMode ?? 'minimal',
        };
        this.recordings.push({ path, url: opts.url, options });
        return;
      }
      const { handler, har } = await harReplay(call, path, opts.notFound ?? 'abort');
      if (har.problem) call.log.push(`${har.problem}; with notFound: 'fallback' every request falls through`);
      try {
        await this.start(call);
      } catch (e) {
        har.close();
        throw e;
      }
      this.replayed.push(har);
      this.routes.push({ matcher: opts.url ?? '**/*', label: `har ${path}`, times: undefined, handler });
    });
  }

  waitForRequest(
    match: string | RegExp | ((r: Request) => boolean | Promise<boolean>),
    opts: { timeout?: number } = {},
  ): Promise<Request> {
    return this.waitFor('app.waitForRequest', 'request', match, opts);
  }

  waitForResponse(
    match: string | RegExp | ((r: Response) => boolean | Promise<boolean>),
    opts: { timeout?: number } = {},
  ): Promise<Response> {
    return this.waitFor('app.waitForResponse', 'response', match, opts);
  }

  private waitFor<E extends 'request' | 'response'>(
    api: string,
    event: E,
    match: string | RegExp | ((r: NetworkEvents[E]) => boolean | Promise<boolean>),
    opts: { timeout?: number },
  ): Promise<NetworkEvents[E]> {
    const ms = opts.timeout ?? WAIT_DEFAULT_MS;
    const what = typeof match === 'function' ? 'a predicate' : String(match);
    // Listening starts now, and so does the proxy, before the step's first await; the instance's
    // next call (the action that makes the request) waits until the proxy is set, so it is seen.
    this.holdStart(false);
    let listener: ((x: NetworkEvents[E]) => void) | null = null;
    // A bad matcher is refused by the step below; its listener must not throw meanwhile.
    const valid = typeof match === 'function' || matcherProblem(match) === null;
    const seen = new Promise<NetworkEvents[E]>((resolve, reject) => {
      listener = (x) => {
        if (!valid) return;
        const url = x.url();
        const test = typeof match === 'function' ? match(x) : urlMatches(match, url);
        void Promise.resolve(test).then((ok) => ok && resolve(x), reject);
      };
      this.events.on(event, listener);
    });
    return this.step(
      api,
      `Wait for ${event} ${what}`,
      async (call) => {
        if (typeof match !== 'function') checkMatcher(call, match);
        call.log.push(`waiting for ${event} ${what}`);
        await this.start(call);
        let timer: ReturnType<typeof setTimeout> | undefined;
        let ended: (() => void) | undefined;
        try {
          return await Promise.race([
            seen,
            new Promise<never>((_, reject) => {
              // What came is read when the time is up, not when the wait began.
              const timedOut = () => {
                const seenSoFar = this.lastRequests().map((r) => `  ${r}`);
                const message = `Timeout ${this.port.describeTimeout(call.timeout)} exceeded waiting for ${event} ${what}${seenSoFar.length ? `; the last requests were:\n${seenSoFar.join('\n')}` : '; the instance made no request'}${this.refusedNote()}`;
                reject(new TimeoutError(call, message, call.log, null));
              };
              timer = setTimeout(timedOut, call.remaining());
              // The test's timeout first: its step's call log names what the instance did request.
              ended = () => {
                const last = this.lastRequests();
                call.log.push(
                  last.length
                    ? `  no ${event} matched; the instance's last requests (most recent last):`
                    : `  no ${event} matched; the instance made no request`,
                  ...last.map((r) => `  ${r}`),
                );
                reject(new TestEndedError());
              };
              call.signal?.addEventListener('abort', ended, { once: true });
            }),
          ]);
        } finally {
          clearTimeout(timer);
          if (ended) call.signal?.removeEventListener('abort', ended);
          this.events.off(event, listener!);
        }
      },
      ms,
    );
  }

  /** The instance's last requests (at most 5, most recent last), as `GET https://…`. */
  lastRequests(): string[] {
    return this.exchanges.slice(-5).map((x) => `${x.request.method()} ${x.request.url()}`);
  }

  /** Why requests may not have been seen: connections the proxy refused for lacking its credentials. */
  private refusedNote(): string {
    const n = this.started?.refused ?? 0;
    return n === 0
      ? ''
      : `\n(the instance's proxy refused ${n} connection(s) that lacked its credentials: the runtime must send the auth net_proxy_set gave in Proxy-Authorization)`;
  }

  on<E extends keyof NetworkEvents>(event: E, listener: (x: NetworkEvents[E]) => void): void {
    this.events.on(event, listener as (x: unknown) => void);
    this.holdStart(true);
  }

  /** Start the proxy now, holding the instance's next calls until it is set; `report`: a failure is the test's (no call of the user's gets it). */
  private holdStart(report: boolean): void {
    if (this.proxy || this.closed) return;
    const call = new ApiCall('app.network', this.port.timeout(undefined, 'action'), undefined);
    const started = this.start(call);
    this.port.hold(started);
    started.catch((e: NestwrightError) => void (report && this.failures.push(e)));
  }

  off<E extends keyof NetworkEvents>(event: E, listener: (x: NetworkEvents[E]) => void): void {
    this.events.off(event, listener as (x: unknown) => void);
  }

  setOffline(offline: boolean): Promise<void> {
    return this.step('app.setOffline', offline ? 'Go offline' : 'Go back online', async (call) => {
      if (typeof offline !== 'boolean')
        throw call.error(`offline is true or false, got ${JSON.stringify(offline)}`, { code: 'USAGE' });
      await this.tool(call, 'net_offline_set', { ...this.ref(), offline });
    });
  }

  emulateNetworkConditions(given: NetworkPreset | NetworkConditions | null): Promise<void> {
    return this.step('app.emulateNetworkConditions', `Network: ${describeConditions(given)}`, async (call) => {
      const { conditions, problem } = resolveConditions(given);
      if (problem) throw call.error(problem, { code: 'USAGE' });
      await this.start(call);
      this.conditions = conditions;
    });
  }

  /**
   * The way a flow's or skill's script `http` takes through this instance's network: the proxy's
   * 127.0.0.1 URL, its credentials and the CA to trust; null when no proxy runs (the request then
   * goes straight from this host, as Maestro's does). A proxy still starting is waited for. Asked
   * at each request, so a route added between two requests is seen by the second.
   */
  async scriptRoute(): Promise<ScriptRoute | null> {
    if (this.closed || !this.proxy) return null;
    const { proxy } = await this.proxy;
    if (this.closed) return null;
    const { username, password } = proxy.credentials;
    return { proxyUrl: `http://127.0.0.1:${proxy.port}`, username, password, caPem: this.startedCa };
  }

  /** Write the recordings, take the proxy off the instance and stop it. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const har of this.replayed) har.close();
    for (const r of this.recordings)
      await writeHar(
        r.path,
        r.url === undefined ? this.exchanges : this.exchanges.filter((x) => urlMatches(r.url!, x.request.url())),
        r.options,
      );
    const started = await this.proxy?.catch(() => null);
    if (!started) return;
    await this.wrap('app.close', (call) => this.port.call(call, 'net_proxy_clear', this.ref())).catch(() => {});
    await started.proxy.stop();
    started.upstream.close();
  }
}

function checkMatcher(call: ApiCall, url: unknown): void {
  const problem = matcherProblem(url);
  if (problem) throw call.error(problem, { code: 'USAGE' });
}

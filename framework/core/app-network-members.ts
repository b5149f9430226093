import type { ScriptRoute } from '../../device-runtime/protocol/skill/index.js';
import { LocatorFactory, type Locator } from './locator.js';
import type { AppPort } from './port.js';
import {
  AppNetwork,
  type NetworkConditions,
  type NetworkEvents,
  type NetworkPreset,
  type Request,
  type Response,
  type RouteFromHAROptions,
  type RouteHandler,
  type UrlMatcher,
} from '../network/index.js';

/**
 * The network members of an `App` (docs/network.md), with Playwright's names: routes, HAR,
 * request and response waits and events, offline and slow networks — each a delegate to the
 * instance's `AppNetwork` (framework/network/) over the app's port. `AppFeatures` extends it;
 * `App` is the only subclass.
 */
export abstract class AppNetworkMembers extends LocatorFactory<Locator> {
  /** @internal */
  abstract get port(): AppPort;

  private networkControls: AppNetwork | undefined;

  /** The instance's proxy and routes end with it (App.close). */
  protected async closeNetwork(): Promise<void> {
    await this.networkControls?.close();
  }

  /** @internal The instance's proxy a flow's or skill's script `http` goes through; null when none runs. */
  scriptNetwork(): Promise<ScriptRoute | null> {
    return this.networkControls?.scriptRoute() ?? Promise.resolve(null);
  }

  /** @internal This instance's network (docs/network.md): App's network members are its. */
  get network(): AppNetwork {
    return (this.networkControls ??= new AppNetwork(this.port));
  }

  /**
   * Route this instance's requests whose URL matches `url` (a glob, a RegExp or a predicate of
   * the URL) to `handler`, as Playwright's `page.route`: the latest route is tried first; it
   * answers with `route.fulfill()`, `abort()`, `continue()`, `fetch()` or hands on with
   * `fallback()`. `times`: it is removed after that many requests. docs/network.md.
   *
   * @example
   * ```ts
   * await app.route('https://api.shop.nestwright.test/products?page=*', (route) =>
   *   route.fulfill({ json: { items: [{ id: 1, name: 'Test Lamp', price: 1999 }], next: null } }),
   * );
   * ```
   */
  route(url: UrlMatcher, handler: RouteHandler, opts?: { times?: number }): Promise<void> {
    return this.network.route(url, handler, opts);
  }

  /**
   * Remove the routes of `url` (the same string, RegExp or predicate), or only those with `handler`.
   *
   * @example
   * ```ts
   * await app.unroute('https://api.shop.nestwright.test/products*');
   * ```
   */
  unroute(url: UrlMatcher, handler?: RouteHandler): Promise<void> {
    return this.network.unroute(url, handler);
  }

  /**
   * Remove every route of this instance.
   *
   * @example
   * ```ts
   * await app.unrouteAll();
   * ```
   */
  unrouteAll(): Promise<void> {
    return this.network.unrouteAll();
  }

  /**
   * Answer this instance's requests from a HAR file or a `.zip` HAR archive (Playwright's
   * `page.routeFromHAR`), or with `update: true` record them to it (written when the instance
   * closes). A request the file has no entry for is aborted (`notFound: 'fallback'` hands it on).
   *
   * @example
   * ```ts
   * await app.routeFromHAR('fixtures/har/catalog.har', { url: 'https://api.shop.nestwright.test/products*' });
   * ```
   */
  routeFromHAR(path: string, opts?: RouteFromHAROptions): Promise<void> {
    return this.network.routeFromHAR(path, opts);
  }

  /**
   * The next request of this instance whose URL matches (or for which the predicate is true),
   * as Playwright's `page.waitForRequest`: start it before the action that makes the request.
   * Default timeout 30 s.
   *
   * @example
   * ```ts
   * const order = app.waitForRequest('https://api.shop.nestwright.test/orders');
   * await app.getByRole('button', { name: 'Pay' }).tap();
   * expect((await order).postDataJSON()).toMatchObject({ items: [{ id: 1, qty: 1 }] });
   * ```
   */
  waitForRequest(
    url: string | RegExp | ((request: Request) => boolean | Promise<boolean>),
    opts?: { timeout?: number },
  ): Promise<Request> {
    return this.network.waitForRequest(url, opts);
  }

  /**
   * The next response this instance gets whose URL matches (or for which the predicate is true).
   *
   * @example
   * ```ts
   * const catalog = app.waitForResponse('https://api.shop.nestwright.test/products?page=1');
   * await app.launch({ activity: '.CatalogActivity' });
   * expect((await catalog).status()).toBe(200);
   * ```
   */
  waitForResponse(
    url: string | RegExp | ((response: Response) => boolean | Promise<boolean>),
    opts?: { timeout?: number },
  ): Promise<Response> {
    return this.network.waitForResponse(url, opts);
  }

  /**
   * Listen to this instance's requests (Playwright's names): `request`, `response`,
   * `requestfinished`, `requestfailed`.
   *
   * @example
   * ```ts
   * app.on('request', (request) => console.log(request.method(), request.url()));
   * ```
   */
  on<E extends keyof NetworkEvents>(event: E, listener: (arg: NetworkEvents[E]) => void): this {
    this.network.on(event, listener);
    return this;
  }

  /**
   * Stop listening.
   *
   * @example
   * ```ts
   * import type { Request } from 'nestwright';
   *
   * const log = (request: Request) => console.log(request.url());
   * app.on('request', log);
   * app.off('request', log);
   * ```
   */
  off<E extends keyof NetworkEvents>(event: E, listener: (arg: NetworkEvents[E]) => void): this {
    this.network.off(event, listener);
    return this;
  }

  /**
   * Take this instance off the network, or put it back (Playwright's `context.setOffline`): it
   * sees no connectivity and every connection it opens fails.
   *
   * @example
   * ```ts
   * await app.setOffline(true);
   * await expect(app.getByText("You're offline")).toBeVisible();
   * ```
   */
  setOffline(offline: boolean): Promise<void> {
    return this.network.setOffline(offline);
  }

  /**
   * Slow this instance's network: a Chrome DevTools preset (`'3G'`, `'Slow 4G'`, `'Fast 4G'`)
   * or numbers (`latency` ms, `download`/`upload` bytes/s, `packetLoss` %); null: no throttling.
   *
   * @example
   * ```ts
   * await app.emulateNetworkConditions('Slow 4G');
   * await app.emulateNetworkConditions({ latency: 400 });
   * ```
   */
  emulateNetworkConditions(conditions: NetworkPreset | NetworkConditions | null): Promise<void> {
    return this.network.emulateNetworkConditions(conditions);
  }
}

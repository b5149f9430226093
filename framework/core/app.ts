import type { Page } from '@playwright/test';
import type { Key, Observation } from '../../device-runtime/protocol/index.js';
import type { ScriptRoute } from '../../device-runtime/protocol/skill/index.js';
import * as actions from './app-actions.js';
import { auditOf, type AccessibilityAuditOptions, type AccessibilityAuditResult } from './accessibility.js';
import { AppPortOf } from './app-port.js';
import type { AppDriver } from './driver.js';
import { Locator } from './locator.js';
import { ScreenLocators, type RoleOptions } from './locator-factory.js';
import { FEATURE_PORT, type AppPort, type PortSubject } from './port.js';
import type { Role } from './selector.js';
import { AppAi } from '../ai/app-ai.js';
import { AppFunctions } from '../functions/index.js';
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
import { runSkill, type SkillRunResult } from '../skills/index.js';
import { AppWebViews, type WebView, type WebViewOptions } from '../webview/index.js';
import {
  AppWorldControls,
  type AppBiometrics,
  type AppCamera,
  type AppClipboard,
  type AppClock,
  type AppNotifications,
  type Geolocation,
} from '../world/index.js';

/**
 * One instance of an app in a space, the way Playwright's `page` is one tab: locators, keys,
 * lifecycle. Each instance has its own data (docs/protocol.md#instances); several can share the space's screen, and
 * the app is brought to the front before it is acted on.
 *
 * The `app` fixture is one, fresh for each test; `app.newInstance()` and `space.launch()` make
 * more. Type a helper's parameter with it:
 *
 * @example
 * ```ts
 * import { expect, type App } from 'nestwright';
 *
 * async function addNote(app: App, title: string): Promise<void> {
 *   await app.getByText('New note').tap();
 *   await app.getById('title').fill(title);
 *   await app.getByRole('button', { name: 'Save' }).tap();
 *   await expect(app.getByText(title)).toBeVisible();
 * }
 * ```
 */
export class App {
  // One class, as Playwright's `Page` is: each feature is a member object made in the constructor
  // (the whole screen's locators, AI steps, AppFunctions, WebViews, the instance's world; the
  // network on first use), and the public methods below delegate to it. A feature's member lives
  // in its own folder and acts through the app's port (port.ts), never through App.
  private closed = false;
  /**
   * @internal What the features this app attaches (`app.ai`, `app.runSkill()`, the AI and skill
   * matchers) act through: the instance and the app's own actions, nothing else (port.ts).
   */
  readonly port: AppPort;
  private readonly locators: ScreenLocators<Locator>;
  private readonly aiVerbs: AppAi;
  private readonly fns: AppFunctions;
  private readonly webViews: AppWebViews;
  private readonly world: AppWorldControls;
  /** Made on first use: a network joins the test's (HAR, failure artifacts) when it is made. */
  private networkControls: AppNetwork | undefined;

  /** @internal Made by `space.launch()` and the `app` fixture, not by tests. */
  constructor(
    /** @internal The connection and instance this app and its locators act through. */
    readonly driver: AppDriver,
    private readonly spawn: () => Promise<App>,
    private readonly dispose: () => Promise<void>,
  ) {
    this.port = new AppPortOf(driver, this);
    this.locators = new ScreenLocators((steps) => new Locator(driver, steps));
    this.aiVerbs = new AppAi(this.port);
    this.fns = new AppFunctions(driver);
    this.webViews = new AppWebViews(this.port);
    this.world = new AppWorldControls(this.port);
  }

  /** @internal This app to a feature it is handed to (`portOf`, port.ts). */
  get [FEATURE_PORT](): PortSubject {
    return { port: this.driver, locator: null, locate: (steps) => new Locator(this.driver, steps) };
  }

  /** @internal This instance's network (docs/network.md): App's network members delegate to it. */
  get network(): AppNetwork {
    return (this.networkControls ??= new AppNetwork(this.port));
  }

  /** @internal The instance's proxy a flow's or skill's script `http` goes through; null when none runs. */
  scriptNetwork(): Promise<ScriptRoute | null> {
    return this.networkControls?.scriptRoute() ?? Promise.resolve(null);
  }

  /**
   * The app's package name, e.g. `com.nestwright.notes`.
   *
   * @example
   * ```ts
   * expect(app.package).toBe('com.nestwright.notes');
   * ```
   */
  get package(): string {
    return this.driver.pkg;
  }
  /**
   * The instance id on the device, or null when the runtime has no instances (the `instance`
   * extension): then every launch of the package shares one copy of its data.
   *
   * @example
   * ```ts
   * const other = await app.newInstance();
   * expect(other.instance).not.toBe(app.instance);
   * ```
   */
  get instance(): string | null {
    return this.driver.instance;
  }

  /**
   * Nodes whose own text contains `text` (whitespace normalized, case-insensitive), or equals it
   * with `exact: true`; a RegExp tests the text. The selector form is `text=…` (`text="…"` exact).
   *
   * @example
   * ```ts
   * await app.getByText('New note').tap();
   * await expect(app.getByText('Buy milk', { exact: true })).toBeVisible();
   * await expect(app.getByText(/saved|synced/i)).toBeVisible();
   * ```
   */
  getByText(text: string | RegExp, opts: { exact?: boolean } = {}): Locator {
    return this.locators.getByText(text, opts);
  }

  /**
   * Nodes whose content description (what TalkBack reads for an icon) matches, as
   * `getByText` matches text. Selector form: `desc=…`.
   *
   * @example
   * ```ts
   * await app.getByDesc('Send').tap();
   * ```
   */
  getByDesc(text: string | RegExp, opts: { exact?: boolean } = {}): Locator {
    return this.locators.getByDesc(text, opts);
  }

  /**
   * Nodes with this resource id: the short name (`'title'` matches `<package>:id/title` of any
   * package) or the full one (`'com.nestwright.notes:id/title'`). Selector form: `id=…`.
   *
   * @example
   * ```ts
   * await app.getById('title').fill('Buy milk');
   * ```
   */
  getById(id: string): Locator {
    return this.locators.getById(id);
  }

  /**
   * Nodes of an accessibility role (`button`, `checkbox`, `textbox`, `listitem`, …, as the
   * observation names them: {@link Role}), narrowed by name and state ({@link RoleOptions}).
   * Selector form: `role=button[name="Save"][disabled=false]`. A role no observation names
   * throws at once (`USAGE`), with the nearest one.
   *
   * @example
   * ```ts
   * await app.getByRole('button', { name: 'Save' }).tap();
   * await expect(app.getByRole('checkbox', { name: 'I accept the terms', checked: true })).toBeVisible();
   * ```
   */
  getByRole(role: Role, opts: RoleOptions = {}): Locator {
    return this.locators.getByRole(role, opts);
  }

  /**
   * A locator from a selector string: parts joined by `>>`, each one of `text=…`, `desc=…`,
   * `id=…`, `class=…`, `role=…[…]`, `has-text=…`, `nth=…`; each part searches below the previous
   * one's matches. A malformed selector throws at once (`app.locator: …`).
   *
   * @example
   * ```ts
   * await app.locator('id=note_row >> text=Buy milk').tap();
   * await app.locator('id=note_row >> nth=0').tap();
   * ```
   */
  locator(selector: string): Locator {
    return this.locators.locator(selector);
  }

  /**
   * Another fresh instance of the same app in the same space (multi-user tests), with its own
   * data; stopped and wiped when the test ends, like `app`. The two share the space's screen and
   * take turns in front: each is brought up before it is acted on.
   *
   * @example
   * ```ts
   * const ben = await app.newInstance();
   * await app.getById('message_input').fill('Lunch at noon?');
   * await app.getByDesc('Send').tap();
   * await expect(ben.getById('incoming').filter({ hasText: 'Lunch at noon?' })).toBeVisible();
   * ```
   */
  newInstance(): Promise<App> {
    return this.spawn();
  }

  /**
   * Stop this instance and wipe its data (done for you when the test ends). Idempotent.
   *
   * @example
   * ```ts
   * const ben = await app.newInstance();
   * await ben.close(); // Ben leaves before the test ends
   * ```
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.networkControls?.close();
    await this.dispose();
  }

  /**
   * Send an intent to this instance (the protocol's `app_intent`): a deep link (`data`), an
   * activity of this app (`activity`, relative names like `.ProductActivity` are completed with
   * the package), an `action`, and `extras`. The target comes to the front. It does not wait for
   * the screen: follow it with an assertion.
   *
   * @example
   * ```ts
   * await app.intent({ data: 'nwshop://product/42' });
   * await expect(app).toHaveActivity('.ProductActivity');
   *
   * await app.intent({ activity: '.ProductActivity', extras: { id: 42 } });
   * ```
   */
  intent(opts: {
    activity?: string;
    data?: string;
    action?: string;
    extras?: Record<string, string | number | boolean>;
  }): Promise<void> {
    return this.driver.wrap('app.intent', {}, (call) => actions.intent(call, this.driver, opts));
  }

  /**
   * Press a key on the device and check the screen after it: a press that shows no effect was
   * dropped and is repeated (three presses at most). Back closes a dialog, then the keyboard, then
   * the activity; `enter` goes to the focused field.
   *
   * @example
   * ```ts
   * await app.getById('password').fill('secret');
   * await app.press('enter');
   * await app.press('back');
   * ```
   */
  press(key: Key): Promise<void> {
    return this.driver.wrap('app.press', {}, (call) => actions.press(call, this.driver, key));
  }

  /**
   * Hide the soft keyboard if it is up (a `back` that goes to the keyboard, not the app), and wait
   * until it is gone. Does nothing when it is down. Needs a runtime that reports the keyboard on
   * observations (the `keyboard` extension): without it, pressing back could close the screen, so
   * this throws NOT_SUPPORTED instead. Fails with a {@link TimeoutError} when it is still up
   * after `timeout` (default: the action timeout).
   *
   * @example
   * ```ts
   * await app.getById('email').fill('ana@example.com');
   * await app.hideKeyboard(); // fill() leaves it up, over the bottom of the screen
   * await app.getByRole('checkbox', { name: 'I accept the terms' }).tap();
   * ```
   */
  hideKeyboard(opts: { timeout?: number } = {}): Promise<void> {
    return this.driver.wrap('app.hideKeyboard', opts, (call) => actions.hideKeyboard(call, this.driver));
  }

  /**
   * Bring this instance up (to the front, starting it if needed), at its launcher activity or at
   * `activity` (`.CartActivity`: relative to the package). Its data is kept; `app.stop()` then
   * `launch()` is a cold start of the same instance.
   *
   * @example
   * ```ts
   * await app.launch({ activity: '.CartActivity' });
   * await expect(app).toHaveActivity('.CartActivity');
   * ```
   */
  launch(opts: { activity?: string } = {}): Promise<void> {
    return this.driver.wrap('app.launch', {}, (call) => actions.launch(call, this.driver, opts));
  }

  /**
   * Stop this instance's process (force-stop); its data stays. `app.launch()` starts it again.
   *
   * @example
   * ```ts
   * await app.stop();
   * await app.launch(); // a cold start: what the app saved is still there
   * await expect(app.getByText('Buy milk')).toBeVisible();
   * ```
   */
  stop(): Promise<void> {
    return this.driver.wrap('app.stop', {}, (call) => actions.stop(call, this.driver));
  }

  /**
   * The current screen of this instance (brought to the front first), as the protocol's
   * observation: package, activity, snapshot id and nodes (`detail: 'full'` adds every node).
   *
   * @example
   * ```ts
   * const screen = await app.observe();
   * console.log(screen.activity, screen.nodes.length);
   * ```
   */
  observe(opts: { detail?: 'compact' | 'full' } = {}): Promise<Observation> {
    return this.driver.wrap('app.observe', {}, (call) => this.driver.watch.observe(call, opts));
  }

  /**
   * A PNG of the space's screen with this instance in front. Throws when the runtime cannot take
   * screenshots (check with `{ optional: true }`, which returns null instead). `scale` (0..1)
   * shrinks the picture.
   *
   * @example
   * ```ts
   * import { writeFileSync } from 'node:fs';
   * import { test } from 'nestwright';
   *
   * test('the list', async ({ app }) => {
   *   const png = await app.screenshot({ optional: true });
   *   if (png) writeFileSync(test.info().outputPath('list.png'), png);
   * });
   * ```
   */
  async screenshot(opts?: { scale?: number; optional?: false }): Promise<Buffer>;
  async screenshot(opts: { scale?: number; optional: boolean }): Promise<Buffer | null>;
  async screenshot(opts: { scale?: number; optional?: boolean } = {}): Promise<Buffer | null> {
    return this.driver.wrap('app.screenshot', {}, (call) => actions.screenshot(call, this.driver, opts));
  }

  /**
   * Wait until `activity` is in front in this instance (compared as the observation reports it,
   * e.g. `.CatalogActivity`); a {@link TimeoutError} with the screen otherwise. The assertion
   * form is `expect(app).toHaveActivity()`.
   *
   * @example
   * ```ts
   * await app.getByRole('button', { name: 'Sign in' }).tap();
   * await app.waitForActivity('.CatalogActivity', { timeout: 10_000 });
   * ```
   */
  waitForActivity(activity: string, opts: { timeout?: number } = {}): Promise<void> {
    return this.driver.wrap('app.waitForActivity', opts, (call) =>
      actions.waitForActivity(call, this.driver, activity),
    );
  }

  /**
   * Replay a skill (`skills/*.yaml`) on this instance: each step a test step with its checks;
   * throws at the first failed step. Parameters are checked before anything runs.
   * `expect(app).toPassSkill()` is the assertion form.
   *
   * @example
   * ```ts
   * await app.runSkill('skills/sign-in.yaml', { email: 'ana@example.com', password: 'hunter22' });
   * ```
   */
  runSkill(file: string, params: Record<string, unknown> = {}): Promise<SkillRunResult> {
    return runSkill(this.port, file, params);
  }

  /**
   * The instance's logcat (up to 200 lines), one line per message line: `time pid level tag: message`.
   *
   * @example
   * ```ts
   * expect((await app.logcat()).some((line) => line.includes('ShopAuth: signing in'))).toBe(true);
   * ```
   */
  logcat(): Promise<string[]> {
    return this.driver.wrap('app.logcat', {}, (call) => this.driver.watch.logcat({ call }));
  }

  /**
   * Plain-language steps driven by a model: `app.ai.act`, `assert`, `extract`, `waitFor`
   * (configured under `use.ai`; see the README's AI steps).
   *
   * @example
   * ```ts
   * await app.ai.act('add a note titled Milk');
   * await app.ai.assert('a note titled Milk is in the list');
   * ```
   */
  get ai(): AppAi {
    return this.aiVerbs;
  }

  /**
   * The functions the app declares for agents (Android's AppFunctions, docs/functions.md): list
   * them, call one; each call is a step of the test.
   *
   * @example
   * ```ts
   * await app.functions.call('createNote', { title: 'Milk' });
   * await expect(app.getByText('Milk')).toBeVisible();
   * ```
   */
  get functions(): AppFunctions {
    return this.fns;
  }

  /**
   * The page of a WebView of this instance as Playwright's own `Page` (docs/webviews.md): the only
   * WebView on screen, or the one whose `url` or `title` matches, waiting for it to appear (the
   * action timeout). Its actions are steps of the test; it closes with the instance.
   *
   * @example
   * ```ts
   * await app.getByRole('button', { name: 'Help' }).tap();
   * const help = await app.webview();
   * await help.getByPlaceholder('Search help').fill('refund');
   * await expect(help.getByRole('button', { name: 'How do I get a refund?' })).toBeVisible();
   * ```
   */
  webview(options?: WebViewOptions): Promise<Page> {
    return this.webViews.webview(options);
  }

  /**
   * This instance's WebViews now (those on screen first), each with its URL, title, bounds and
   * `page()` (docs/webviews.md).
   *
   * @example
   * ```ts
   * const [help] = await app.webviews();
   * console.log(help?.url, help?.onScreen);
   * ```
   */
  webviews(): Promise<WebView[]> {
    return this.webViews.list();
  }

  /**
   * This instance's clock (Playwright's `page.clock` methods): the wall time its app, timers and
   * alarms see, for this instance only (docs/app-world.md).
   *
   * @example
   * ```ts
   * await app.clock.setFixedTime('2026-01-15T09:00:00+09:00');
   * await app.clock.fastForward('01:00:00');
   * ```
   */
  get clock(): AppClock {
    return this.world.clock;
  }

  /**
   * The notifications this instance posted: `list()`, each with `tap()` and `dismiss()`.
   *
   * @example
   * ```ts
   * const [reminder] = await app.notifications.list();
   * await reminder?.tap();
   * ```
   */
  get notifications(): AppNotifications {
    return this.world.notifications;
  }

  /**
   * This instance's fingerprint sensor: `enroll()`, then `succeedNext()`, `failNext()` or `cancelNext()`.
   *
   * @example
   * ```ts
   * await app.biometrics.enroll();
   * await app.biometrics.succeedNext();
   * ```
   */
  get biometrics(): AppBiometrics {
    return this.world.biometrics;
  }

  /**
   * This instance's camera: `setImage(path | Buffer)` is what its next captures return.
   *
   * @example
   * ```ts
   * await app.camera.setImage('fixtures/images/receipt.png');
   * ```
   */
  get camera(): AppCamera {
    return this.world.camera;
  }

  /**
   * The clipboard the app sees (its space's): `read()` and `write(text)`.
   *
   * @example
   * ```ts
   * await app.clipboard.write('SAVE10');
   * ```
   */
  get clipboard(): AppClipboard {
    return this.world.clipboard;
  }

  /**
   * Where this instance's location services say the device is (Playwright's `setGeolocation`);
   * null: no location. The `geolocation` option sets it for every instance of a test.
   *
   * @example
   * ```ts
   * await app.setGeolocation({ latitude: 52.52, longitude: 13.405 }); // Berlin
   * ```
   */
  setGeolocation(location: Geolocation | null): Promise<void> {
    return this.world.setGeolocation(location);
  }

  /**
   * Deliver a push message to this instance, as its messaging service (FCM) would hand the data
   * payload to the app. Throws when the app has no push handler.
   *
   * @example
   * ```ts
   * await app.push({ room: 'Support', from: 'Ben', text: 'Your order shipped' });
   * ```
   */
  push(message: Record<string, string | number | boolean>): Promise<void> {
    return this.world.push(message);
  }

  /**
   * Audit this screen with the checks of Android's Accessibility Test Framework (docs/accessibility.md):
   * every finding with its rule, severity, a locator for its node and the measured figure. It does
   * not fail; `expect(app).toPassAccessibilityAudit()` is the assertion form.
   *
   * @example
   * ```ts
   * const { findings } = await app.accessibilityAudit({ rules: { only: ['TouchTargetSizeCheck'] } });
   * for (const f of findings) console.log(f.rule, f.selector, f.measured);
   * ```
   */
  accessibilityAudit(opts?: AccessibilityAuditOptions): Promise<AccessibilityAuditResult> {
    return auditOf('app.accessibilityAudit', this[FEATURE_PORT], opts);
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

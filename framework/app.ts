import type { Key, Observation } from '../device-runtime/protocol/index.js';
import * as actions from './core/app-actions.js';
import { AppDriver } from './driver.js';
import { AppFeatures } from './app-features.js';
import { Locator } from './locator.js';
import type { Step } from './selector.js';
import { AppPortOf } from './app-port.js';
import type { AppPort } from './port.js';
import { runSkill, type SkillRunResult } from './skills/index.js';

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
export class App extends AppFeatures {
  private closed = false;

  /** @internal Made by `space.launch()` and the `app` fixture, not by tests. */
  constructor(
    /** @internal The connection and instance this app and its locators act through. */
    readonly driver: AppDriver,
    private readonly spawn: () => Promise<App>,
    private readonly dispose: () => Promise<void>,
  ) {
    super();
  }

  private portValue: AppPort | undefined;

  /**
   * @internal What the features this app attaches (`app.ai`, `app.runSkill()`, the AI and skill
   * matchers) act through: the instance and the app's own actions, nothing else (port.ts).
   */
  get port(): AppPort {
    return (this.portValue ??= new AppPortOf(this.driver, this));
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

  protected chain(steps: Step[]): Locator {
    return new Locator(this.driver, steps);
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
    await this.closeNetwork();
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
}

import {
  fieldHolds,
  screenChanged,
  type Key,
  type Observation,
  type UiNode,
} from '../../device-runtime/protocol/index.js';
import { isSecret, revealSecret, type Secret } from './secret.js';
import { act, findNode, scrollIntoView } from './action.js';
import type { ApiCall } from './api-call.js';
import { pressKey, swipe } from './gestures.js';
import { LocatorFactory, textMatch } from './locator-factory.js';
import * as reads from './locator-reads.js';
import { fillError, resolveNow } from './wait-here.js';
import type { AppDriver } from './driver.js';
import { NestwrightError } from './errors.js';
import { FEATURE_PORT, type PortSubject } from './port.js';
import { formatSteps, type Step } from './selector.js';

export { LocatorFactory, type RoleOptions } from './locator-factory.js';

/**
 * An immutable, lazy description of nodes on the screen of one app instance. Nothing touches the
 * device until an action or assertion runs; then it is resolved against a fresh observation,
 * strictly (one match) for actions, and waited for until actionable.
 *
 * Made by `app.getBy*()`, `app.locator()` and the methods that narrow a locator. Type a helper's
 * parameter with it:
 *
 * @example
 * ```ts
 * import { expect, type Locator } from 'nestwright';
 *
 * async function tick(rows: Locator, text: string): Promise<void> {
 *   const row = rows.filter({ hasText: text });
 *   await row.getByRole('checkbox').tap();
 *   await expect(row.getByRole('checkbox', { checked: true })).toBeVisible();
 * }
 * ```
 */
export class Locator extends LocatorFactory<Locator> {
  /** @internal Made by `app.getBy*()` and friends, not by tests. */
  constructor(
    /** @internal The app instance this locator acts on. */
    readonly driver: AppDriver,
    /** @internal What the locator matches, as selector steps. */
    readonly steps: Step[],
  ) {
    super();
  }

  protected chain(steps: Step[]): Locator {
    return new Locator(this.driver, [...this.steps, ...steps]);
  }

  /** @internal This locator to a feature it is handed to (`portOf`, port.ts). */
  get [FEATURE_PORT](): PortSubject {
    return { port: this.driver, locator: this, locate: (steps) => new Locator(this.driver, steps) };
  }

  /**
   * The locator as step titles and errors show it: `text='New note' >> nth=0`.
   *
   * @example
   * ```ts
   * expect(app.getById('title').first().toString()).toBe('id=title >> nth=0');
   * ```
   */
  override toString(): string {
    return formatSteps(this.steps);
  }

  /**
   * Keep the matches whose full text (their own and their descendants', as `textContent()`
   * reads it) contains `hasText` (substring, case-insensitive; a RegExp tests it), does not
   * contain `hasNotText`, and that have a node matching `has` below them. `has` is searched
   * inside each match, so build it from `app`.
   *
   * @example
   * ```ts
   * const row = app.getById('incoming').filter({ hasText: 'Lunch at noon?' });
   * await expect(row.getById('message_sender')).toHaveText('Ana');
   * await app.getById('note_row').filter({ hasNotText: 'Buy milk' }).first().tap();
   * ```
   */
  filter(opts: { hasText?: string | RegExp; hasNotText?: string | RegExp; has?: Locator }): Locator {
    return this.chain([
      {
        kind: 'filter',
        ...(opts.hasText !== undefined ? { hasText: textMatch(opts.hasText) } : {}),
        ...(opts.hasNotText !== undefined ? { hasNotText: textMatch(opts.hasNotText) } : {}),
        ...(opts.has ? { has: opts.has.steps } : {}),
      },
    ]);
  }
  /**
   * Nodes that match this locator or `other` (both searched on the whole screen), in screen
   * order. Both must be locators of the same app instance.
   *
   * @example
   * ```ts
   * const allowOrDone = app.getByRole('button', { name: 'Allow' }).or(app.getByText('Allowed'));
   * await expect(allowOrDone.first()).toBeVisible();
   * ```
   */
  or(other: Locator): Locator {
    this.sameApp(other, 'locator.or');
    return new Locator(this.driver, [...this.steps, { kind: 'or', other: other.steps }]);
  }

  /**
   * Nodes that match both this locator and `other` (of the same app instance).
   *
   * @example
   * ```ts
   * await app.getByRole('button').and(app.getById('login')).tap();
   * ```
   */
  and(other: Locator): Locator {
    this.sameApp(other, 'locator.and');
    return new Locator(this.driver, [...this.steps, { kind: 'and', other: other.steps }]);
  }

  private sameApp(other: unknown, api: 'locator.or' | 'locator.and'): asserts other is Locator {
    if (!(other instanceof Locator))
      throw new NestwrightError(
        api,
        `expected a nestwright Locator (app.getByText(…) and friends), got ${typeof other}`,
        { code: 'USAGE' },
      );
    if (other.driver !== this.driver) {
      throw new NestwrightError(
        api,
        `the two locators belong to different app instances (${this.driver.who()} and ${other.driver.who()}); combine locators of one app`,
        { code: 'USAGE' },
      );
    }
  }

  /**
   * The match at `index` in screen order (0-based; negative counts from the end), chosen when
   * the locator is resolved: with a changing list it may be another node each time.
   *
   * @example
   * ```ts
   * await app.getById('note_row').nth(2).tap();
   * ```
   */
  nth(index: number): Locator {
    return this.chain([{ kind: 'nth', index }]);
  }
  /**
   * The first match: `nth(0)`. The way out of a strict-mode error when any match will do.
   *
   * @example
   * ```ts
   * await app.getByText('Buy milk').first().tap();
   * ```
   */
  first(): Locator {
    return this.nth(0);
  }
  /**
   * The last match: `nth(-1)`.
   *
   * @example
   * ```ts
   * await expect(app.getById('outgoing').last()).toContainText('Yes!');
   * ```
   */
  last(): Locator {
    return this.nth(-1);
  }

  /** @internal All current matches in one observation (no waiting). */
  resolve(call: ApiCall): Promise<{ nodes: UiNode[]; obs: Observation }> {
    return resolveNow(call, this);
  }

  /**
   * Wait until exactly one node matches and it is visible, enabled (unless `enabled: false`) and
   * stable (same bounds in two observations in a row), then return it with its snapshot. While
   * nothing matches and the screen has a scrollable list, scroll it (down to its end, then back
   * up) to bring the node into view, as a user would. The loop is the protocol's
   * (device-runtime/protocol/actionability.ts), here over tool calls.
   *
   * @internal Actions and reads call it; tests use an action or `expect(locator).toBeVisible()`.
   */
  waitForActionable(
    call: ApiCall,
    opts: { timeout?: number; enabled?: boolean; scroll?: boolean } = {},
  ): Promise<{ node: UiNode; obs: Observation }> {
    return findNode(call, this, opts);
  }

  /**
   * Tap the node: wait until exactly one node matches and it is visible, enabled and stable
   * (scrolling a list to bring it into view, hiding the keyboard over it), tap it, and check that
   * the screen changed (a tap with no effect is repeated, three taps at most). On a runtime with
   * the `selector_actions` extension the device does all of this in one round trip. Fails with a
   * {@link TimeoutError} after `timeout` (default: the action timeout), or a
   * {@link StrictModeViolationError} when more than one node matches.
   *
   * @example
   * ```ts
   * await app.getByRole('button', { name: 'Save' }).tap();
   * await app.getByText('Checkout').tap({ timeout: 10_000 });
   * ```
   */
  tap(opts: { timeout?: number } = {}): Promise<void> {
    return this.driver.wrap('locator.tap', opts, (call) =>
      act(call, this, { tool: 'ui_tap', args: {}, took: screenChanged, title: {} }),
    );
  }

  /**
   * Press and hold the node for `duration` ms (default 800), waiting for it as
   * {@link Locator.tap} does.
   *
   * @example
   * ```ts
   * await app.getByText('Buy milk').longPress();
   * await app.getByRole('button', { name: 'Delete' }).tap();
   * ```
   */
  longPress(opts: { duration?: number; timeout?: number } = {}): Promise<void> {
    return this.driver.wrap('locator.longPress', opts, (call) =>
      act(call, this, {
        tool: 'ui_long_press',
        args: { duration_ms: opts.duration ?? 800 },
        took: screenChanged,
        title: {},
      }),
    );
  }

  /**
   * Set the field's text (replacing what was there), then read the field back: the input is
   * typed again only when the field is seen holding something else (the device dropped it),
   * never because the rest of the screen did not change. Leaves the field focused and the soft
   * keyboard up, as typing does on a phone (`app.hideKeyboard()` hides it). The text is in the
   * step's title unless it is a secret — `fill(secret(process.env.PW))`, or `secret: true` —
   * or the field is a password field: then the title shows `***`, and the runtime masks it in
   * its audit log.
   *
   * @example
   * ```ts
   * await app.getById('email').fill('ana@example.com');
   * await app.getById('password').fill(secret(process.env.SHOP_PASSWORD));
   * ```
   */
  fill(value: string | Secret, opts: { timeout?: number; secret?: boolean } = {}): Promise<void> {
    return this.driver.wrap('locator.fill', opts, (call) => {
      if (typeof value !== 'string' && !isSecret(value))
        throw call.error(`expected a string or secret(…) value, got ${value === null ? 'null' : typeof value}`, {
          code: 'USAGE',
        });
      const text = isSecret(value) ? revealSecret(value) : value;
      const hidden = isSecret(value) || opts.secret === true;
      const title = hidden
        ? { text: '***' }
        : text === ''
          ? { text }
          : (node: UiNode | null) => ({ text: node && !node.password ? text : '***' });
      const action = { tool: 'ui_set_text' as const, args: { text }, took: fieldHolds(this.steps, text), title };
      return act(call, this, action).catch(async (e: unknown) => Promise.reject(await fillError(call, this, e)));
    });
  }

  /**
   * Empty the field: `fill('')`.
   *
   * @example
   * ```ts
   * await app.getById('title').clear();
   * ```
   */
  clear(opts: { timeout?: number } = {}): Promise<void> {
    return this.fill('', opts);
  }

  /**
   * Scroll the screen's list until this locator's node is visible (no tap). Fails like an action
   * when the list ends both ways without it. While the list shows a progress indicator (its next
   * page loading) it waits instead of turning back. On a runtime with the `selector_actions`
   * extension the device scrolls and looks, in one round trip.
   *
   * @example
   * ```ts
   * await app.getByText('Product 150').scrollIntoView({ timeout: 30_000 });
   * ```
   */
  scrollIntoView(opts: { timeout?: number } = {}): Promise<void> {
    return this.driver.wrap('locator.scrollIntoView', opts, (call) => scrollIntoView(call, this));
  }

  /**
   * Swipe across this node (a list, a carousel, a row that reveals actions): from its center
   * towards `direction`, over `distance` of its size (0..1, default 0.6), in `duration` ms
   * (default 300). It waits for the node to be visible and stable, not enabled, and does not
   * scroll to find it.
   *
   * @example
   * ```ts
   * await app.getById('products').swipe('up');
   * await app.getById('products').swipe('down', { distance: 0.9, duration: 500 });
   * ```
   */
  swipe(
    direction: 'up' | 'down' | 'left' | 'right',
    opts: { distance?: number; duration?: number; timeout?: number } = {},
  ): Promise<void> {
    return this.driver.wrap('locator.swipe', opts, (call) => swipe(call, this, direction, opts));
  }

  /**
   * Focus the node (tap, waiting as {@link Locator.tap} does) and press a key, e.g. `'enter'`.
   *
   * @example
   * ```ts
   * await app.getById('message_input').fill('Hi');
   * await app.getById('message_input').press('enter');
   * ```
   */
  async press(key: Key): Promise<void> {
    await this.tap();
    await this.driver.wrap('locator.press', {}, (call) => pressKey(call, this.driver, key, this.toString()));
  }

  /**
   * How many nodes match now (one observation, no waiting). To wait for a number, use
   * `expect(locator).toHaveCount(n)`.
   *
   * @example
   * ```ts
   * const notes = await app.getById('note_row').count();
   * ```
   */
  count(): Promise<number> {
    return this.driver.wrap('locator.count', {}, async (call) => (await this.resolve(call)).nodes.length);
  }

  /**
   * A locator per current match (`nth(0)`, `nth(1)`, …), counted now, no waiting.
   *
   * @example
   * ```ts
   * for (const row of await app.getById('note_row').all()) console.log(await row.textContent());
   * ```
   */
  async all(): Promise<Locator[]> {
    const n = await this.count();
    return Array.from({ length: n }, (_, i) => this.nth(i));
  }

  /**
   * Whether exactly one node matches now (no waiting); more than one is a
   * {@link StrictModeViolationError}. To wait, use `expect(locator).toBeVisible()`.
   *
   * @example
   * ```ts
   * if (await app.getByRole('button', { name: 'Allow' }).isVisible()) await app.getByRole('button', { name: 'Allow' }).tap();
   * ```
   */
  isVisible(): Promise<boolean> {
    return this.driver.wrap('locator.isVisible', {}, (call) => reads.isVisible(call, this));
  }

  /**
   * The node's full text: its own and its descendants', in tree order, joined by a space (a node
   * without text counts with its content description). The same text `toHaveText`,
   * `toContainText` and `filter({ hasText })` read; an editable field counts with its value.
   * Waits for exactly one match. `''` when neither the node nor its descendants have text (an
   * empty field, as an empty `<input>` reads in Playwright).
   *
   * @example
   * ```ts
   * const total = await app.getById('total').textContent();
   * ```
   */
  textContent(opts: { timeout?: number } = {}): Promise<string> {
    return this.driver.wrap('locator.textContent', opts, (call) => reads.textContent(call, this));
  }

  /**
   * The full text of every current match, in screen order (no waiting, like Playwright's); `''`
   * for a match with none.
   *
   * @example
   * ```ts
   * const titles = await app.getById('note_title').allTextContents();
   * ```
   */
  allTextContents(): Promise<string[]> {
    return this.driver.wrap('locator.allTextContents', {}, (call) => reads.allTextContents(call, this));
  }

  /**
   * The node's place on the space's screen in pixels, now (no waiting); null when nothing
   * matches, a {@link StrictModeViolationError} when more than one node does.
   *
   * @example
   * ```ts
   * const box = await app.getById('new_note').boundingBox();
   * expect(box?.width).toBeGreaterThan(0);
   * ```
   */
  boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null> {
    return this.driver.wrap('locator.boundingBox', {}, (call) => reads.boundingBox(call, this));
  }
}

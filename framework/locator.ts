import { fieldHolds, formatTitle, screenChanged, toWireSteps, TOOLS, waitForActionable, type ActionabilityIO, type Key, type Observation, type Took, type UiNode } from '../device-runtime/protocol/index.js';
import { DeviceError } from '../device-runtime/client/index.js';
import { isSecret, revealSecret, type Secret } from './ai/secret.js';
import type { AppDriver } from './driver.js';
import { callSite, type HealedTarget } from './heal/healer.js';
import { describeScreen, NestwrightError, StrictModeViolationError, TimeoutError } from './errors.js';
import { formatSteps, fullText, parseSelector, resolveSteps, type Step, type TextMatch } from './selector.js';

/** What `getByRole(role, options)` narrows by, besides the role. Unset fields match anything. */
export interface RoleOptions {
  /** The accessible name: the node's text or content description (substring, case-insensitive; a RegExp tests it). */
  name?: string | RegExp;
  /** Match `name` whole and case-sensitive. */
  exact?: boolean;
  /** A checkbox, switch or radio button in that state. */
  checked?: boolean;
  /** Disabled (true) or enabled (false). */
  disabled?: boolean;
  /** Selected (a tab, a list row). */
  selected?: boolean;
  /** Holding the input focus. */
  focused?: boolean;
}

const textMatch = (text: string | RegExp, exact = false): TextMatch => ({ text, exact });

/**
 * The `getBy*` methods, shared by {@link App} (searching the whole screen) and {@link Locator}
 * (searching below each of its matches). They only describe: nothing is looked up until an
 * action or assertion runs.
 */
export abstract class LocatorFactory {
  protected abstract chain(steps: Step[]): Locator;
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
    return this.chain([{ kind: 'text', ...textMatch(text, opts.exact) }]);
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
    return this.chain([{ kind: 'desc', ...textMatch(text, opts.exact) }]);
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
    return this.chain([{ kind: 'id', id }]);
  }
  /**
   * Nodes of an accessibility role (`button`, `checkbox`, `textbox`, `listitem`, …, as the
   * observation names them), narrowed by name and state ({@link RoleOptions}). Selector form:
   * `role=button[name="Save"][disabled=false]`.
   *
   * @example
   * ```ts
   * await app.getByRole('button', { name: 'Save' }).tap();
   * await expect(app.getByRole('checkbox', { name: 'I accept the terms', checked: true })).toBeVisible();
   * ```
   */
  getByRole(role: string, opts: RoleOptions = {}): Locator {
    const { name, exact, ...states } = opts;
    return this.chain([{ kind: 'role', role, ...(name !== undefined ? { name: textMatch(name, exact) } : {}), ...states }]);
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
    return this.chain(parseSelector(selector));
  }
}

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
export class Locator extends LocatorFactory {
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

  private sameApp(other: unknown, api: string): asserts other is Locator {
    assertLocator(other, api);
    if (other.driver !== this.driver) {
      throw new NestwrightError(api, `the two locators belong to different app instances (${this.driver.who()} and ${other.driver.who()}); combine locators of one app`);
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
  async resolve(api: string): Promise<{ nodes: UiNode[]; obs: Observation }> {
    const obs = await this.driver.watch.observe(api);
    return { nodes: obs.tree_missing ? [] : resolveSteps(obs.nodes, this.steps), obs };
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
  async waitForActionable(api: string, opts: { timeout?: number; enabled?: boolean; scroll?: boolean; log?: string[] } = {}): Promise<{ node: UiNode; obs: Observation }> {
    const timeout = opts.timeout ?? this.driver.timeout(undefined);
    const log = opts.log ?? [];
    const d = this.driver;
    const io: ActionabilityIO = {
      observe: () => d.watch.observe(api),
      scroll: async (direction) => (await d.calls.call(api, 'ui_scroll', { space_id: d.spaceId, direction, amount: 1 })).moved,
      hideKeyboard: async () => void (await d.calls.call(api, 'ui_key', { space_id: d.spaceId, key: 'back' })),
      clock: d.clock,
    };
    const r = await waitForActionable(io, this.steps, { timeoutMs: timeout, ...(opts.enabled !== undefined ? { enabled: opts.enabled } : {}), ...(opts.scroll !== undefined ? { scroll: opts.scroll } : {}) }, log);
    if (r.status === 'ok') {
      d.options.heal?.resolved(this, r.node, r.obs);
      return r;
    }
    if (r.status === 'ambiguous') throw new StrictModeViolationError(api, this.toString(), r.nodes);
    throw new TimeoutError(api, `timeout ${d.describeTimeout(timeout)} exceeded.\nCall log:\n${formatLog(log)}\nScreen:\n${describeScreen(r.obs)}`, log, r.obs);
  }

  private title(tool: keyof typeof TOOLS, extra: Record<string, unknown> = {}): string {
    return formatTitle(TOOLS[tool].title, extra, { target: this.toString() });
  }

  /**
   * Resolve, act on the node from that very snapshot (retrying if the screen changed in
   * between), then verify: a device may answer ok and drop the input, so when the screen shows
   * no effect after a short wait the action is repeated (twice at most). On a runtime with the
   * `selector_actions` extension all of it happens on the device, in one round trip.
   */
  private act(
    api: string,
    tool: 'ui_tap' | 'ui_long_press' | 'ui_set_text',
    args: Record<string, unknown>,
    opts: { timeout?: number } = {},
    extraTitle: Record<string, unknown> | ((node: UiNode | null) => Record<string, unknown>) = {},
    took: Took = screenChanged,
  ): Promise<void> {
    // Tracked whole, not only its step: part of it runs before the step opens.
    const work = this.actUntracked(api, tool, args, opts, extraTitle, took);
    return this.driver.options.scope ? this.driver.options.scope.track(work) : work;
  }

  private async actUntracked(
    api: string,
    tool: 'ui_tap' | 'ui_long_press' | 'ui_set_text',
    args: Record<string, unknown>,
    opts: { timeout?: number },
    extraTitle: Record<string, unknown> | ((node: UiNode | null) => Record<string, unknown>),
    took: Took,
  ): Promise<void> {
    const started = Date.now();
    const trips = this.driver.calls.roundTrips;
    // Where the test called this action: healing looks it up, and after an await it is gone from the stack.
    const at = this.driver.options.heal ? callSite() : undefined;
    const timeout = this.driver.timeout(opts.timeout);
    const deadline = started + timeout;
    const log: string[] = [];
    const find = async (): Promise<{ node: UiNode; obs: Observation }> => {
      try {
        return await this.waitForActionable(api, { timeout: Math.max(1, deadline - Date.now()), log });
      } catch (e) {
        if (e instanceof TimeoutError) throw new TimeoutError(api, `timeout ${this.driver.describeTimeout(timeout)} exceeded.\nCall log:\n${formatLog(log)}\nScreen:\n${describeScreen(e.observation)}`, log, e.observation);
        throw e;
      }
    };
    // What happens before the step opens: on the selector_actions path the whole action (one
    // round trip); otherwise, for a title that depends on the node (a password field's text is
    // never shown), its first resolution. The step's record still counts that time and those
    // round trips. A node never found gives the title for `null`.
    let first: { found?: { node: UiNode; obs: Observation }; done?: DeviceDone; error?: unknown } | null = null;
    if (await this.driver.resolvesOnDevice()) first = await this.actOnDevice(api, tool, args, timeout).then((done) => ({ done }), (error: unknown) => ({ error }));
    else if (typeof extraTitle === 'function') first = await find().then((found) => ({ found }), (error: unknown) => ({ error }));
    const title = this.title(tool, typeof extraTitle === 'function' ? extraTitle(first?.found?.node ?? first?.done?.node ?? null) : extraTitle);
    await this.driver.steps.step({ kind: 'action', api, title, selector: this.toString(), roundTripsFrom: trips }, async (record) => {
      record.startedAt = started;
      if (first?.done) {
        record.node = first.done.node;
        record.before = first.done.before;
        record.after = first.done.after;
        return;
      }
      let attempts = 0;
      let healed: HealedTarget | null = null;
      for (;;) {
        let found: { node: UiNode; obs: Observation };
        try {
          if (first && 'error' in first) throw first.error;
          found = first?.found ?? (await find());
        } catch (error) {
          // Nothing (or several) matched: healing may name the node, or add why not to the error.
          if (!this.driver.options.heal) throw error;
          found = healed = await this.driver.options.heal.missed({ api, locator: this, error, record, ...(at ? { at } : {}) });
        } finally {
          first = null;
        }
        const { node, obs } = found;
        record.node = node;
        record.before ??= obs.snapshot_id;
        try {
          await this.driver.calls.raw(tool, { space_id: this.driver.spaceId, node_id: node.id, snapshot_id: obs.snapshot_id, ...args } as never);
        } catch (e) {
          if (e instanceof DeviceError && (e.code === 'SNAPSHOT_STALE' || e.code === 'NODE_NOT_FOUND') && Date.now() < deadline) {
            log.push(`  the screen changed before the action (${e.code}); resolving again`);
            continue;
          }
          throw await this.driver.calls.translate(api, e);
        }
        attempts++;
        const after = await this.driver.settle(api, obs, node, took);
        record.after = after.obs.snapshot_id;
        // A healed step has no time left, but a dropped input still gets its repeats.
        if (after.effect || attempts >= 3 || (!healed && Date.now() >= deadline)) {
          await healed?.verify(after);
          break;
        }
        log.push(`  no effect on screen after the action; repeating it (the device may have dropped the input)`);
      }
    });
  }

  /**
   * The `selector_actions` path: one call; the device waits, acts, verifies and answers with the
   * screen after. A locator that matched nothing (or several) throws as the client-side wait
   * does, so healing takes it from there.
   */
  private async actOnDevice(api: string, tool: 'ui_tap' | 'ui_long_press' | 'ui_set_text', args: Record<string, unknown>, timeout: number): Promise<DeviceDone> {
    const d = this.driver;
    const heal = d.options.heal;
    try {
      const r = await d.calls.raw(tool, {
        space_id: d.spaceId,
        selector: toWireSteps(this.steps),
        wait: { timeout_ms: timeout, enabled: true, scroll: true },
        app: { package: d.pkg, ...(d.instance ? { instance: d.instance } : {}) },
        max_nodes: 400,
        observe_before: !!heal,
        ...args,
      } as never);
      // The fingerprint is of what the locator names (as on the client-side path), not of the
      // clickable ancestor a tap may land on.
      const named = r.matched ?? r.node;
      if (named && r.observation_before) heal?.resolved(this, named, r.observation_before);
      if (r.observation) d.calls.lastSeen = r.observation;
      return { node: r.node, before: r.snapshot_id ?? null, after: r.observation?.snapshot_id ?? null };
    } catch (e) {
      throw await this.deviceWaitError(api, e, timeout);
    }
  }

  /**
   * `scrollIntoView` on the `selector_actions` path: one ui_scroll with the selector; the device
   * scrolls the list until the node is in view and answers with it and the screen it is on.
   */
  private async scrollOnDevice(api: string, timeout: number): Promise<{ node: UiNode; obs: Observation }> {
    const d = this.driver;
    try {
      const r = await d.calls.raw('ui_scroll', {
        space_id: d.spaceId,
        selector: toWireSteps(this.steps),
        wait: { timeout_ms: timeout, enabled: false, scroll: true },
        app: { package: d.pkg, ...(d.instance ? { instance: d.instance } : {}) },
        max_nodes: 400,
      } as never);
      if (!r.node || !r.observation) throw new NestwrightError(api, 'the runtime answered ui_scroll with a selector without the node or the observation (selector_actions)');
      d.calls.lastSeen = r.observation;
      d.options.heal?.resolved(this, r.node, r.observation);
      return { node: r.node, obs: r.observation };
    } catch (e) {
      throw await this.deviceWaitError(api, e, timeout);
    }
  }

  /** A device-side wait's TIMEOUT or AMBIGUOUS_TARGET as the client-side wait throws it (with its log and screen); other errors translated. */
  private async deviceWaitError(api: string, e: unknown, timeout: number): Promise<unknown> {
    const d = this.driver;
    if (e instanceof DeviceError && (e.code === 'TIMEOUT' || e.code === 'AMBIGUOUS_TARGET')) {
      const details = (e.details ?? {}) as { log?: string[]; observation?: Observation | null; matches?: UiNode[] };
      const obs = details.observation ?? null;
      if (obs) d.calls.lastSeen = obs;
      const log = details.log ?? [];
      return e.code === 'AMBIGUOUS_TARGET'
        ? new StrictModeViolationError(api, this.toString(), details.matches ?? [])
        : new TimeoutError(api, `timeout ${d.describeTimeout(timeout)} exceeded.\nCall log:\n${formatLog(log)}\nScreen:\n${describeScreen(obs)}`, log, obs);
    }
    return d.calls.translate(api, e);
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
    return this.act('locator.tap', 'ui_tap', {}, opts);
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
    return this.act('locator.longPress', 'ui_long_press', { duration_ms: opts.duration ?? 800 }, opts);
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
    if (typeof value !== 'string' && !isSecret(value)) {
      return Promise.reject(new NestwrightError('locator.fill', `expected a string or secret(…) value, got ${value === null ? 'null' : typeof value}`));
    }
    const text = isSecret(value) ? revealSecret(value) : value;
    const hidden = isSecret(value) || opts.secret === true;
    const title = hidden ? { text: '***' } : text === '' ? { text } : (node: UiNode | null) => ({ text: node && !node.password ? text : '***' });
    return this.act('locator.fill', 'ui_set_text', { text }, opts, title, fieldHolds(this.steps, text));
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
  async scrollIntoView(opts: { timeout?: number } = {}): Promise<void> {
    const api = 'locator.scrollIntoView';
    const timeout = this.driver.timeout(opts.timeout);
    await this.driver.steps.step({ kind: 'action', api, title: `Scroll ${this} into view`, selector: this.toString() }, async (record) => {
      const { node, obs } = (await this.driver.resolvesOnDevice()) ? await this.scrollOnDevice(api, timeout) : await this.waitForActionable(api, { enabled: false, timeout });
      record.node = node;
      record.before = record.after = obs.snapshot_id;
    });
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
  async swipe(direction: 'up' | 'down' | 'left' | 'right', opts: { distance?: number; duration?: number; timeout?: number } = {}): Promise<void> {
    const api = 'locator.swipe';
    const distance = Math.min(0.95, Math.max(0.05, opts.distance ?? 0.6));
    await this.driver.steps.step({ kind: 'action', api, title: `Swipe ${direction} on ${this}`, selector: this.toString() }, async (record) => {
      const { node, obs } = await this.waitForActionable(api, { enabled: false, scroll: false, timeout: this.driver.timeout(opts.timeout) });
      record.node = node;
      record.before = obs.snapshot_id;
      const [l, t, r, b] = node.bounds;
      const cx = Math.round((l + r) / 2);
      const cy = Math.round((t + b) / 2);
      const dx = Math.round(((r - l) * distance) / 2);
      const dy = Math.round(((b - t) * distance) / 2);
      const [from, to]: [[number, number], [number, number]] =
        direction === 'up' ? [[cx, cy + dy], [cx, cy - dy]] : direction === 'down' ? [[cx, cy - dy], [cx, cy + dy]] : direction === 'left' ? [[cx + dx, cy], [cx - dx, cy]] : [[cx - dx, cy], [cx + dx, cy]];
      await this.driver.calls.call(api, 'ui_swipe', { space_id: this.driver.spaceId, from, to, duration_ms: opts.duration ?? 300 });
      const after = await this.driver.watch.observe(api);
      record.after = after.snapshot_id;
    });
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
    await this.driver.steps.step({ kind: 'action', api: 'locator.press', title: formatTitle(TOOLS.ui_key.title, { key }), selector: this.toString() }, async () => {
      await this.driver.calls.call('locator.press', 'ui_key', { space_id: this.driver.spaceId, key });
    });
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
  async count(): Promise<number> {
    return (await this.resolve('locator.count')).nodes.length;
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
  async isVisible(): Promise<boolean> {
    const { nodes } = await this.resolve('locator.isVisible');
    if (nodes.length > 1) throw new StrictModeViolationError('locator.isVisible', this.toString(), nodes);
    return nodes.length === 1;
  }

  /**
   * The node's full text: its own and its descendants', in tree order, joined by a space (a node
   * without text counts with its content description). The same text `toHaveText`,
   * `toContainText` and `filter({ hasText })` read. Waits for exactly one match. Null when
   * neither the node nor its descendants have text.
   *
   * @example
   * ```ts
   * const total = await app.getById('total').textContent();
   * ```
   */
  async textContent(opts: { timeout?: number } = {}): Promise<string | null> {
    const { node, obs } = await this.waitForActionable('locator.textContent', { enabled: false, timeout: this.driver.timeout(opts.timeout) });
    return fullText(obs.nodes, node);
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
  async allTextContents(): Promise<string[]> {
    const { nodes, obs } = await this.resolve('locator.allTextContents');
    return nodes.map((n) => fullText(obs.nodes, n) ?? '');
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
  async boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null> {
    const { nodes } = await this.resolve('locator.boundingBox');
    if (nodes.length > 1) throw new StrictModeViolationError('locator.boundingBox', this.toString(), nodes);
    const b = nodes[0]?.bounds;
    return b ? { x: b[0], y: b[1], width: b[2] - b[0], height: b[3] - b[1] } : null;
  }
}

/** Playwright's call-log layout: a line per wait, its details indented below it. */
function formatLog(log: string[]): string {
  return log.map((l) => (l.startsWith('  ') ? `    - ${l.trimStart()}` : `  - ${l}`)).join('\n');
}

export function assertLocator(value: unknown, api: string): asserts value is Locator {
  if (!(value instanceof Locator)) throw new NestwrightError(api, `expected a nestwright Locator (app.getByText(…) and friends), got ${typeof value}`);
}

/** What the selector_actions path did: the node acted on and the snapshots before and after. */
interface DeviceDone {
  node: UiNode | null;
  before: string | null;
  after: string | null;
}

import { fieldHolds, formatTitle, REAL_CLOCK, screenChanged, toWireSteps, TOOLS, waitForActionable, type ActionabilityIO, type Key, type Observation, type Took, type UiNode } from '../device-runtime/protocol/index.js';
import { DeviceError } from '../device-runtime/client/index.js';
import type { AppDriver } from './driver.js';
import type { TrajectoryStep } from './trajectory.js';
import type { HealedTarget } from './heal/healer.js';
import { describeScreen, NestwrightError, StrictModeViolationError, TimeoutError } from './errors.js';
import { formatSteps, fullText, parseSelector, resolveSteps, type Step, type TextMatch } from './selector.js';

export interface RoleOptions {
  name?: string | RegExp;
  exact?: boolean;
  checked?: boolean;
  disabled?: boolean;
  selected?: boolean;
  focused?: boolean;
}

const textMatch = (text: string | RegExp, exact = false): TextMatch => ({ text, exact });

/** Build locators from steps; shared by App (whole screen) and Locator (inside a match). */
export abstract class LocatorFactory {
  protected abstract chain(steps: Step[]): Locator;
  getByText(text: string | RegExp, opts: { exact?: boolean } = {}): Locator {
    return this.chain([{ kind: 'text', ...textMatch(text, opts.exact) }]);
  }
  getByDesc(text: string | RegExp, opts: { exact?: boolean } = {}): Locator {
    return this.chain([{ kind: 'desc', ...textMatch(text, opts.exact) }]);
  }
  getById(id: string): Locator {
    return this.chain([{ kind: 'id', id }]);
  }
  getByRole(role: string, opts: RoleOptions = {}): Locator {
    const { name, exact, ...states } = opts;
    return this.chain([{ kind: 'role', role, ...(name !== undefined ? { name: textMatch(name, exact) } : {}), ...states }]);
  }
  locator(selector: string): Locator {
    return this.chain(parseSelector(selector));
  }
}

/**
 * An immutable, lazy description of nodes on the screen of one app instance. Nothing touches the
 * device until an action or assertion runs; then it is resolved against a fresh observation,
 * strictly (one match) for actions, and waited for until actionable.
 */
export class Locator extends LocatorFactory {
  constructor(
    readonly driver: AppDriver,
    readonly steps: Step[],
  ) {
    super();
  }

  protected chain(steps: Step[]): Locator {
    return new Locator(this.driver, [...this.steps, ...steps]);
  }

  override toString(): string {
    return formatSteps(this.steps);
  }

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
   * order: `app.getByRole('button', { name: 'Allow' }).or(app.getByText('Allowed'))`.
   */
  or(other: Locator): Locator {
    this.sameApp(other, 'locator.or');
    return new Locator(this.driver, [...this.steps, { kind: 'or', other: other.steps }]);
  }

  /** Nodes that match both this locator and `other`: `app.getByRole('button').and(app.getById('login'))`. */
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

  nth(index: number): Locator {
    return this.chain([{ kind: 'nth', index }]);
  }
  first(): Locator {
    return this.nth(0);
  }
  last(): Locator {
    return this.nth(-1);
  }

  /** All current matches in one observation (no waiting). */
  async resolve(api: string): Promise<{ nodes: UiNode[]; obs: Observation }> {
    const obs = await this.driver.observe(api);
    return { nodes: obs.tree_missing ? [] : resolveSteps(obs.nodes, this.steps), obs };
  }

  /**
   * Wait until exactly one node matches and it is visible, enabled (unless `enabled: false`) and
   * stable (same bounds in two observations in a row), then return it with its snapshot. While
   * nothing matches and the screen has a scrollable list, scroll it (down to its end, then back
   * up) to bring the node into view, as a user would. The loop is the protocol's
   * (device-runtime/protocol/actionability.ts), here over tool calls.
   */
  async waitForActionable(api: string, opts: { timeout?: number; enabled?: boolean; scroll?: boolean; log?: string[] } = {}): Promise<{ node: UiNode; obs: Observation }> {
    const timeout = opts.timeout ?? this.driver.timeout(undefined);
    const log = opts.log ?? [];
    const d = this.driver;
    const io: ActionabilityIO = {
      observe: () => d.observe(api),
      scroll: async (direction) => (await d.call(api, 'ui_scroll', { space_id: d.spaceId, direction, amount: 1 })).moved,
      hideKeyboard: async () => void (await d.call(api, 'ui_key', { space_id: d.spaceId, key: 'back' })),
      clock: REAL_CLOCK,
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
  private async act(
    api: string,
    tool: 'ui_tap' | 'ui_long_press' | 'ui_set_text',
    args: Record<string, unknown>,
    opts: { timeout?: number } = {},
    extraTitle: Record<string, unknown> = {},
    took: Took = screenChanged,
  ): Promise<void> {
    await this.driver.step({ kind: 'action', api, title: this.title(tool, extraTitle), selector: this.toString() }, async (record) => {
      const timeout = this.driver.timeout(opts.timeout);
      // The device path answers null when done, or the healed target when the locator missed.
      let pre = (await this.driver.resolvesOnDevice()) ? await this.actOnDevice(api, tool, args, timeout, record) : undefined;
      if (pre === null) return;
      const deadline = Date.now() + timeout;
      const log: string[] = [];
      let attempts = 0;
      let healed: HealedTarget | null = pre ?? null;
      for (;;) {
        let found: { node: UiNode; obs: Observation };
        try {
          if (pre) {
            found = pre;
            pre = undefined;
          } else found = await this.waitForActionable(api, { timeout: Math.max(1, deadline - Date.now()), log });
        } catch (e) {
          const error = e instanceof TimeoutError ? new TimeoutError(api, `timeout ${this.driver.describeTimeout(timeout)} exceeded.\nCall log:\n${formatLog(log)}\nScreen:\n${describeScreen(e.observation)}`, log, e.observation) : e;
          // Nothing (or several) matched: healing may name the node, or add why not to the error.
          if (!this.driver.options.heal) throw error;
          found = healed = await this.driver.options.heal.missed({ api, locator: this, error, record });
        }
        const { node, obs } = found;
        record.node = node;
        record.before ??= obs.snapshot_id;
        try {
          await this.driver.raw(tool, { space_id: this.driver.spaceId, node_id: node.id, snapshot_id: obs.snapshot_id, ...args } as never);
        } catch (e) {
          if (e instanceof DeviceError && (e.code === 'SNAPSHOT_STALE' || e.code === 'NODE_NOT_FOUND') && Date.now() < deadline) {
            log.push(`  the screen changed before the action (${e.code}); resolving again`);
            continue;
          }
          throw await this.driver.translate(api, e);
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
   * screen after. Null when done; when the locator missed and healing names a node, that target
   * (the caller acts on it from here).
   */
  private async actOnDevice(api: string, tool: 'ui_tap' | 'ui_long_press' | 'ui_set_text', args: Record<string, unknown>, timeout: number, record: TrajectoryStep): Promise<HealedTarget | null> {
    const d = this.driver;
    const heal = d.options.heal;
    try {
      const r = await d.raw(tool, {
        space_id: d.spaceId,
        selector: toWireSteps(this.steps),
        wait: { timeout_ms: timeout, enabled: true, scroll: true },
        app: { package: d.pkg, ...(d.instance ? { instance: d.instance } : {}) },
        max_nodes: 400,
        observe_before: !!heal,
        ...args,
      } as never);
      record.node = r.node;
      record.before = r.snapshot_id ?? null;
      if (r.node && r.observation_before) heal?.resolved(this, r.node, r.observation_before);
      if (r.observation) {
        d.lastSeen = r.observation;
        record.after = r.observation.snapshot_id;
      }
      return null;
    } catch (e) {
      if (e instanceof DeviceError && (e.code === 'TIMEOUT' || e.code === 'AMBIGUOUS_TARGET')) {
        const details = (e.details ?? {}) as { log?: string[]; observation?: Observation | null; matches?: UiNode[] };
        const obs = details.observation ?? null;
        if (obs) d.lastSeen = obs;
        const log = details.log ?? [];
        const error =
          e.code === 'AMBIGUOUS_TARGET'
            ? new StrictModeViolationError(api, this.toString(), details.matches ?? [])
            : new TimeoutError(api, `timeout ${d.describeTimeout(timeout)} exceeded.\nCall log:\n${formatLog(log)}\nScreen:\n${describeScreen(obs)}`, log, obs);
        // Nothing (or several) matched: healing may name the node, or add why not to the error.
        if (!heal) throw error;
        return heal.missed({ api, locator: this, error, record });
      }
      throw await d.translate(api, e);
    }
  }

  tap(opts: { timeout?: number } = {}): Promise<void> {
    return this.act('locator.tap', 'ui_tap', {}, opts);
  }

  longPress(opts: { duration?: number; timeout?: number } = {}): Promise<void> {
    return this.act('locator.longPress', 'ui_long_press', { duration_ms: opts.duration ?? 800 }, opts);
  }

  /**
   * Set the field's text (replacing what was there), then read the field back: the input is
   * typed again only when the field is seen holding something else (the device dropped it),
   * never because the rest of the screen did not change. Leaves the field focused and the soft
   * keyboard up, as typing does on a phone (`app.hideKeyboard()` hides it).
   */
  fill(value: string, opts: { timeout?: number; secret?: boolean } = {}): Promise<void> {
    // A secret (typed by app.ai.act for a secret() param) is never in the step's title.
    return this.act('locator.fill', 'ui_set_text', { text: value }, opts, { text: opts.secret ? '***' : value }, fieldHolds(this.steps, value));
  }

  clear(opts: { timeout?: number } = {}): Promise<void> {
    return this.fill('', opts);
  }

  /**
   * Scroll the screen's list until this locator's node is visible (no tap). Fails like an action
   * when the list ends both ways without it.
   */
  async scrollIntoView(opts: { timeout?: number } = {}): Promise<void> {
    await this.driver.step({ kind: 'action', api: 'locator.scrollIntoView', title: `Scroll ${this} into view`, selector: this.toString() }, async (record) => {
      const { node, obs } = await this.waitForActionable('locator.scrollIntoView', { enabled: false, timeout: this.driver.timeout(opts.timeout) });
      record.node = node;
      record.before = record.after = obs.snapshot_id;
    });
  }

  /**
   * Swipe across this node (a list, a carousel, a row that reveals actions): from its center
   * towards `direction`, over `distance` of its size (0..1, default 0.6).
   */
  async swipe(direction: 'up' | 'down' | 'left' | 'right', opts: { distance?: number; duration?: number; timeout?: number } = {}): Promise<void> {
    const api = 'locator.swipe';
    const distance = Math.min(0.95, Math.max(0.05, opts.distance ?? 0.6));
    await this.driver.step({ kind: 'action', api, title: `Swipe ${direction} on ${this}`, selector: this.toString() }, async (record) => {
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
      await this.driver.call(api, 'ui_swipe', { space_id: this.driver.spaceId, from, to, duration_ms: opts.duration ?? 300 });
      const after = await this.driver.observe(api);
      record.after = after.snapshot_id;
    });
  }

  /** Focus the node (tap) and press a key, e.g. 'enter'. */
  async press(key: Key): Promise<void> {
    await this.tap();
    await this.driver.step({ kind: 'action', api: 'locator.press', title: formatTitle(TOOLS.ui_key.title, { key }), selector: this.toString() }, async () => {
      await this.driver.call('locator.press', 'ui_key', { space_id: this.driver.spaceId, key });
    });
  }

  async count(): Promise<number> {
    return (await this.resolve('locator.count')).nodes.length;
  }

  async all(): Promise<Locator[]> {
    const n = await this.count();
    return Array.from({ length: n }, (_, i) => this.nth(i));
  }

  async isVisible(): Promise<boolean> {
    const { nodes } = await this.resolve('locator.isVisible');
    if (nodes.length > 1) throw new StrictModeViolationError('locator.isVisible', this.toString(), nodes);
    return nodes.length === 1;
  }

  /**
   * The node's full text: its own and its descendants', in tree order, joined by a space (a node
   * without text counts with its content description). The same text `toHaveText`,
   * `toContainText` and `filter({ hasText })` read. Waits for exactly one match.
   */
  async textContent(opts: { timeout?: number } = {}): Promise<string | null> {
    const { node, obs } = await this.waitForActionable('locator.textContent', { enabled: false, timeout: this.driver.timeout(opts.timeout) });
    return fullText(obs.nodes, node);
  }

  /** The full text of every current match, in screen order (no waiting, like Playwright's). */
  async allTextContents(): Promise<string[]> {
    const { nodes, obs } = await this.resolve('locator.allTextContents');
    return nodes.map((n) => fullText(obs.nodes, n) ?? '');
  }

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

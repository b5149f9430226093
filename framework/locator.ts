import { formatTitle, TOOLS, type Key, type Observation, type UiNode } from '../device-runtime/protocol/index.js';
import { DeviceError } from '../device-runtime/client/index.js';
import type { AppDriver } from './driver.js';
import { describeNode, describeScreen, NestwrightError, StrictModeViolationError, TimeoutError } from './errors.js';
import { poll } from './poll.js';
import { formatSteps, parseSelector, resolveSteps, type Step, type TextMatch } from './selector.js';

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
   * stable (same bounds in two observations in a row), then return it with its snapshot.
   */
  async waitForActionable(api: string, opts: { timeout?: number; enabled?: boolean } = {}): Promise<{ node: UiNode; obs: Observation }> {
    const timeout = opts.timeout ?? this.driver.options.actionTimeout;
    const log: string[] = [`waiting for ${this}`];
    let last: Observation | null = null;
    let previous: UiNode | null = null;
    const r = await poll(timeout, async () => {
      const { nodes, obs } = await this.resolve(api);
      last = obs;
      if (obs.tree_missing) return note(log, 'accessibility tree missing (transition), retrying');
      if (nodes.length > 1) throw new StrictModeViolationError(api, this.toString(), nodes);
      const node = nodes[0];
      if (!node) return note(log, 'no match yet');
      if (opts.enabled !== false && !node.enabled) return note(log, `${describeNode(node)} is disabled, waiting`);
      if (!previous || previous.bounds.join() !== node.bounds.join()) {
        const moved = previous !== null;
        previous = node;
        return moved ? note(log, `${describeNode(node)} is moving, waiting for it to settle`) : { done: false };
      }
      log.push(`  resolved to ${describeNode(node)}`);
      return { done: true, value: { node, obs } };
    });
    if ('value' in r) return r.value;
    throw new TimeoutError(api, `timeout ${timeout}ms exceeded.\nCall log:\n${log.map((l) => `  - ${l}`).join('\n')}\nScreen:\n${describeScreen(last)}`, log, last);
  }

  private title(tool: keyof typeof TOOLS, extra: Record<string, unknown> = {}): string {
    return formatTitle(TOOLS[tool].title, { target: this.toString(), ...extra }).replace(/"(text=|role=|id=|desc=)/, '$1');
  }

  /** Resolve, act on the node from that very snapshot, and retry if the screen changed in between. */
  private async act(api: string, tool: 'ui_tap' | 'ui_long_press' | 'ui_set_text', args: Record<string, unknown>, extraTitle: Record<string, unknown> = {}): Promise<void> {
    await this.driver.step({ kind: 'action', api, title: this.title(tool, extraTitle), selector: this.toString() }, async (record) => {
      const deadline = Date.now() + this.driver.options.actionTimeout;
      for (;;) {
        const { node, obs } = await this.waitForActionable(api, { timeout: Math.max(1, deadline - Date.now()) });
        record.node = node;
        record.before ??= obs.snapshot_id;
        try {
          await this.driver.client.call(tool, { space_id: this.driver.spaceId, node_id: node.id, snapshot_id: obs.snapshot_id, ...args } as never);
          break;
        } catch (e) {
          if (e instanceof DeviceError && (e.code === 'SNAPSHOT_STALE' || e.code === 'NODE_NOT_FOUND') && Date.now() < deadline) continue;
          throw await this.driver.translate(api, e);
        }
      }
      const crash = await this.driver.crashed(api);
      if (crash) throw crash;
      const after = await this.driver.client.call('ui_observe', { space_id: this.driver.spaceId, max_nodes: 1 });
      record.after = after.snapshot_id;
    });
  }

  tap(): Promise<void> {
    return this.act('locator.tap', 'ui_tap', {});
  }

  longPress(opts: { duration?: number } = {}): Promise<void> {
    return this.act('locator.longPress', 'ui_long_press', { duration_ms: opts.duration ?? 800 });
  }

  fill(value: string): Promise<void> {
    return this.act('locator.fill', 'ui_set_text', { text: value }, { text: value });
  }

  clear(): Promise<void> {
    return this.act('locator.clear', 'ui_set_text', { text: '' }, { text: '' });
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

  async textContent(): Promise<string | null> {
    const { node } = await this.waitForActionable('locator.textContent', { enabled: false });
    return node.text ?? node.desc;
  }

  async boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null> {
    const { nodes } = await this.resolve('locator.boundingBox');
    if (nodes.length > 1) throw new StrictModeViolationError('locator.boundingBox', this.toString(), nodes);
    const b = nodes[0]?.bounds;
    return b ? { x: b[0], y: b[1], width: b[2] - b[0], height: b[3] - b[1] } : null;
  }
}

function note(log: string[], line: string): { done: false } {
  if (log[log.length - 1] !== `  ${line}`) log.push(`  ${line}`);
  return { done: false };
}

export function assertLocator(value: unknown, api: string): asserts value is Locator {
  if (!(value instanceof Locator)) throw new NestwrightError(api, `expected a nestwright Locator (app.getByText(…) and friends), got ${typeof value}`);
}

import { expect as base } from '@playwright/test';
import type { Observation, UiNode } from '../device-runtime/protocol/index.js';
import { App } from './app.js';
import { describeNode, describeScreen } from './errors.js';
import { Locator } from './locator.js';
import { poll } from './poll.js';
import { satisfies } from './ai/verdict.js';
import { matchText } from './selector.js';
import { toPassSkill } from './skills/index.js';

type MatcherState = { isNot: boolean; timeout?: number; utils: { printExpected(v: unknown): string; printReceived(v: unknown): string } };
type Check = { pass: boolean; received: string };

/**
 * Retry `check` against fresh observations until it gives the wanted answer or time runs out,
 * then report in Playwright's format: expected, received, the call log, and the screen.
 */
async function retrying(
  state: MatcherState,
  name: string,
  target: Locator | App,
  expected: string,
  timeout: number | undefined,
  check: (nodes: UiNode[], obs: Observation) => Check,
) {
  const driver = target.driver;
  const ms = timeout ?? state.timeout ?? driver.options.expectTimeout;
  const log: string[] = [];
  let last: { obs: Observation; result: Check } | null = null;
  const title = `Expect ${target instanceof Locator ? `${target} ` : ''}${state.isNot ? 'not ' : ''}${name}`;
  const run = async () => {
    const r = await poll(ms, async () => {
      const obs = await driver.observe(`expect.${name}`);
      const nodes = target instanceof Locator && !obs.tree_missing ? await resolveIn(target, obs) : [];
      const result = check(nodes, obs);
      last = { obs, result };
      const line = `${target instanceof Locator ? target.toString() : 'app'}: ${result.received}`;
      if (log[log.length - 1] !== line) log.push(line);
      return result.pass !== state.isNot ? { done: true, value: true } : { done: false };
    });
    return 'value' in r;
  };
  let ok = false;
  const failed = new Error(`${name} failed`);
  await driver
    .step({ kind: 'assertion', api: `expect.${name}`, title, selector: target instanceof Locator ? target.toString() : null }, async (rec) => {
      ok = await run();
      const l = last as { obs: Observation } | null;
      rec.before = l?.obs.snapshot_id ?? null;
      rec.after = rec.before;
      if (!ok) throw failed;
    })
    .catch((e) => {
      // Not getting the wanted answer is the matcher's failure, reported below; a crash or a
      // lost device is not an assertion result and ends the test as is.
      if (e !== failed) throw e;
    });
  const l = last as { obs: Observation; result: Check } | null;
  const pass = ok ? !state.isNot : state.isNot;
  const message = () =>
    `expect(${target instanceof Locator ? 'locator' : 'app'}).${state.isNot ? 'not.' : ''}${name}(${expected ? state.utils.printExpected(expected) : ''}) failed\n\n` +
    (target instanceof Locator ? `Locator: ${target}\n` : `App: ${target.package}${target.instance ? `@${target.instance}` : ''}\n`) +
    `Expected: ${state.isNot ? 'not ' : ''}${expected || name.replace(/^to/, '').replace(/([A-Z])/g, ' $1').trim().toLowerCase()}\n` +
    `Received: ${l?.result.received ?? '(nothing observed)'}\n` +
    `Timeout: ${ms}ms\n\nCall log:\n${log.map((x) => `  - ${x}`).join('\n')}\n\nScreen:\n${describeScreen(l?.obs ?? null)}`;
  return { pass, message, name, expected, actual: l?.result.received };
}

async function resolveIn(locator: Locator, obs: Observation): Promise<UiNode[]> {
  const { resolveSteps } = await import('./selector.js');
  return resolveSteps(obs.nodes, locator.steps);
}

const one = (nodes: UiNode[]) => (nodes.length === 1 ? nodes[0]! : null);
const many = (nodes: UiNode[]) => (nodes.length > 1 ? `${nodes.length} nodes (strict mode: use .first() or a more specific locator)` : null);

function locatorMatcher(name: string, predicate: (n: UiNode) => boolean, describe: (n: UiNode) => string) {
  return async function (this: MatcherState, received: Locator, opts: { timeout?: number } = {}) {
    return retrying(this, name, received, '', opts.timeout, (nodes) => {
      const n = one(nodes);
      return n ? { pass: predicate(n), received: describe(n) } : { pass: false, received: many(nodes) ?? 'no matching node' };
    });
  };
}

export const expect = base.extend({
  /** The retrying AI assertion (framework/ai): a grounded model verdict, re-asked only when the screen changes. */
  async toSatisfy(this: MatcherState, received: App, statement: string, opts: { timeout?: number } = {}) {
    return { name: 'toSatisfy', ...(await satisfies(received, statement, this.isNot, opts.timeout ?? this.timeout ?? received.driver.options.expectTimeout)) };
  },
  async toBeVisible(this: MatcherState, received: Locator, opts: { timeout?: number } = {}) {
    return retrying(this, 'toBeVisible', received, '', opts.timeout, (nodes) => {
      const n = one(nodes);
      return n ? { pass: true, received: `visible: ${describeNode(n)}` } : { pass: false, received: many(nodes) ?? 'not on screen' };
    });
  },
  async toBeHidden(this: MatcherState, received: Locator, opts: { timeout?: number } = {}) {
    return retrying(this, 'toBeHidden', received, '', opts.timeout, (nodes) =>
      nodes.length === 0 ? { pass: true, received: 'not on screen' } : { pass: false, received: `visible: ${nodes.map(describeNode).join('; ')}` },
    );
  },
  toBeEnabled: locatorMatcher('toBeEnabled', (n) => n.enabled, (n) => (n.enabled ? 'enabled' : 'disabled')),
  toBeDisabled: locatorMatcher('toBeDisabled', (n) => !n.enabled, (n) => (n.enabled ? 'enabled' : 'disabled')),
  toBeChecked: locatorMatcher('toBeChecked', (n) => !!n.checked, (n) => (n.checked ? 'checked' : 'unchecked')),
  toBeFocused: locatorMatcher('toBeFocused', (n) => n.focused, (n) => (n.focused ? 'focused' : 'not focused')),
  async toHaveText(this: MatcherState, received: Locator, expected: string | RegExp, opts: { timeout?: number } = {}) {
    return retrying(this, 'toHaveText', received, String(expected), opts.timeout, (nodes) => {
      const n = one(nodes);
      if (!n) return { pass: false, received: many(nodes) ?? 'no matching node' };
      return { pass: matchText(n.text ?? n.desc ?? '', { text: expected, exact: typeof expected === 'string' }), received: JSON.stringify(n.text ?? n.desc) };
    });
  },
  async toContainText(this: MatcherState, received: Locator, expected: string | RegExp, opts: { timeout?: number } = {}) {
    return retrying(this, 'toContainText', received, String(expected), opts.timeout, (nodes) => {
      const n = one(nodes);
      if (!n) return { pass: false, received: many(nodes) ?? 'no matching node' };
      return { pass: matchText(n.text ?? n.desc ?? '', { text: expected, exact: false }), received: JSON.stringify(n.text ?? n.desc) };
    });
  },
  async toHaveCount(this: MatcherState, received: Locator, expected: number, opts: { timeout?: number } = {}) {
    return retrying(this, 'toHaveCount', received, String(expected), opts.timeout, (nodes) => ({ pass: nodes.length === expected, received: String(nodes.length) }));
  },
  async toHaveActivity(this: MatcherState, received: App, expected: string, opts: { timeout?: number } = {}) {
    return retrying(this, 'toHaveActivity', received, expected, opts.timeout, (_, obs) => ({ pass: obs.activity === expected, received: obs.activity ?? 'none' }));
  },
  async toPassSkill(this: MatcherState, received: App, file: string, params: Record<string, unknown> = {}) {
    return toPassSkill(this.isNot, received, file, params);
  },
  async toBeInForeground(this: MatcherState, received: App, opts: { timeout?: number } = {}) {
    const ms = opts.timeout ?? this.timeout ?? received.driver.options.expectTimeout;
    const r = await poll(ms, async () => {
      const obs = await received.driver.client.call('ui_observe', { space_id: received.driver.spaceId, max_nodes: 1 });
      return received.driver.inFront(obs) !== this.isNot ? { done: true, value: obs } : { done: false };
    });
    const pass = 'value' in r ? !this.isNot : this.isNot;
    return { pass, name: 'toBeInForeground', message: () => `expect(app).${this.isNot ? 'not.' : ''}toBeInForeground() failed for ${received.package}@${received.instance}` };
  },
});

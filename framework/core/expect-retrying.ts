import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import type { App } from './app.js';
import { describeScreen } from './errors.js';
import { Locator } from './locator.js';
import { poll } from './poll.js';
import { fullText, resolveSteps } from './selector.js';
import { actuatorOf } from './actuators.js';

/**
 * The retrying loop under nestwright's matchers (expect.ts keeps the matchers and their docs):
 * fresh observations until the check gives the wanted answer or the call's deadline passes,
 * then Playwright's failure format.
 */

export type MatcherState = {
  isNot: boolean;
  timeout?: number;
  utils: { printExpected(v: unknown): string; printReceived(v: unknown): string };
};
type Check = { pass: boolean; received: string };
/**
 * What a failure message says was expected: the matcher's argument (`toHaveText('')` prints
 * `Expected: ""`), or, for a matcher without one, the state it checks (`Expected: visible`).
 */
type Expected = { value: unknown } | { state: string };

/**
 * Retry `check` against fresh observations until it gives the wanted answer or time runs out,
 * then report in Playwright's format: expected, received, the call log, and the screen.
 *
 * `count`: the check holds exactly when the locator names that many nodes (toBeVisible: 1,
 * toBeHidden: 0, toHaveCount: n). With the device-side actuator the device then waits for it
 * (ui_wait_for with the selector), in one round trip; `check` still words what the last look
 * received.
 */
export async function retrying(
  state: MatcherState,
  name: string,
  target: Locator | App,
  expected: Expected,
  timeout: number | undefined,
  check: (nodes: UiNode[], obs: Observation) => Check,
  count?: number,
) {
  const driver = target.driver;
  const locator = target instanceof Locator ? target : null;
  let last: { obs: Observation; result: Check } | null = null;
  let ok = false;
  const failed = new Error(`${name} failed`);
  const title = `Expect ${locator ? `${locator} ` : ''}${state.isNot ? 'not ' : ''}${name}`;
  const call = await driver.wrap(
    `expect.${name}`,
    { timeout: timeout ?? state.timeout, kind: 'expect' },
    async (call) => {
      const actuator = await actuatorOf(driver);
      const run = async () => {
        if (count !== undefined && locator && actuator.waitForCount) {
          const r = await actuator.waitForCount(call, locator, count, state.isNot);
          if (r.obs) last = { obs: r.obs, result: check(r.matches, r.obs) };
          return r.matched;
        }
        const r = await poll(
          call.timeout,
          async () => {
            const obs = await driver.watch.observe(call);
            const nodes = locator && !obs.tree_missing ? resolveSteps(obs.nodes, locator.steps) : [];
            const result = check(nodes, obs);
            last = { obs, result };
            const line = `${locator ? locator.toString() : 'app'}: ${result.received}`;
            if (call.log[call.log.length - 1] !== line) call.log.push(line);
            return result.pass !== state.isNot ? { done: true, value: true } : { done: false };
          },
          driver.clock,
        );
        return 'value' in r;
      };
      await driver.steps
        .step(call, { kind: 'assertion', title, selector: locator ? locator.toString() : null }, async (rec) => {
          ok = await run();
          const l = last as { obs: Observation } | null;
          rec.before = l?.obs.snapshot_id ?? null;
          rec.after = rec.before;
          if (!ok) throw failed;
        })
        .catch((e: unknown) => {
          // Not getting the wanted answer is the matcher's failure, reported below; a crash or a
          // lost device is not an assertion result and ends the test as is.
          if (e !== failed) throw e;
        });
      return call;
    },
  );
  const l = last as { obs: Observation; result: Check } | null;
  const pass = ok ? !state.isNot : state.isNot;
  const wanted = 'value' in expected ? state.utils.printExpected(expected.value) : expected.state;
  const message = () =>
    `expect(${locator ? 'locator' : 'app'}).${state.isNot ? 'not.' : ''}${name}(${'value' in expected ? wanted : ''}) failed\n\n` +
    (locator ? `Locator: ${locator}\n` : `App: ${driver.who()}\n`) +
    `Expected: ${state.isNot ? 'not ' : ''}${wanted}\n` +
    `Received: ${l?.result.received ?? '(nothing observed)'}\n` +
    `Timeout: ${driver.describeTimeout(call.timeout)}\n\nCall log:\n${call.log.map((x) => `  - ${x}`).join('\n')}\n\nScreen:\n${describeScreen(l?.obs ?? null)}`;
  return {
    pass,
    message,
    name,
    expected: 'value' in expected ? expected.value : expected.state,
    actual: l?.result.received,
  };
}

const one = (nodes: UiNode[]) => (nodes.length === 1 ? nodes[0]! : null);
const many = (nodes: UiNode[]) =>
  nodes.length > 1 ? `${nodes.length} nodes (strict mode: use .first() or a more specific locator)` : null;

export { one, many };

export type TextExpectation = string | RegExp | ReadonlyArray<string | RegExp>;
export type TextOptions = {
  /** ms; default the config's `expect.timeout`. */
  timeout?: number;
  /** Compare without regard to case. */
  ignoreCase?: boolean;
};

const normalize = (t: string) => t.replace(/\s+/g, ' ').trim();

/** Playwright's text comparison: whitespace normalized for strings, `ignoreCase` for both kinds. */
function textMatches(actual: string, expected: string | RegExp, whole: boolean, ignoreCase: boolean): boolean {
  if (expected instanceof RegExp) {
    const re =
      ignoreCase && !expected.flags.includes('i') ? new RegExp(expected.source, expected.flags + 'i') : expected;
    return re.test(actual);
  }
  const fold = (t: string) => (ignoreCase ? normalize(t).toLowerCase() : normalize(t));
  return whole ? fold(actual) === fold(expected) : fold(actual).includes(fold(expected));
}

/** toHaveText (`whole`) and toContainText: one node's full text, or every match's in order for an array. */
export function textMatcher(
  state: MatcherState,
  name: 'toHaveText' | 'toContainText',
  received: Locator,
  expected: TextExpectation,
  opts: TextOptions,
  whole: boolean,
) {
  const ignoreCase = opts.ignoreCase ?? false;
  return retrying(state, name, received, { value: expected }, opts.timeout, (nodes, obs) => {
    const texts = nodes.map((n) => fullText(obs.nodes, n));
    if (!Array.isArray(expected)) {
      const one = expected as string | RegExp;
      if (nodes.length !== 1) return { pass: false, received: many(nodes) ?? 'no matching node' };
      return { pass: textMatches(texts[0]!, one, whole, ignoreCase), received: JSON.stringify(texts[0]) };
    }
    const got = JSON.stringify(texts);
    if (whole) {
      const pass =
        texts.length === expected.length && expected.every((e, i) => textMatches(texts[i]!, e, true, ignoreCase));
      return { pass, received: got };
    }
    // Each expected entry in a later match than the previous one (a subsequence).
    let at = 0;
    for (const e of expected) {
      while (at < texts.length && !textMatches(texts[at]!, e, false, ignoreCase)) at++;
      if (at++ >= texts.length) return { pass: false, received: got };
    }
    return { pass: true, received: got };
  });
}

/** A matcher on one node's state (enabled, checked, focused…): `predicate` decides, `describe` words what was received. */
export function locatorMatcher(
  name: string,
  wanted: string,
  predicate: (n: UiNode) => boolean,
  describe: (n: UiNode) => string,
) {
  return async function (this: MatcherState, received: Locator, opts: { timeout?: number } = {}) {
    return retrying(this, name, received, { state: wanted }, opts.timeout, (nodes) => {
      const n = one(nodes);
      return n
        ? { pass: predicate(n), received: describe(n) }
        : { pass: false, received: many(nodes) ?? 'no matching node' };
    });
  };
}

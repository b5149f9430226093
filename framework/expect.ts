import { expect as base, type Expect } from '@playwright/test';
import { toWireSteps, type Observation, type UiNode } from '../device-runtime/protocol/index.js';
import { App } from './app.js';
import { describeNode, describeScreen } from './errors.js';
import { Locator } from './locator.js';
import { poll } from './poll.js';
import { satisfies } from './ai/verdict.js';
import { fullText, matchText } from './selector.js';
import { toPassSkill } from './skills/index.js';
import { visualMatchers } from './visual/matchers.js';
import { toHaveNotification as notificationMatcher, type NotificationMatch } from './world/index.js';
import { toPassAccessibilityAudit, type AccessibilityAuditOptions } from './a11y/index.js';
import { delegatingToPlaywright } from './webview/index.js';

type MatcherState = {
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
 * toBeHidden: 0, toHaveCount: n). On a runtime with the `selector_actions` extension the device
 * then waits for it (ui_wait_for with the selector), in one round trip; `check` still words
 * what the last look received.
 */
async function retrying(
  state: MatcherState,
  name: string,
  target: Locator | App,
  expected: Expected,
  timeout: number | undefined,
  check: (nodes: UiNode[], obs: Observation) => Check,
  count?: number,
) {
  const driver = target.driver;
  const ms = driver.timeout(timeout ?? state.timeout, 'expect');
  const log: string[] = [];
  let last: { obs: Observation; result: Check } | null = null;
  const title = `Expect ${target instanceof Locator ? `${target} ` : ''}${state.isNot ? 'not ' : ''}${name}`;
  const onDevice = async (locator: Locator, want: number) => {
    const r = await driver.calls.call(`expect.${name}`, 'ui_wait_for', {
      space_id: driver.spaceId,
      selector: toWireSteps(locator.steps),
      count: want,
      gone: state.isNot,
      timeout_ms: ms,
      app: { package: driver.pkg, ...(driver.instance ? { instance: driver.instance } : {}) },
      max_nodes: 400,
    });
    if (r.observation) {
      driver.calls.lastSeen = r.observation;
      last = { obs: r.observation, result: check(r.matches ?? [], r.observation) };
    }
    log.push(...(r.log ?? []).map((l) => l.trim()));
    return r.matched;
  };
  const run = async () => {
    if (count !== undefined && target instanceof Locator && (await driver.resolvesOnDevice()))
      return onDevice(target, count);
    const r = await poll(
      ms,
      async () => {
        const obs = await driver.watch.observe(`expect.${name}`);
        const nodes = target instanceof Locator && !obs.tree_missing ? await resolveIn(target, obs) : [];
        const result = check(nodes, obs);
        last = { obs, result };
        const line = `${target instanceof Locator ? target.toString() : 'app'}: ${result.received}`;
        if (log[log.length - 1] !== line) log.push(line);
        return result.pass !== state.isNot ? { done: true, value: true } : { done: false };
      },
      driver.clock,
    );
    return 'value' in r;
  };
  let ok = false;
  const failed = new Error(`${name} failed`);
  await driver.steps
    .step(
      {
        kind: 'assertion',
        api: `expect.${name}`,
        title,
        selector: target instanceof Locator ? target.toString() : null,
      },
      async (rec) => {
        ok = await run();
        const l = last as { obs: Observation } | null;
        rec.before = l?.obs.snapshot_id ?? null;
        rec.after = rec.before;
        if (!ok) throw failed;
      },
    )
    .catch((e) => {
      // Not getting the wanted answer is the matcher's failure, reported below; a crash or a
      // lost device is not an assertion result and ends the test as is.
      if (e !== failed) throw e;
    });
  const l = last as { obs: Observation; result: Check } | null;
  const pass = ok ? !state.isNot : state.isNot;
  const wanted = 'value' in expected ? state.utils.printExpected(expected.value) : expected.state;
  const message = () =>
    `expect(${target instanceof Locator ? 'locator' : 'app'}).${state.isNot ? 'not.' : ''}${name}(${'value' in expected ? wanted : ''}) failed\n\n` +
    (target instanceof Locator
      ? `Locator: ${target}\n`
      : `App: ${target.package}${target.instance ? `@${target.instance}` : ''}\n`) +
    `Expected: ${state.isNot ? 'not ' : ''}${wanted}\n` +
    `Received: ${l?.result.received ?? '(nothing observed)'}\n` +
    `Timeout: ${driver.describeTimeout(ms)}\n\nCall log:\n${log.map((x) => `  - ${x}`).join('\n')}\n\nScreen:\n${describeScreen(l?.obs ?? null)}`;
  return {
    pass,
    message,
    name,
    expected: 'value' in expected ? expected.value : expected.state,
    actual: l?.result.received,
  };
}

async function resolveIn(locator: Locator, obs: Observation): Promise<UiNode[]> {
  const { resolveSteps } = await import('./selector.js');
  return resolveSteps(obs.nodes, locator.steps);
}

const one = (nodes: UiNode[]) => (nodes.length === 1 ? nodes[0]! : null);
const many = (nodes: UiNode[]) =>
  nodes.length > 1 ? `${nodes.length} nodes (strict mode: use .first() or a more specific locator)` : null;

type TextExpectation = string | RegExp | ReadonlyArray<string | RegExp>;
type TextOptions = {
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

function textMatcher(
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

function locatorMatcher(
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

/**
 * The matchers nestwright adds to Playwright's `expect`. Each retries against fresh observations
 * until it passes or its timeout (`timeout`, default the config's `expect.timeout`, stretched by
 * the device's timing) runs out, and `.not` inverts it. A locator matcher reads the locator's
 * matches; one that needs a single node fails while there are several (strict mode).
 */
const matchers = {
  /**
   * `expect(app).toSatisfy(statement, { timeout })`: the retrying AI assertion (framework/ai),
   * a model's verdict grounded on the screen's nodes, asked again only when the screen changes.
   *
   * @example
   * ```ts
   * await expect(app).toSatisfy('the cart badge shows 1', { timeout: 10_000 });
   * ```
   */
  async toSatisfy(this: MatcherState, received: App, statement: string, opts: { timeout?: number } = {}) {
    return {
      name: 'toSatisfy',
      ...(await satisfies(
        received.port,
        statement,
        this.isNot,
        received.driver.timeout(opts.timeout ?? this.timeout, 'expect'),
      )),
    };
  },
  /**
   * `expect(locator).toBeVisible({ timeout })`: exactly one node matches, on screen.
   *
   * @example
   * ```ts
   * await expect(app.getByText('Buy milk')).toBeVisible();
   * await expect(app.getById('login_progress')).not.toBeVisible({ timeout: 15_000 });
   * ```
   */
  async toBeVisible(this: MatcherState, received: Locator, opts: { timeout?: number } = {}) {
    return retrying(
      this,
      'toBeVisible',
      received,
      { state: 'visible' },
      opts.timeout,
      (nodes) => {
        const n = one(nodes);
        return n
          ? { pass: true, received: `visible: ${describeNode(n)}` }
          : { pass: false, received: many(nodes) ?? 'not on screen' };
      },
      1,
    );
  },
  /**
   * `expect(locator).toBeHidden({ timeout })`: no node matches.
   *
   * @example
   * ```ts
   * await app.getByRole('button', { name: 'Save' }).tap();
   * await expect(app.getById('title')).toBeHidden();
   * ```
   */
  async toBeHidden(this: MatcherState, received: Locator, opts: { timeout?: number } = {}) {
    return retrying(
      this,
      'toBeHidden',
      received,
      { state: 'hidden' },
      opts.timeout,
      (nodes) =>
        nodes.length === 0
          ? { pass: true, received: 'not on screen' }
          : { pass: false, received: `visible: ${nodes.map(describeNode).join('; ')}` },
      0,
    );
  },
  /**
   * `expect(locator).toBeEnabled({ timeout })`: the one matching node is enabled.
   *
   * @example
   * ```ts
   * await expect(app.getByRole('button', { name: 'Log in' })).toBeEnabled();
   * ```
   */
  toBeEnabled: locatorMatcher(
    'toBeEnabled',
    'enabled',
    (n) => n.enabled,
    (n) => (n.enabled ? 'enabled' : 'disabled'),
  ),
  /**
   * `expect(locator).toBeDisabled({ timeout })`: the one matching node is disabled.
   *
   * @example
   * ```ts
   * await expect(app.getByRole('button', { name: 'Log in' })).toBeDisabled();
   * ```
   */
  toBeDisabled: locatorMatcher(
    'toBeDisabled',
    'disabled',
    (n) => !n.enabled,
    (n) => (n.enabled ? 'enabled' : 'disabled'),
  ),
  /**
   * `expect(locator).toBeChecked({ timeout })`: the one matching checkbox, switch or radio button
   * is checked; `.not` for unchecked.
   *
   * @example
   * ```ts
   * const wifi = app.getByRole('switch', { name: 'Use Wi-Fi' });
   * await expect(wifi).not.toBeChecked();
   * await wifi.tap();
   * await expect(wifi).toBeChecked();
   * ```
   */
  toBeChecked: locatorMatcher(
    'toBeChecked',
    'checked',
    (n) => !!n.checked,
    (n) => (n.checked ? 'checked' : 'unchecked'),
  ),
  /**
   * `expect(locator).toBeFocused({ timeout })`: the one matching node holds the input focus.
   *
   * @example
   * ```ts
   * await app.getById('title').fill('Buy milk');
   * await expect(app.getById('title')).toBeFocused();
   * ```
   */
  toBeFocused: locatorMatcher(
    'toBeFocused',
    'focused',
    (n) => n.focused,
    (n) => (n.focused ? 'focused' : 'not focused'),
  ),
  /**
   * The node's full text (its own and its descendants', see `locator.textContent()`) equals
   * `expected` (whitespace normalized; a RegExp tests it). An array checks every match of the
   * locator, in screen order: as many nodes as entries, each with its text. `ignoreCase` folds
   * case for strings and RegExps.
   *
   * @example
   * ```ts
   * await expect(app.getById('toolbar_title')).toHaveText('General (Solo)');
   * await expect(app.getById('total')).toHaveText(/^Total: \$\d+\.\d\d$/);
   * await expect(app.getById('note_title')).toHaveText(['Buy milk', 'Call mom']);
   * ```
   */
  async toHaveText(this: MatcherState, received: Locator, expected: TextExpectation, opts: TextOptions = {}) {
    return textMatcher(this, 'toHaveText', received, expected, opts, true);
  },
  /**
   * The node's full text contains `expected` (case-sensitive unless `ignoreCase`). An array: each
   * entry is contained in a match, in order, as Playwright's array form reads.
   *
   * @example
   * ```ts
   * await expect(app.getById('outgoing').last()).toContainText('Lunch at noon?');
   * await expect(app.getById('note_title')).toContainText(['milk', 'mom'], { ignoreCase: true });
   * ```
   */
  async toContainText(this: MatcherState, received: Locator, expected: TextExpectation, opts: TextOptions = {}) {
    return textMatcher(this, 'toContainText', received, expected, opts, false);
  },
  /**
   * `expect(locator).toHaveCount(n, { timeout })`: exactly `n` nodes match (0 for none).
   *
   * @example
   * ```ts
   * await expect(app.getById('note_row')).toHaveCount(3);
   * ```
   */
  async toHaveCount(this: MatcherState, received: Locator, expected: number, opts: { timeout?: number } = {}) {
    return retrying(
      this,
      'toHaveCount',
      received,
      { value: expected },
      opts.timeout,
      (nodes) => ({ pass: nodes.length === expected, received: String(nodes.length) }),
      Number.isInteger(expected) && expected >= 0 && expected <= 5_000 ? expected : undefined,
    );
  },
  /**
   * `expect(app).toHaveActivity(activity, { timeout })`: the activity in front of this instance
   * is `activity`, as observations name it: `.X` for an activity of the app's own package
   * (`.CatalogActivity` for `com.nestwright.shop.CatalogActivity`).
   *
   * @example
   * ```ts
   * await app.intent({ data: 'nwshop://product/42' });
   * await expect(app).toHaveActivity('.ProductActivity');
   * await expect(app).toHaveActivity('.CatalogActivity', { timeout: 10_000 });
   * ```
   */
  async toHaveActivity(this: MatcherState, received: App, expected: string, opts: { timeout?: number } = {}) {
    return retrying(this, 'toHaveActivity', received, { value: expected }, opts.timeout, (_, obs) => ({
      pass: obs.activity === expected,
      received: obs.activity ?? 'none',
    }));
  },
  /**
   * The instance crashed (APP_CRASHED). A crash ends a test; this is how a test checks one on
   * purpose: the crash it saw no longer fails the test at its end. `.not` checks the instance is
   * not crashed.
   *
   * @example
   * ```ts
   * await app.launch({ activity: '.CartActivity' });
   * await app.getByRole('button', { name: 'Apply' }).tap().catch(() => {}); // crashes the Shop
   * await expect(app).toHaveCrashed();
   * ```
   */
  async toHaveCrashed(this: MatcherState, received: App, opts: { timeout?: number } = {}) {
    const driver = received.driver;
    const ms = driver.timeout(opts.timeout ?? this.timeout, 'expect');
    let state = 'unknown';
    const r = await driver.steps.step(
      {
        kind: 'assertion',
        api: 'expect.toHaveCrashed',
        title: `Expect ${driver.who()} ${this.isNot ? 'not ' : ''}to have crashed`,
        selector: null,
      },
      () =>
        poll(
          ms,
          async () => {
            state = await driver.watch.state('expect.toHaveCrashed');
            const raised = driver.options.scope?.acknowledge(driver.who()) ?? false;
            return (state === 'crashed' || raised) !== this.isNot ? { done: true, value: true } : { done: false };
          },
          driver.clock,
        ),
    );
    const pass = 'value' in r ? !this.isNot : this.isNot;
    return {
      pass,
      name: 'toHaveCrashed',
      message: () =>
        `expect(app).${this.isNot ? 'not.' : ''}toHaveCrashed() failed\n\nApp: ${driver.who()}\nExpected: ${this.isNot ? 'not ' : ''}crashed\nReceived: ${state}\nTimeout: ${driver.describeTimeout(ms)}`,
    };
  },
  /**
   * `expect(app).toPassSkill(file, params)`: the skill (`skills/*.yaml`) replays on this instance
   * with every step's checks passing, as `app.runSkill()` runs it; `.not` expects it to fail.
   *
   * @example
   * ```ts
   * await expect(app).toPassSkill('skills/sign-in.yaml', { email: 'ana@example.com', password: 'hunter22' });
   * ```
   */
  async toPassSkill(this: MatcherState, received: App, file: string, params: Record<string, unknown> = {}) {
    return toPassSkill(this.isNot, received.port, file, params);
  },
  /**
   * `expect(app | locator).toPassAccessibilityAudit(options)`: the accessibility audit (docs/accessibility.md)
   * finds nothing beyond the baseline; the failure lists each finding with how to fix it.
   *
   * @example
   * ```ts
   * await expect(app).toPassAccessibilityAudit({ minimumSeverity: 'warning', baseline: true });
   * ```
   */
  async toPassAccessibilityAudit(this: MatcherState, received: App | Locator, opts: AccessibilityAuditOptions = {}) {
    return toPassAccessibilityAudit(this.isNot, received, opts);
  },
  /**
   * `expect(app).toBeInForeground({ timeout })`: this instance is the one in front on its
   * space's screen.
   *
   * @example
   * ```ts
   * const ben = await app.newInstance();
   * await expect(ben).toBeInForeground();
   * await app.getById('name').fill('Ana'); // brings app back to the front
   * await expect(app).toBeInForeground();
   * ```
   */
  async toBeInForeground(this: MatcherState, received: App, opts: { timeout?: number } = {}) {
    const ms = received.driver.timeout(opts.timeout ?? this.timeout, 'expect');
    let last: Observation | null = null;
    const r = await poll(
      ms,
      async () => {
        const obs = await received.driver.calls.call('expect.toBeInForeground', 'ui_observe', {
          space_id: received.driver.spaceId,
          max_nodes: 1,
          detail: 'compact',
        });
        last = obs;
        return received.driver.watch.inFront(obs) !== this.isNot ? { done: true, value: obs } : { done: false };
      },
      received.driver.clock,
    );
    const pass = 'value' in r ? !this.isNot : this.isNot;
    const seen = last as Observation | null;
    const front = seen?.package
      ? `${seen.package}${seen.instance ? `@${seen.instance}` : ''} in front`
      : 'no app in front';
    return {
      pass,
      name: 'toBeInForeground',
      message: () =>
        `expect(app).${this.isNot ? 'not.' : ''}toBeInForeground() failed\n\nApp: ${received.driver.who()}\nExpected: ${this.isNot ? 'not ' : ''}in foreground\nReceived: ${seen ? front : '(nothing observed)'}\nTimeout: ${received.driver.describeTimeout(ms)}`,
    };
  },
  ...visualMatchers,
  /**
   * `expect(app).toHaveNotification({ title, text })`: this instance shows a notification with
   * each given field (a string equal, a RegExp matching), retried until the timeout.
   *
   * @example
   * ```ts
   * await app.clock.fastForward('01:00:00');
   * await expect(app).toHaveNotification({ title: 'Reminder', text: 'Buy milk' });
   * ```
   */
  async toHaveNotification(
    this: MatcherState,
    received: App,
    want: NotificationMatch,
    opts: { timeout?: number } = {},
  ) {
    return notificationMatcher.call(this, received, want, opts);
  },
};

/**
 * The matchers nestwright adds to Playwright's `expect`, with the receiver first: in a test,
 * `toHaveText(this, received, expected, opts)` is `expect(received).toHaveText(expected, opts)`.
 * Every one retries until its timeout; `.not` inverts it.
 *
 * @interface
 */
export type NestwrightMatchers = typeof matchers;

/**
 * Playwright's `expect` with nestwright's matchers ({@link NestwrightMatchers}) for locators and
 * apps; Playwright's own matchers work as usual on plain values and on Playwright's `Locator` and
 * `Page` (a WebView's page from `app.webview()`).
 *
 * @example
 * ```ts
 * import { test, expect } from 'nestwright';
 *
 * test('saves a note', async ({ app }) => {
 *   await app.getByText('New note').tap();
 *   await app.getById('title').fill('Buy milk');
 *   await app.getByRole('button', { name: 'Save' }).tap();
 *   await expect(app.getByText('Buy milk')).toBeVisible();
 *   await expect(app).toHaveActivity('.MainActivity');
 *   expect(await app.getByText('Buy milk').count()).toBe(1);
 * });
 * ```
 */
// A Playwright Locator or Page (a WebView's) goes to Playwright's own matcher of the same name.
export const expect: Expect<NestwrightMatchers> = base.extend(delegatingToPlaywright(matchers));

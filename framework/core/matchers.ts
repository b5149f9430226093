import type { App } from './app.js';
import { toBeInForeground, toHaveCrashed } from './expect-app.js';
import {
  locatorMatcher,
  many,
  one,
  retrying,
  textMatcher,
  type MatcherState,
  type TextExpectation,
  type TextOptions,
} from './expect-retrying.js';
import { describeNode } from './errors.js';
import type { Locator } from './locator.js';
import { satisfies } from '../ai/verdict.js';
import { toPassSkill } from '../skills/index.js';
import { toHaveScreenshot, type ScreenshotOptions } from '../visual/index.js';
import { toHaveNotification as notificationMatcher, type NotificationMatch } from '../world/index.js';
import { toPassAccessibilityAudit } from '../a11y/index.js';
import type { AccessibilityAuditOptions } from './accessibility.js';
import { delegatingToPlaywright } from '../webview/index.js';

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
      ...(await satisfies(received.port, statement, this.isNot, opts.timeout ?? this.timeout)),
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
    return toHaveCrashed(this.isNot, received, opts.timeout ?? this.timeout);
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
    return toBeInForeground(this.isNot, received, opts.timeout ?? this.timeout);
  },
  /**
   * `expect(app).toHaveScreenshot(name?, options?)`: the app's screen matches its baseline;
   * `expect(locator).toHaveScreenshot(…)`: the one node's bounds do. Playwright's semantics,
   * names and defaults (docs/visual-comparisons.md): pictures are taken until two in a row
   * match, then compared with `<spec>-snapshots/<name>-<project>-<platform>.png`; a missing
   * baseline is written (and the test fails saying so, unless `--update-snapshots`); on a
   * difference `<name>-expected.png`, `-actual.png` and `-diff.png` are attached. The status
   * and navigation bars are left out where the device says they are.
   *
   * @example
   * ```ts
   * await expect(app).toHaveScreenshot('settings.png');
   * await expect(app.getById('save')).toHaveScreenshot('save-button.png', { maxDiffPixels: 20 });
   * await expect(app).toHaveScreenshot('notes.png', { mask: [app.getById('note_date')], threshold: 0.3 });
   * ```
   */
  async toHaveScreenshot(
    this: MatcherState,
    received: App | Locator,
    nameOrOptions?: string | string[] | ScreenshotOptions<Locator>,
    options?: ScreenshotOptions<Locator>,
  ): Promise<{ pass: boolean; name: string; message: () => string }> {
    return toHaveScreenshot.call(this, received, nameOrOptions, options);
  },
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
 * The matchers as `expect.extend()` takes them: a Playwright Locator or Page (a WebView's) goes to
 * Playwright's own matcher of the same name. expect.ts extends Playwright's `expect` with
 * stand-ins that load this module on their first call.
 */
export const nestwrightMatchers: NestwrightMatchers = delegatingToPlaywright(matchers);

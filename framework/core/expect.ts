import { expect as base, type Expect } from '@playwright/test';
import type { NestwrightMatchers } from './matchers.js';
import { loadRuntime } from '../runtime-load.js';

export type { NestwrightMatchers } from './matchers.js';

/**
 * The names of nestwright's matchers (matchers.ts has their code and docs; the check below keeps
 * the two lists equal). `expect` is extended with a stand-in of each that loads them on the first
 * assertion (with the rest of what runs tests, framework/runtime.ts), so declaring tests (Playwright's runner loads every spec to list them) does
 * not load the locators, the device client or zod's schemas behind them. Every matcher is async.
 */
const NAMES = [
  'toSatisfy',
  'toBeVisible',
  'toBeHidden',
  'toBeEnabled',
  'toBeDisabled',
  'toBeChecked',
  'toBeFocused',
  'toHaveText',
  'toContainText',
  'toHaveCount',
  'toHaveActivity',
  'toHaveCrashed',
  'toPassSkill',
  'toPassAccessibilityAudit',
  'toBeInForeground',
  'toHaveScreenshot',
  'toHaveNotification',
] as const satisfies ReadonlyArray<keyof NestwrightMatchers>;
// A compile error here names a matcher of matchers.ts missing from NAMES.
const complete: [Exclude<keyof NestwrightMatchers, (typeof NAMES)[number]>] extends [never] ? true : never = true;
void complete;

type Matcher = (this: unknown, ...args: unknown[]) => Promise<unknown>;
const standIns = Object.fromEntries(
  NAMES.map((name) => [
    name,
    async function (this: unknown, ...args: unknown[]) {
      const matcher = (await loadRuntime()).nestwrightMatchers[name] as unknown as Matcher;
      return matcher.apply(this, args);
    },
  ]),
) as unknown as NestwrightMatchers;

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
export const expect: Expect<NestwrightMatchers> = base.extend(standIns);

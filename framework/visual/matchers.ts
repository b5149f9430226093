import { expect as playwrightExpect } from '@playwright/test';
import type { PortLocator } from '../core/port.js';
import type { ScreenshotOptions } from './options.js';
import { visualPortOf } from './port.js';
import { toHaveScreenshot as compareScreenshot } from './to-have-screenshot.js';

type MatcherState = { isNot: boolean; timeout?: number };

/**
 * `expect(app | locator).toHaveScreenshot(name?, options?)` (framework/core/expect.ts declares it with
 * its public types and doc): the app's or the locator's port compares, a Playwright page or
 * locator (a test that merges Playwright's browser fixtures) gets Playwright's own matcher.
 */
export async function toHaveScreenshot(
  this: MatcherState,
  received: unknown,
  nameOrOptions?: string | string[] | ScreenshotOptions<PortLocator>,
  options?: ScreenshotOptions<PortLocator>,
): Promise<{ pass: boolean; name: string; message: () => string }> {
  const found = visualPortOf(received, this.timeout);
  if (found) return compareScreenshot(this, found.port, found.target, nameOrOptions, options);
  try {
    const e = playwrightExpect(received as never) as unknown as {
      not: Record<string, (...a: unknown[]) => Promise<void>>;
    } & Record<string, (...a: unknown[]) => Promise<void>>;
    await (this.isNot ? e.not : e).toHaveScreenshot!(nameOrOptions, options);
    return { pass: !this.isNot, name: 'toHaveScreenshot', message: () => '' };
  } catch (err) {
    return { pass: this.isNot, name: 'toHaveScreenshot', message: () => (err as Error).message };
  }
}

import { expect as playwrightExpect } from '@playwright/test';
import type { App } from '../core/app.js';
import type { Locator } from '../core/locator.js';
import type { ScreenshotOptions } from './options.js';
import { visualPortOf } from './port.js';
import { toHaveScreenshot } from './to-have-screenshot.js';

type MatcherState = { isNot: boolean; timeout?: number };

/** The visual comparison matchers `expect` gets (framework/core/expect.ts spreads them in). */
export const visualMatchers = {
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
    const found = visualPortOf(received, this.timeout);
    if (found) return toHaveScreenshot(this, found.port, found.target, nameOrOptions, options);
    // A browser page or locator (a test that merges Playwright's browser fixtures): Playwright's own.
    try {
      const e = playwrightExpect(received as never) as unknown as {
        not: Record<string, (...a: unknown[]) => Promise<void>>;
      } & Record<string, (...a: unknown[]) => Promise<void>>;
      await (this.isNot ? e.not : e).toHaveScreenshot!(nameOrOptions, options);
      return { pass: !this.isNot, name: 'toHaveScreenshot', message: () => '' };
    } catch (err) {
      return { pass: this.isNot, name: 'toHaveScreenshot', message: () => (err as Error).message };
    }
  },
};

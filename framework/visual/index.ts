/**
 * Visual comparisons (docs/visual-comparisons.md): `expect(app | locator).toHaveScreenshot()`
 * with Playwright's semantics, over the feature port. `expect.ts` declares the matcher.
 */
export { toHaveScreenshot } from './matchers.js';
export type { ScreenshotOptions } from './options.js';

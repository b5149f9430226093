import { defineConfig } from '@playwright/test';

/**
 * Tests of nestwright itself: unit tests next to the code (`*.test.ts`) and end-to-end tests in
 * `tests/` that run the simulator over real HTTP and Playwright on inline specs. No browser.
 */
export default defineConfig({
  testDir: '..',
  testMatch: ['**/*.test.ts'],
  testIgnore: ['**/node_modules/**', '**/fixtures/**'],
  timeout: 60_000,
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  reporter: process.env.CI ? [['list'], ['line']] : 'list',
  outputDir: '../test-results/unit',
});

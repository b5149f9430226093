import { defineConfig } from '@playwright/test';

/**
 * Playwright with nothing of nestwright (no global setup, fixtures or reporters): the floor that
 * bench/suite.bench.ts measures the runner's own time between tests against.
 */
export default defineConfig({
  testDir: '../test-results/bench-plain',
  outputDir: '../test-results/bench-plain-out',
  reporter: 'list',
});

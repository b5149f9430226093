import { defineConfig } from '@playwright/test';
import base from '../playwright.config.js';

/** The suites `nestwright crawl` wrote, replayed by bench/crawl.bench.ts (test-results/crawl-suite/). */
export default defineConfig({
  ...base,
  reporter: 'list',
  retries: 0,
  testDir: '../test-results/crawl-suite',
  outputDir: '../test-results/crawl-suite-out',
});

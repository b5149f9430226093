import { defineConfig } from '@playwright/test';
import base from '../playwright.config.js';

/**
 * The example suite's configuration run over the copies of specs/notes.spec.ts that
 * bench/suite.bench.ts writes to test-results/bench-suite/ (many spec files, as a real suite
 * has, so one worker runs many tests; `--repeat-each` would start a worker per repetition).
 */
export default defineConfig({
  ...base,
  reporter: 'list',
  testDir: '../test-results/bench-suite',
  outputDir: '../test-results/bench-suite-out',
});

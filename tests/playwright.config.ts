import { defineConfig } from '@playwright/test';
import { E2E, INTEGRATION, pattern } from './tiers.js';

/**
 * Tests of nestwright itself: unit tests next to the code (`*.test.ts`) and end-to-end tests in
 * `tests/` that run the simulator over real HTTP and Playwright on inline specs. One project per
 * tier (tests/tiers.ts): `fast`, `integration`, `e2e`; `--project` picks one, none runs all.
 */
export default defineConfig({
  testDir: '..',
  testIgnore: /\/(node_modules|fixtures)\//,
  timeout: 60_000,
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  reporter: process.env.CI ? [['list'], ['line']] : 'list',
  outputDir: '../test-results/unit',
  projects: [
    {
      name: 'fast',
      testMatch: ['**/*.test.ts'],
      testIgnore: [pattern(INTEGRATION), pattern(E2E), /\/(node_modules|fixtures)\//],
    },
    // e2e before integration: run together (ci/test.sh), the workers take e2e's long serial files
    // (npm pack, Appium's packaged driver) first, not as the run's last minutes.
    { name: 'e2e', testMatch: pattern(E2E) },
    { name: 'integration', testMatch: pattern(INTEGRATION) },
  ],
});

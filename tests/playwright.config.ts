import { defineConfig } from '@playwright/test';
import { E2E, INTEGRATION, INTEGRATION_LATE, pattern } from './tiers.js';

/**
 * `NESTWRIGHT_INTEGRATION_PART=early|late` narrows the integration project to the files not in
 * INTEGRATION_LATE, or to those (ci/test.sh runs the late ones beside the tiers' run). Unset or
 * empty: all.
 */
const part = process.env.NESTWRIGHT_INTEGRATION_PART || undefined;
if (part !== undefined && part !== 'early' && part !== 'late')
  throw new Error(
    `tests/playwright.config.ts: NESTWRIGHT_INTEGRATION_PART is "${part}"; use early, late, or leave it unset`,
  );
const integration =
  part === 'late'
    ? { testMatch: pattern(INTEGRATION_LATE) }
    : { testMatch: pattern(INTEGRATION), testIgnore: part === 'early' ? [pattern(INTEGRATION_LATE)] : [] };

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
    { name: 'integration', ...integration },
  ],
});

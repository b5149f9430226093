import { defineConfig } from 'nestwright';

/**
 * Flows over Settings, Shop and Chat written from the docs, with the defaults: no hand-tuned
 * timeouts, no test.slow(), no retries. They must pass on every seed of the `hostile` profile,
 * where the device drops actions, hides its accessibility tree during transitions and is slow:
 * `npm run test:hostile-soak` runs them on seeds 1–10, each twice (once per action path), and counts failures and
 * flaky tests.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/hostile-flows',
  fullyParallel: true,
  retries: 0,
  reporter: 'list',
  use: { deviceOptions: { provider: 'sim' } },
});

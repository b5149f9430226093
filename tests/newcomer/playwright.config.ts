import { defineConfig } from 'nestwright';

/**
 * A suite written the way a new user writes one: from the README and the docs pages only, with the defaults, no
 * hand-tuned timeouts and no test.slow(). It must pass under `instant` and under `hostile`
 * (`npm run test:newcomer`, `npm run test:newcomer:hostile` for seeds 3, 8 and 13).
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/newcomer',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  reporter: 'list',
  use: { deviceOptions: { provider: 'sim' } },
});

import { defineConfig } from 'nestwright';

/**
 * The example suite. With no device configured, one embedded simulated device serves every
 * worker (each in its own space). For a real device:
 *   use: { deviceOptions: { provider: 'nestspace', url: 'http://127.0.0.1:8765/mcp', token: process.env.NESTSPACE_TOKEN! } }
 */
export default defineConfig({
  testDir: './specs',
  outputDir: './test-results/example',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  reporter: [['list'], ['html', { open: 'never' }], ['./reporters/allure/index.ts', { resultsDir: 'allure-results' }]],
  use: {
    deviceOptions: { provider: 'sim' },
    actionTimeout: 5_000,
    trajectory: 'on',
    screenshot: 'only-on-failure',
  },
});

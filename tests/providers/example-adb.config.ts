import { defineConfig } from 'nestwright';

/**
 * The example suite (specs/) through the adb provider: run by tests/providers/example-adb.test.ts
 * with a fake SDK first on PATH, where two fake devices each run a `nestwright sim` as their
 * NestSpace runtime. Workers spread over both (`pool: true`), each in a space of its own.
 */
export default defineConfig({
  testDir: '../../specs',
  outputDir: '../../test-results/example-adb',
  timeout: 60_000,
  expect: { timeout: 5_000 },
  fullyParallel: true,
  reporter: [['list']],
  use: {
    device: { provider: 'adb', pool: true },
    actionTimeout: 5_000,
    trajectory: 'on',
    screenshot: 'only-on-failure',
  },
});

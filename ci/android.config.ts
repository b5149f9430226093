import { defineConfig } from 'nestwright';

/**
 * The example suite on real Android (an emulator in CI): `npx playwright test --config
 * ci/android.config.ts [--shard=i/n]`. Workers spread over every device adb lists (`pool`), each
 * in a space of its own; the NestSpace runtime is installed from NESTSPACE_APK when given.
 * tests/providers/example-adb.test.ts runs this same file against the fake adb.
 */
const apk = process.env.NESTSPACE_APK;
const serial = process.env.ANDROID_SERIAL;

export default defineConfig({
  testDir: '../specs',
  outputDir: '../test-results/android',
  // A phone's observations cost 50–150 ms each (§4.1): more time than on the simulator.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: process.env.NESTWRIGHT_WORKERS ? Number(process.env.NESTWRIGHT_WORKERS) : 2,
  reporter: [
    ['list'],
    ['../reporters/allure/index.ts', { resultsDir: process.env.NESTWRIGHT_ALLURE_RESULTS ?? '../allure-results' }],
  ],
  use: {
    deviceOptions: { provider: 'adb', ...(serial ? { serial } : { pool: true }), ...(apk ? { runtime: { apk } } : {}) },
    actionTimeout: 10_000,
    trajectory: 'on',
    screenshot: 'only-on-failure',
  },
});

import type { Fixtures } from '@playwright/test';
import type { TestContext } from '../core/running-test.js';
import type { DeviceLogsMode } from '../device-logs/index.js';
import type { VideoOption } from '../video/options.js';
import { loadRuntime } from '../runtime-load.js';

/**
 * The lifecycle features' registrations: each is its option (declared with its type and doc in
 * use-options.ts) and one auto fixture that makes the feature for the test from the option and
 * adds it to the test's lifecycle (core/lifecycle.ts). fixtures.ts extends `test` with each; the
 * feature's own folder knows nothing of fixtures. A new feature adds one entry here, and what its
 * fixture runs to framework/runtime.ts (loaded when fixtures run, not when `test` is declared).
 */

/** `use.deviceLogs` (framework/device-logs). */
export const deviceLogsFixtures: Fixtures<
  { deviceLogs: DeviceLogsMode; _deviceLogs: void },
  object,
  { _testContext: TestContext }
> = {
  deviceLogs: ['retain-on-failure', { option: true, scope: 'test', box: 'self' }],
  _deviceLogs: [
    async ({ deviceLogs, _testContext }, use) => {
      const { deviceLogsFeature, deviceLogsMode } = await loadRuntime();
      const feature = deviceLogsFeature(deviceLogsMode(deviceLogs));
      if (feature) _testContext.lifecycle.add(feature);
      await use();
    },
    { auto: true, scope: 'test', box: 'self' },
  ],
};

/**
 * `use.video` (framework/video): 'off' by default and worker-scoped, as Playwright's (its `test`
 * declares `video` so; merged with ours, one name must have one scope); the feature exists only
 * when this run records.
 */
export const videoFixtures: Fixtures<{ _video: void }, { video: VideoOption }, { _testContext: TestContext }> = {
  video: ['off', { option: true, scope: 'worker', box: 'self' }],
  _video: [
    async ({ video, _testContext }, use, testInfo) => {
      const { videoFeature, videoSettings } = await loadRuntime();
      const feature = videoFeature(videoSettings(video), testInfo.retry);
      if (feature) _testContext.lifecycle.add(feature);
      await use();
    },
    { auto: true, scope: 'test', box: 'self' },
  ],
};

import type { Fixtures } from '@playwright/test';
import type { TestContext } from '../core/running-test.js';
import { deviceLogsFeature, deviceLogsMode, type DeviceLogsMode } from './feature.js';

/**
 * The feature's registration: its option (`use.deviceLogs`) and the per-test fixture that adds it
 * to the test's lifecycle. framework/fixtures.ts extends `test` with it; nothing else knows it.
 */
export const deviceLogsFixtures: Fixtures<
  { deviceLogs: DeviceLogsMode; _deviceLogs: void },
  object,
  { _testContext: TestContext }
> = {
  deviceLogs: ['retain-on-failure', { option: true, scope: 'test', box: 'self' }],
  _deviceLogs: [
    async ({ deviceLogs, _testContext }, use) => {
      const feature = deviceLogsFeature(deviceLogsMode(deviceLogs));
      if (feature) _testContext.lifecycle.add(feature);
      await use();
    },
    { auto: true, scope: 'test', box: 'self' },
  ],
};

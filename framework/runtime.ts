/**
 * What runs the tests, in one module: what the fixtures' bodies run (runner/fixtures.ts,
 * runner/features.ts), the matchers (core/matchers.ts) and the classes the package's entry binds
 * (`App`, `Locator`, `Space`). It is imported on first use (runtime-load.ts), not when `test`
 * is declared: Playwright's runner declares every test (it loads each spec to list them) but runs
 * none, so it never loads this, nor the device client, zod's schemas or the MCP SDK behind it. A
 * worker starts loading it when it imports the package's entry (framework/entry.ts). One
 * module, one dynamic import: the bundle splits at each module imported so, and each split means
 * more files for Playwright's loader to fetch.
 */
export { App } from './core/app.js';
export { Locator } from './core/locator.js';
export { nestwrightMatchers } from './core/matchers.js';
export { connectDevice, startEmbeddedDevice } from '../device-runtime/providers/index.js';
export { Space } from './core/space.js';
export { healerFor, healFeature, healStore } from './heal/fixture.js';
export { runWithAi } from './ai/index.js';
export { runWithSkills } from './skills/options.js';
export { runTest, TestContext } from './core/running-test.js';
export { Lifecycle } from './core/lifecycle.js';
export { worldFeature } from './world/world-feature.js';
export { Trajectory } from './core/trajectory.js';
export {
  failureTreeFeature,
  connected,
  settleWithin,
  simSettings,
  STEP_END_GRACE_MS,
  testEnd,
  setupFailed,
} from './runner/fixture-support.js';
export { platformPart } from './visual/platform.js';
export { networkFeature, TEST_NETWORK, TestNetwork } from './network/index.js';
export { checkOptions } from './runner/option-check.js';
export { runWithFailures } from './failure/fixture.js';
export { deviceLogsFeature, deviceLogsMode } from './device-logs/index.js';
export { videoFeature } from './video/feature.js';
export { videoSettings } from './video/options.js';

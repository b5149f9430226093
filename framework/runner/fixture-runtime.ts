/**
 * What the fixtures' bodies run (fixtures.ts, features.ts), loaded on the first fixture that
 * runs, not when `test` is declared: Playwright's runner declares every test (it loads each spec
 * to list them) but runs no fixture, so it never loads this, nor the device client, zod's schemas
 * or the MCP SDK behind it. A worker loads it as the package's entry binds its classes
 * (framework/entry.ts), before the first spec.
 */
export { connectDevice, startEmbeddedDevice } from '../../device-runtime/providers/index.js';
export { Space } from '../core/space.js';
export { NestwrightError } from '../core/errors.js';
export { healerFor, healFeature, healStore } from '../heal/fixture.js';
export { runWithAi } from '../ai/index.js';
export { runWithSkills } from '../skills/options.js';
export { runTest, TestContext } from '../core/running-test.js';
export { Lifecycle } from '../core/lifecycle.js';
export { worldFeature } from '../world/world-feature.js';
export { Trajectory } from '../core/trajectory.js';
export {
  failureTreeFeature,
  connected,
  settleWithin,
  simSettings,
  STEP_END_GRACE_MS,
  testEnd,
  setupFailed,
} from './fixture-support.js';
export { platformPart } from '../visual/platform.js';
export { networkFeature, TEST_NETWORK, TestNetwork } from '../network/index.js';
export { checkOptions } from './option-check.js';
export { runWithFailures } from '../failure/fixture.js';
export { deviceLogsFeature, deviceLogsMode } from '../device-logs/index.js';
export { videoFeature } from '../video/feature.js';
export { videoSettings } from '../video/options.js';

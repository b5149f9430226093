export { SimRuntime, type SimOptions, type CallContext, type CallOutcome } from './runtime.js';
export { startSimServer, type RunningSim, type SimServerOptions } from './server.js';
export { inMemoryTransport } from './mcp.js';
export {
  faultProfileFromEnv,
  FAULT_PROFILE_NAMES,
  type FaultProfile,
  type FaultProfileName,
} from './faults/profile.js';
export { channelsFromEnv } from './channels/channel.js';
export { VirtualClock } from './faults/clock.js';
export { chromiumMissing, chromiumPath, stopChromium } from './web/chromium.js';

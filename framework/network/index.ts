/**
 * Each instance's network in the test's hands (docs/network.md): routes with Playwright's
 * semantics, HAR replay and recording, request waits and events, offline and network conditions,
 * through an intercepting proxy per instance and the device protocol's `net_proxy` extension.
 * App attaches it; nothing in the core imports further.
 */
/** @internal App's network members are the public API. */
export { AppNetwork } from './app-network.js';
export type { NetworkEvents, RouteFromHAROptions } from './app-network.js';
export {
  Route,
  ABORT_CODES,
  type AbortCode,
  type FulfillOptions,
  type ContinueOptions,
  type FetchOptions,
} from './route.js';
export { Request, Response, type Headers } from './messages.js';
export type { RouteHandler } from './proxy.js';
export type { UrlMatcher } from './url-match.js';
export { NETWORK_PRESETS, NETWORK_PRESET_ALIASES, type NetworkConditions, type NetworkPreset } from './conditions.js';
export { NetworkRecordSchema, type NetworkRecord } from './record.js';
export type { RecordHarOptions } from './test-network.js';
/** @internal The fixture's. */
export { TestNetwork, TEST_NETWORK, networkFeature, HAR_ATTACHMENT } from './test-network.js';

/**
 * `nestwright/heal`: the pure part of selector healing, for tools and tests. No device, no
 * files, no model unless one is passed.
 *
 *   import { fingerprintOf, heal } from 'nestwright/heal';
 *   const fp = fingerprintOf(before, nodeId);             // when the locator worked
 *   const r = heal({ selector: 'id=title', fingerprint: fp, observation: after });
 *   if (r.status === 'healed') r.selector;                // 'id=note_title'
 *
 * @module nestwright/heal
 */
export { fingerprintOf, FingerprintSchema, type Fingerprint } from './fingerprint.js';
export {
  heal,
  THRESHOLD,
  MARGIN,
  RELATED_MARGIN,
  IDENTITY,
  MODEL_FLOOR,
  type HealInput,
  type HealResult,
  type RankedCandidate,
  type UnhealedCode,
  type HealArbiter,
  type ArbitrationRequest,
  type ArbitrationChoice,
} from './heal.js';
export { scoreCandidate, WEIGHTS, type CandidateScore, type FeatureScore, type Feature } from './score.js';
export { uniqueSelectorFor } from '../../device-runtime/protocol/best-selector.js';
export {
  modelArbiter,
  arbitrationPrompt,
  ARBITER_SYSTEM,
  ARBITER_TOOLS,
  type ModelArbiterOptions,
  type ArbitrationRecord,
} from './arbiter.js';

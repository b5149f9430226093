/** Model ids, prices and usage arithmetic, shared with the device's own agent (device-runtime/protocol/agent/models.ts). */
export {
  addUsage,
  costUsd,
  DEFAULT_MODELS,
  MODEL_PRICES,
  totalTokens,
  ZERO_USAGE,
  type ModelPrice,
  type Usage,
  type Verb,
} from '../../device-runtime/protocol/agent/models.js';

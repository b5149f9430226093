/** Grounding of verdicts and extractions, shared with the device's own agent (device-runtime/protocol/agent/grounding.ts). */
export {
  groundExtraction,
  groundVerdict,
  quotedTexts,
  type Grounding,
} from '../../device-runtime/protocol/agent/grounding.js';

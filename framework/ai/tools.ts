/** The tools offered to the model, shared with the device's own agent (device-runtime/protocol/agent/tools.ts). */
export {
  ACT_KEYS,
  ActCallSchema,
  ActInputs,
  ACT_TOOLS,
  answerTool,
  VERDICT_TOOL,
  VerdictSchema,
  type ActCall,
  type Verdict,
} from '../../device-runtime/protocol/agent/tools.js';

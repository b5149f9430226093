/** The AI step's trajectory record, shared with the device's own agent (device-runtime/protocol/agent/record.ts). */
export {
  AiEvidenceSchema,
  AiStepRecordSchema,
  AiToolCallSchema,
  newToolCall,
  type AiStepRecord,
  type AiToolCall,
} from '../../device-runtime/protocol/agent/record.js';

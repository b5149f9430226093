/** The model boundary lives beside the protocol, shared with the device's own agent (device-runtime/protocol/agent). */
export type {
  ContentBlock,
  ModelAdapter,
  ModelMessage,
  ModelRequest,
  ModelResponse,
  ToolSpec,
} from '../../device-runtime/protocol/agent/adapter.js';

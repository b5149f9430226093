/**
 * `nestwright/client`: the protocol client. `DeviceClient.call(tool, args)` validates the
 * arguments and the result against the tool's schemas and throws `DeviceError` (with the
 * device's `code`) on an error envelope; `McpToolTransport` carries it over MCP.
 *
 * @module nestwright/client
 */
export { DeviceClient } from './client.js';
export { DeviceError } from './errors.js';
export { protocolMismatch } from './version.js';
export { keepUnknown } from './keep-unknown.js';
export { McpToolTransport, type McpTransport } from './mcp-transport.js';
export {
  classifyTransportFailure,
  ConnectionLostError,
  type TransportFailure,
  type TransportFailureKind,
} from './transport-failure.js';
export type { ToolTransport, CallResult } from './transport.js';

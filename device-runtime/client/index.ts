export { DeviceClient } from './client.js';
export { DeviceError } from './errors.js';
export { McpToolTransport } from './mcp-transport.js';
export type { ToolTransport, CallResult } from './transport.js';

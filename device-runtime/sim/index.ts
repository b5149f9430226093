export { SimRuntime, type SimOptions, type CallContext, type CallOutcome } from './runtime.js';
export { startSimServer, type RunningSim, type SimServerOptions } from './server.js';
export { inMemoryTransport } from './mcp.js';

import type { WireResult } from '../protocol/index.js';

/**
 * What the client needs from a connection to a runtime: send one tool call, get back MCP's
 * CallToolResult shape. MCP over Streamable HTTP in production; in-memory in unit tests.
 */
export type CallResult = WireResult;

/** A connection that carries tool calls: `McpToolTransport`, or an in-memory one in tests. */
export interface ToolTransport {
  /** Send one tool call; the answer as MCP's CallToolResult (errors are in it, not thrown). */
  callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult>;
  /** Close the connection. */
  close(): Promise<void>;
  /** Session id of the connection, when the transport has one. */
  readonly sessionId?: string;
}

import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { z } from 'zod';

/** What a tool call gets besides its arguments. */
export interface AgentCallContext {
  /** The MCP session (stdio: one; HTTP: one per client). Live apps belong to it. */
  sessionId: string;
  signal: AbortSignal;
  /** Report progress when the client asked for it (a `progressToken`); a no-op otherwise. */
  progress(done: number, total: number | undefined, message: string): Promise<void>;
}

/** A result plus content blocks to send beside it (a screenshot as an `image` block). */
export interface ToolOutput<R> {
  result: R;
  images?: Array<{ data: string; mimeType: 'image/png' }>;
}

/**
 * A test-level tool of `nestwright mcp`, defined the way the device protocol's tools are: zod
 * schemas of input and result (JSON Schema for MCP is derived), a title, annotations.
 */
export interface AgentTool<I extends z.ZodObject = z.ZodObject, R extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  result: R;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  run(input: z.infer<I>, ctx: AgentCallContext): Promise<ToolOutput<z.infer<R>>>;
}

export function defineAgentTool<I extends z.ZodObject, R extends z.ZodObject>(def: AgentTool<I, R>): AgentTool<I, R> {
  return def;
}

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
export type { CallToolResult };

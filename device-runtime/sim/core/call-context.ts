import type { Caller, ToolError, ToolName, ToolResult } from '../../protocol/index.js';

/** Who is calling: the MCP session (or in-process caller) and its kind. */
export interface CallContext {
  sessionId: string;
  caller: Caller;
  /** Aborted when the caller gives up (MCP notifications/cancelled): queued waits stop waiting. */
  signal?: AbortSignal;
}

/** A tool call's answer: its result, or the protocol's error envelope. */
export type CallOutcome<N extends ToolName = ToolName> =
  { ok: true; result: ToolResult<N> } | { ok: false; error: ToolError };

/**
 * Calls a tool the way a client does (validated, leased, audited): what the device-side skill
 * runner replays steps through. The runtime implements it; nothing below it needs more.
 */
export interface ToolCaller {
  call<N extends ToolName>(name: N | string, rawArgs: unknown, ctx: CallContext): Promise<CallOutcome<N>>;
}

import type { ToolArgs, ToolName, ToolResult } from '../../protocol/index.js';
import type { CallContext, SimRuntime } from '../runtime.js';

export type Handler<N extends ToolName> = (
  args: ToolArgs<N>,
  rt: SimRuntime,
  ctx: CallContext,
) => Promise<ToolResult<N>> | ToolResult<N>;

/** A handler for every tool: the type makes a missing handler a compile error (contract drift). */
export type Handlers = { [N in ToolName]: Handler<N> };
export type HandlerGroup<K extends ToolName> = { [N in K]: Handler<N> };

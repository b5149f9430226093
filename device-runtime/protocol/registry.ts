import type { z } from 'zod';
import { spaceTools } from './tools/space.js';
import { uiTools } from './tools/ui.js';
import { systemTools } from './tools/system.js';
import { appfnTools } from './tools/appfn.js';
import { sessionTools } from './tools/session.js';
import { agentTools } from './tools/agent.js';
import { runtimeTools } from './tools/runtime.js';
import { auditTools } from './tools/audit.js';
import { worldTools } from './tools/world.js';
import { webviewTools } from './tools/webview.js';
import { networkTools } from './tools/network.js';
import { screenRecordTools } from './tools/screen-record.js';
import type { ToolDef } from './tool.js';

/** Every tool of the protocol, in the order of docs/protocol.md#tools. */
export const TOOL_LIST = [
  ...spaceTools,
  ...uiTools,
  ...systemTools,
  ...appfnTools,
  ...sessionTools,
  ...agentTools,
  ...runtimeTools,
  ...auditTools,
  ...worldTools,
  ...webviewTools,
  ...networkTools,
  ...screenRecordTools,
] as const;

type AnyTool = (typeof TOOL_LIST)[number];
/** The name of a protocol tool: `'space_launch' | 'ui_tap' | …`. */
export type ToolName = AnyTool['name'];
/** The definition of tool `N` (its schemas, title, flags). */
export type ToolOf<N extends ToolName> = Extract<AnyTool, { name: N }>;
/** What a caller passes (defaults optional). */
export type ToolInput<N extends ToolName> = z.input<ToolOf<N>['input']>;
/** What a handler receives (defaults applied). */
export type ToolArgs<N extends ToolName> = z.output<ToolOf<N>['input']>;
/** What tool `N` returns, parsed. */
export type ToolResult<N extends ToolName> = z.output<ToolOf<N>['result']>;

/** Every tool by name: `TOOLS.ui_tap.title` is `'Tap {target}'`. */
export const TOOLS: { readonly [N in ToolName]: ToolOf<N> } = Object.fromEntries(
  TOOL_LIST.map((t) => [t.name, t]),
) as never;

/** Every tool's name, in the order of {@link TOOL_LIST}. */
export const TOOL_NAMES = TOOL_LIST.map((t) => t.name) as ToolName[];

/** Whether `name` is a tool of the protocol. */
export function isToolName(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(TOOLS, name);
}

/** The tool named `name`, or undefined for a name the protocol does not have. */
export function getTool(name: string): ToolDef | undefined {
  return isToolName(name) ? (TOOLS[name] as unknown as ToolDef) : undefined;
}

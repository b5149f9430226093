import { randomUUID } from 'node:crypto';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  encodeError,
  encodeResult,
  errorCodesOf,
  getTool,
  inputJsonSchema,
  outputJsonSchema,
  TOOL_LIST,
} from '../protocol/index.js';
import type { CallContext, CallOutcome, SimRuntime } from './runtime.js';
import { screenshotBySha256 } from './ui/screenshot.js';

/**
 * What `tools/list` answers, built on the first list (the JSON Schemas of every tool cost about
 * 150 ms of CPU to derive), not when the simulator loads: a test run's client never lists tools.
 */
let toolDescriptors: ReturnType<typeof describeTools> | undefined;
const describeTools = () =>
  TOOL_LIST.map((t) => ({
    name: t.name,
    title: t.title.replace(/\s*\{\w+\}/g, '').trim() || t.name,
    // Agents read descriptions: say which error codes to expect (the envelope is {code, message, retryable, hint}).
    description: `${t.description} Error codes: ${errorCodesOf(t.name).join(', ')}.`,
    inputSchema: inputJsonSchema(t) as { type: 'object' },
    outputSchema: outputJsonSchema(t) as { type: 'object' },
    annotations: {
      readOnlyHint: !t.mutating,
      destructiveHint: t.dangerous,
      idempotentHint: !t.mutating || 'idempotency_key' in t.input.shape,
      openWorldHint: false,
    },
  }));

/**
 * MCP's shape of a call outcome (protocol/wire.ts says why): the result as structured content
 * with images as image blocks, or the error envelope as text with isError.
 */
export function toCallToolResult(name: string, outcome: CallOutcome): CallToolResult {
  const tool = getTool(name);
  if (!outcome.ok || !tool)
    return encodeError(
      outcome.ok ? { code: 'UNKNOWN_TOOL', message: `no tool ${name}`, retryable: false, hint: null } : outcome.error,
    ) as CallToolResult;
  const result = outcome.result as Record<string, unknown>;
  // ui_observe with include_screenshot names its PNG by hash; show the picture beside the tree.
  const shot =
    name === 'ui_observe' && typeof result.screenshot === 'string'
      ? screenshotBySha256(result.screenshot.replace(/^sha256:/, ''))
      : undefined;
  return encodeResult(tool, result, shot ? [shot.toString('base64')] : []) as CallToolResult;
}

/** An MCP server for one client session, adapting tools/list and tools/call to the runtime. */
export function createMcpServer(runtime: SimRuntime, ctx: () => CallContext): Server {
  const server = new Server(
    { name: 'nestwright-sim', title: 'nestwright simulated NestSpace runtime', version: '0.1.0' },
    { capabilities: { tools: { listChanged: false }, logging: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (toolDescriptors ??= describeTools()) }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) =>
    toCallToolResult(
      req.params.name,
      await runtime.call(req.params.name, req.params.arguments ?? {}, { ...ctx(), signal: extra.signal }),
    ),
  );
  return server;
}

/**
 * The client end of an in-memory MCP connection to `runtime` (the SDK's linked pair): same
 * protocol, no HTTP, for unit tests. Wrap it with `McpToolTransport.connect`. Closing it ends the
 * session, which releases its leases as a DELETE would.
 */
export async function inMemoryTransport(
  runtime: SimRuntime,
  sessionId = `mem_${randomUUID().slice(0, 8)}`,
): Promise<Transport> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(runtime, () => ({ sessionId, caller: 'REMOTE_MCP' }));
  server.onclose = () => runtime.endSession(sessionId);
  await server.connect(serverSide);
  return clientSide;
}

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AgentError, toEnvelope } from './errors.js';
import type { AgentState } from './state.js';
import type { AgentCallContext, AgentTool, Extra } from './tool.js';
import { fileTools } from './tools/files.js';
import { healTools } from './tools/heal.js';
import { skillTools } from './tools/skills.js';
import { liveTools } from './tools/live.js';
import { testTools } from './tools/tests.js';
import { appMapTools } from './tools/app-map.js';
import { authoringTools } from './tools/authoring.js';
import { conditionTools } from './tools/conditions.js';
import { fixmeTools } from './tools/fixme.js';

export const SERVER_INFO = {
  name: 'nestwright',
  title: 'nestwright: Android tests in NestSpace spaces',
  version: '0.1.0',
};

export function agentTools(state: AgentState): AgentTool[] {
  return [
    ...testTools(state),
    ...liveTools(state),
    ...fileTools(state),
    ...healTools(state),
    ...skillTools(state),
    ...authoringTools(state),
    ...conditionTools(state),
    ...appMapTools(state),
    ...fixmeTools(state),
  ] as unknown as AgentTool[];
}

function descriptor(t: AgentTool) {
  return {
    name: t.name,
    title: t.title,
    description: `${t.description} Errors are {code, message, retryable, hint} with isError.`,
    inputSchema: z.toJSONSchema(t.input, { io: 'input', unrepresentable: 'any' }) as { type: 'object' },
    outputSchema: z.toJSONSchema(t.result, { io: 'output', unrepresentable: 'any' }) as { type: 'object' },
    annotations: { title: t.title, ...t.annotations },
  };
}

/**
 * An error result: the envelope as text with `isError`, and no `structuredContent` — the
 * `outputSchema` describes successes only, and a client that validates it (the SDK's does)
 * must not see an error as a malformed success.
 */
function errorResult(tool: string, e: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: toEnvelope(tool, e) }) }] };
}

async function call(
  tools: Map<string, AgentTool>,
  name: string,
  args: unknown,
  ctx: AgentCallContext,
): Promise<CallToolResult> {
  const tool = tools.get(name);
  if (!tool)
    return errorResult(name, new AgentError('UNKNOWN_TOOL', `no tool ${name}; tools: ${[...tools.keys()].join(', ')}`));
  const input = tool.input.safeParse(args ?? {});
  if (!input.success) {
    return errorResult(
      name,
      new AgentError(
        'INVALID_ARGUMENT',
        z.prettifyError(input.error),
        `Check the arguments of ${name} against its input schema (tools/list).`,
      ),
    );
  }
  try {
    const out = await tool.run(input.data, ctx);
    // Both directions are validated: a result that breaks its own schema is our bug, said plainly.
    const result = tool.result.safeParse(out.result);
    if (!result.success)
      throw new AgentError('INTERNAL', `result does not match its schema: ${z.prettifyError(result.error)}`);
    return {
      content: [
        { type: 'text', text: JSON.stringify(result.data) },
        ...(out.images ?? []).map((i) => ({ type: 'image' as const, data: i.data, mimeType: i.mimeType })),
      ],
      structuredContent: result.data as Record<string, unknown>,
    };
  } catch (e) {
    return errorResult(name, e);
  }
}

/** The MCP server for one client connection of `nestwright mcp`. */
export function createAgentServer(state: AgentState, sessionId: () => string): Server {
  const tools = new Map(agentTools(state).map((t) => [t.name, t]));
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false }, logging: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...tools.values()].map(descriptor) }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra: Extra) => {
    const token = req.params._meta?.progressToken;
    const ctx: AgentCallContext = {
      sessionId: sessionId(),
      signal: extra.signal,
      progress: async (progress, total, message) => {
        if (token === undefined || extra.signal.aborted) return;
        await extra
          .sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}), message },
          })
          .catch(() => {});
      },
    };
    return call(tools, req.params.name, req.params.arguments, ctx);
  });
  return server;
}

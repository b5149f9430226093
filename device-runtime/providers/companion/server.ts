import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startMcpHttpHost } from '../../mcp-http/host.js';
import { inputJsonSchema, outputJsonSchema, TOOL_LIST } from '../../protocol/index.js';
import { CompanionHub, type HubOptions } from './hub.js';
import type { Dialect } from './phone.js';
import { CompanionToolTransport, type CompanionSessionOptions } from './transport.js';

export interface CompanionServerOptions extends CompanionSessionOptions {
  listen?: { host?: string; port?: number };
  keys: string[];
  /** PEM files: the phones' endpoint is then wss://. */
  tls?: { cert: string; key: string };
  dialect?: Dialect;
  heartbeatMs?: number;
  heartbeatTimeoutMs?: number;
  /** A phone must authenticate within this time after connecting (default 5 s). */
  authTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface RunningCompanion {
  /** Where phones dial in: ws(s)://host:port/ws/device. */
  phonesUrl: string;
  /** The device protocol over MCP for the run's workers (loopback, with `token`). */
  url: string;
  token: string;
  hub: CompanionHub;
  close(): Promise<void>;
}

/** The tools a companion session answers (the rest are NOT_SUPPORTED). */
const SERVED = new Set([
  'runtime_info',
  'space_create',
  'space_delete',
  'session_acquire',
  'session_release',
  'space_install_apk',
  'space_launch',
  'space_stop',
  'space_list_apps',
  'ui_observe',
  'ui_tap',
  'ui_long_press',
  'ui_swipe',
  'ui_scroll',
  'ui_set_text',
  'ui_key',
  'ui_screenshot',
  'app_intent',
]);

/**
 * The run's companion endpoint: the hub phones dial in to, and the device protocol served from
 * it over MCP on loopback, so that every worker of the run reaches the phones through the same
 * client it uses for any runtime (one session per worker; a space holds one phone).
 */
export async function startCompanionServer(opts: CompanionServerOptions): Promise<RunningCompanion> {
  const hubOpts: HubOptions = {
    keys: opts.keys,
    ...(opts.listen?.host !== undefined ? { host: opts.listen.host } : {}),
    ...(opts.listen?.port !== undefined ? { port: opts.listen.port } : {}),
    ...(opts.tls
      ? { tls: { cert: readFileSync(opts.tls.cert, 'utf8'), key: readFileSync(opts.tls.key, 'utf8') } }
      : {}),
    ...(opts.dialect ? { dialect: opts.dialect } : {}),
    ...(opts.heartbeatMs ? { heartbeatMs: opts.heartbeatMs } : {}),
    ...(opts.heartbeatTimeoutMs ? { heartbeatTimeoutMs: opts.heartbeatTimeoutMs } : {}),
    ...(opts.authTimeoutMs ? { authTimeoutMs: opts.authTimeoutMs } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  };
  const hub = new CompanionHub(hubOpts);
  const { url: phonesUrl } = await hub.listen();
  const transports = new Map<string, CompanionToolTransport>();
  const tools = TOOL_LIST.filter((t) => SERVED.has(t.name)).map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: inputJsonSchema(t) as { type: 'object' },
    outputSchema: outputJsonSchema(t) as { type: 'object' },
  }));
  let host;
  try {
    host = await startMcpHttpHost(
      {},
      {
        name: 'nestwright companion',
        newServer: (sessionId) => {
          const server = new Server(
            { name: 'nestwright-companion', version: '0.1.0' },
            { capabilities: { tools: {} } },
          );
          const session = () => {
            const id = sessionId();
            let t = transports.get(id);
            if (!t) transports.set(id, (t = new CompanionToolTransport(hub, id, opts)));
            return t;
          };
          server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
          server.setRequestHandler(
            CallToolRequestSchema,
            async (req) => (await session().callTool(req.params.name, req.params.arguments ?? {})) as CallToolResult,
          );
          return server;
        },
        onSessionClosed: (id) => {
          void transports.get(id)?.close();
          transports.delete(id);
        },
      },
    );
  } catch (e) {
    await hub.close();
    throw e;
  }
  return {
    phonesUrl,
    url: host.url,
    token: host.token,
    hub,
    async close() {
      await host.close();
      await hub.close();
    },
  };
}

import { startMcpHttpHost, type McpHttpOptions } from '../mcp-http/host.js';
import { createMcpServer } from './mcp.js';
import { SimRuntime, type SimOptions } from './runtime.js';

export interface SimServerOptions extends SimOptions, McpHttpOptions {
  runtime?: SimRuntime;
}

export interface RunningSim {
  url: string;
  token: string;
  runtime: SimRuntime;
  /** MCP sessions currently open. */
  sessionCount(): number;
  close(): Promise<void>;
}

/**
 * Serve a simulated runtime over MCP Streamable HTTP at `/mcp` with the transport rules of docs/protocol.md#transport
 * (see `mcp-http/host.ts`). One MCP session = one lease owner: when the session closes (DELETE,
 * idle reclaim after 30 minutes, shutdown), its leases are released.
 */
export async function startSimServer(opts: SimServerOptions = {}): Promise<RunningSim> {
  const ownsRuntime = !opts.runtime;
  // Checked before a runtime is made, so a refused start leaves nothing behind.
  if (opts.lan && (opts.noAuth || !opts.token)) {
    throw new Error(
      opts.noAuth
        ? 'startSimServer: --lan cannot be combined with --no-auth; a LAN server must check a token (docs/protocol.md#transport).'
        : 'startSimServer: --lan needs an explicit token (--token-file F); refusing to expose the runtime on the network without one.',
    );
  }
  const runtime = opts.runtime ?? new SimRuntime(opts);
  const host = await startMcpHttpHost(opts, {
    name: 'nestwright sim',
    newServer: (sessionId) => createMcpServer(runtime, () => ({ sessionId: sessionId(), caller: 'REMOTE_MCP' })),
    onSessionClosed: (sessionId) => runtime.endSession(sessionId),
  });
  return {
    url: host.url,
    token: host.token,
    runtime,
    sessionCount: host.sessionCount,
    async close() {
      await host.close();
      if (ownsRuntime) runtime.close();
    },
  };
}

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallResult, ToolTransport } from './transport.js';

/** The official MCP client over any MCP transport (Streamable HTTP, or the SDK's in-memory pair). */
export class McpToolTransport implements ToolTransport {
  private constructor(
    private readonly client: Client,
    private readonly transport: Transport,
  ) {}

  static async connect(transport: Transport): Promise<McpToolTransport> {
    const client = new Client({ name: 'nestwright', version: '0.1.0' }, { capabilities: {} });
    await client.connect(transport);
    return new McpToolTransport(client, transport);
  }

  /** Connect over Streamable HTTP with a bearer token (docs/protocol.md#transport). */
  static async http(url: string, token: string, timeoutMs = 30_000): Promise<McpToolTransport> {
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
      fetch: (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) }),
    });
    return McpToolTransport.connect(transport);
  }

  get sessionId(): string | undefined {
    return (this.transport as { sessionId?: string }).sessionId;
  }

  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult> {
    // The runtime validates results with the protocol's zod schemas and so does DeviceClient;
    // the SDK's own JSON Schema check of structuredContent would only repeat that work.
    return (await this.client.callTool({ name, arguments: args }, undefined, {
      signal,
      timeout: 600_000,
    })) as CallResult;
  }

  async close(): Promise<void> {
    if (this.transport instanceof StreamableHTTPClientTransport) {
      await this.transport.terminateSession().catch(() => {});
    }
    await this.client.close().catch(() => {});
  }
}

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallResult, ToolTransport } from './transport.js';
import { NodeHttpClientTransport } from './http-transport.js';
import { ConnectionLostError } from './transport-failure.js';

/**
 * An MCP transport as `McpToolTransport.connect` takes it: the MCP SDK's `Transport`
 * (`@modelcontextprotocol/sdk/shared/transport.js`), which any of the SDK's transports is,
 * described by its shape. Naming the SDK's type made the package's declarations load the SDK's
 * types into every user's type check: its `types.d.ts` alone was 3.7 s of the 14 s `tsc` spent
 * checking a one-spec project with `skipLibCheck: false` (8–10 s without it). Messages are the
 * SDK's JSON-RPC messages; the callbacks are methods (not function-typed properties), so the
 * SDK's narrower parameter types fit.
 */
export interface McpTransport {
  /** Open the connection; the client calls it once, after setting the callbacks. */
  start(): Promise<void>;
  /** Send one JSON-RPC message (a request, a notification or a response). */
  send(message: unknown, options?: unknown): Promise<void>;
  /** Close the connection. */
  close(): Promise<void>;
  /** Set by the client: the connection closed. */
  onclose?(): void;
  /** Set by the client: an error the transport cannot attribute to one message. */
  onerror?(error: Error): void;
  /** Set by the client: one JSON-RPC message arrived. */
  onmessage?(message: unknown, extra?: unknown): void;
  /** The session the server assigned, when the transport has sessions (Streamable HTTP). */
  readonly sessionId?: string;
}

/** The official MCP client over any MCP transport (Streamable HTTP, or the SDK's in-memory pair). */
export class McpToolTransport implements ToolTransport {
  private constructor(
    private readonly client: Client,
    private readonly transport: Transport,
  ) {}

  /** Connect the MCP SDK's client over `transport` (e.g. one end of `InMemoryTransport.createLinkedPair()`). */
  static async connect(transport: McpTransport): Promise<McpToolTransport> {
    const sdkTransport = transport as Transport; // what McpTransport describes
    const client = new Client({ name: 'nestwright', version: '0.1.0' }, { capabilities: {} });
    await client.connect(sdkTransport);
    return new McpToolTransport(client, sdkTransport);
  }

  /** Connect over Streamable HTTP with a bearer token (docs/protocol.md#transport). */
  static async http(url: string, token: string): Promise<McpToolTransport> {
    const transport = new NodeHttpClientTransport(new URL(url), token ? { authorization: `Bearer ${token}` } : {});
    try {
      return await McpToolTransport.connect(transport);
    } catch (e) {
      await transport.close();
      throw e;
    }
  }

  get sessionId(): string | undefined {
    return this.transport.sessionId;
  }

  /** One `tools/call` request; the result as the server sent it. */
  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult> {
    // The SDK would reject with a plain Error('Not connected'): say it with a type.
    if (!this.client.transport) throw new ConnectionLostError('the connection to the device runtime is closed');
    // The runtime validates results with the protocol's zod schemas and so does DeviceClient;
    // the SDK's own JSON Schema check of structuredContent would only repeat that work.
    return (await this.client.callTool({ name, arguments: args }, undefined, {
      ...(signal ? { signal } : {}),
      timeout: 600_000,
    })) as CallResult;
  }

  /** Close the MCP client and its transport (ending the session on the runtime first). */
  async close(): Promise<void> {
    if (this.transport instanceof NodeHttpClientTransport) await this.transport.terminateSession().catch(() => {});
    await this.client.close().catch(() => {});
  }
}

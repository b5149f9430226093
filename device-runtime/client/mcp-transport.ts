import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallResult, ToolTransport } from './transport.js';
import { ConnectionLostError } from './transport-failure.js';

/**
 * Calls whose HTTP answer stream is open, by the id put in their `_meta`. The SDK (1.32) leaves a
 * request pending until its timeout when the server's SSE stream ends or breaks before the
 * answer (a SIGKILLed device): nothing rejects it. We watch each call's stream and, once it has
 * closed with the call still unanswered, abort the call, which DeviceClient reports as
 * DEVICE_DISCONNECTED.
 */
const CALL_META = 'nestwright/call';
type Watch = { controller: AbortController; settled: boolean };
/** How long after the stream closed the SDK gets to deliver an answer that was in its last bytes. */
const SETTLE_MS = 250;

function watchingFetch(timeoutMs: number, watches: Map<string, Watch>): typeof fetch {
  return async (input, init) => {
    const link = linkedSignal(init?.signal ?? undefined, timeoutMs);
    let res: Response;
    try {
      res = await fetch(input, { ...init, signal: link.signal });
    } catch (e) {
      link.release();
      throw e;
    }
    if (!res.body) {
      link.release();
      return res;
    }
    const callId = typeof init?.body === 'string' ? callIdOf(init.body) : null;
    const watch = callId ? watches.get(callId) : undefined;
    const closed = () => {
      link.release();
      if (watch) setTimeout(() => { if (!watch.settled) watch.controller.abort(new ConnectionLostError('the device runtime closed the connection before answering')); }, SETTLE_MS);
    };
    const body = res.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: () => { closed(); } }));
    // A broken stream errors the reader, not flush: watch for that too.
    const [forSdk, forWatch] = body.tee();
    void forWatch.pipeTo(new WritableStream()).catch(closed);
    return new Response(forSdk, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/**
 * A signal of one request, aborted when the SDK's signal is. The SDK hands every request of a
 * transport the same long-lived signal, and undici's fetch removes its abort listener from it
 * only when the request is garbage-collected: one listener per call piles up
 * (MaxListenersExceededWarning). Each request gets its own signal instead, and the link to the
 * SDK's is removed as soon as the answer has been read.
 */
function linkedSignal(outer: AbortSignal | undefined, timeoutMs: number): { signal: AbortSignal; release: () => void } {
  if (!outer) return { signal: AbortSignal.timeout(timeoutMs), release: () => {} };
  const own = new AbortController();
  const onAbort = () => own.abort(outer.reason);
  if (outer.aborted) own.abort(outer.reason);
  else outer.addEventListener('abort', onAbort, { once: true });
  return { signal: own.signal, release: () => outer.removeEventListener('abort', onAbort) };
}

function callIdOf(body: string): string | null {
  if (!body.includes(CALL_META)) return null;
  try {
    const m = JSON.parse(body) as { params?: { _meta?: Record<string, unknown> } };
    const id = m.params?._meta?.[CALL_META];
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

/** The official MCP client over any MCP transport (Streamable HTTP, or the SDK's in-memory pair). */
export class McpToolTransport implements ToolTransport {
  private constructor(
    private readonly client: Client,
    private readonly transport: Transport,
    private readonly watches: Map<string, Watch> | null = null,
  ) {}
  private nextCall = 0;

  /** Connect the MCP SDK's client over `transport` (e.g. one end of `InMemoryTransport.createLinkedPair()`). */
  static async connect(transport: Transport): Promise<McpToolTransport> {
    const client = new Client({ name: 'nestwright', version: '0.1.0' }, { capabilities: {} });
    await client.connect(transport);
    return new McpToolTransport(client, transport);
  }

  /** Connect over Streamable HTTP with a bearer token (docs/protocol.md#transport). */
  static async http(url: string, token: string, timeoutMs = 30_000): Promise<McpToolTransport> {
    const watches = new Map<string, Watch>();
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
      fetch: watchingFetch(timeoutMs, watches),
    });
    const plain = await McpToolTransport.connect(transport);
    return new McpToolTransport(plain.client, plain.transport, watches);
  }

  get sessionId(): string | undefined {
    return (this.transport as { sessionId?: string }).sessionId;
  }

  /** One `tools/call` request; the result as the server sent it. */
  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult> {
    // The SDK would reject with a plain Error('Not connected'): say it with a type.
    if (!this.client.transport) throw new ConnectionLostError('the connection to the device runtime is closed');
    // The runtime validates results with the protocol's zod schemas and so does DeviceClient;
    // the SDK's own JSON Schema check of structuredContent would only repeat that work.
    if (!this.watches) return (await this.client.callTool({ name, arguments: args }, undefined, { signal, timeout: 600_000 })) as CallResult;
    const id = `${process.pid}-${++this.nextCall}`;
    const watch: Watch = { controller: new AbortController(), settled: false };
    this.watches.set(id, watch);
    try {
      return (await this.client.callTool({ name, arguments: args, _meta: { [CALL_META]: id } }, undefined, {
        signal: signal ? AbortSignal.any([signal, watch.controller.signal]) : watch.controller.signal,
        timeout: 600_000,
      })) as CallResult;
    } catch (e) {
      // Aborted by the watch: the SDK wraps the reason in an McpError; throw the reason itself.
      if (watch.controller.signal.aborted && !signal?.aborted) throw watch.controller.signal.reason as Error;
      throw e;
    } finally {
      watch.settled = true;
      this.watches.delete(id);
    }
  }

  /** Close the MCP client and its transport. */
  async close(): Promise<void> {
    if (this.transport instanceof StreamableHTTPClientTransport) {
      await this.transport.terminateSession().catch(() => {});
    }
    await this.client.close().catch(() => {});
  }
}

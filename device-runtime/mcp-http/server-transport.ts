import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

export interface ServerTransportOptions {
  sessionIdGenerator: () => string;
  onsessioninitialized?: (sessionId: string) => void;
  /** An answer not ready after this long goes out as an SSE stream with keep-alives (default 1 s). */
  sseAfterMs?: number;
  /** Keep-alive comments on an SSE answer, this often (default 15 s, the SDK's). */
  keepAliveMs?: number;
}

/** One POST with requests in it, until every request in it is answered. */
interface Exchange {
  res: ServerResponse;
  /** Requests of this POST not yet answered. */
  open: Set<RequestId>;
  /** Answers held back for a single JSON body. */
  held: JSONRPCMessage[];
  sse: boolean;
  timer?: NodeJS.Timeout;
}

/**
 * The server half of MCP's Streamable HTTP transport on Node's `http` module, for the SDK's
 * `Server` (both servers behind host.ts: the simulated device and `nestwright mcp`).
 *
 * Why not the SDK's `StreamableHTTPServerTransport`: it turns each Node request into a web
 * `Request` (through `@hono/node-server`) and answers with a web `ReadableStream` of SSE events,
 * written to the socket in three writes (headers, the event, the end). The device answers ten or
 * more calls per test, in the runner process that shares the machine's cores with the workers:
 * a CPU profile of a suite put a fifth of that process in socket writes and about 1 ms per call
 * in the adapter and web streams. The SDK's JSON mode, which would answer in one write, keeps
 * every answered call in its stream map (SDK 1.32.2). Everything above the wire stays the SDK's:
 * `Server`/`Protocol` (ids, cancellation, result schemas), `JSONRPCMessageSchema`, the version list.
 *
 * What it speaks: a POST's requests are answered in one `application/json` body (one write) when
 * the answers are ready within `sseAfterMs`; a notification or a request to the client that
 * comes first (progress, say), or an answer that takes longer, turns the answer into an SSE
 * stream (`text/event-stream`, keep-alive comments) on which the rest follow — both forms are the
 * transport spec's, and clients accept either. Notifications and answers alone get 202. The
 * session id comes with the initialize answer and is required after; `MCP-Protocol-Version` must
 * be one the SDK supports; DELETE ends the session. The same statuses and JSON-RPC error codes as
 * the SDK's transport. What it leaves out, as the host does: the standalone GET stream (405) and
 * resumption with `Last-Event-ID` (no event store). A client that disconnects before its answer
 * has its requests cancelled, as if it had sent `notifications/cancelled`, so waiting tools stop.
 */
export class NodeStreamableHttpServerTransport implements Transport {
  sessionId?: string;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private initialized = false;
  private closed = false;
  private readonly exchanges = new Map<RequestId, Exchange>();
  private readonly sseAfterMs: number;
  private readonly keepAliveMs: number;

  constructor(private readonly opts: ServerTransportOptions) {
    this.sseAfterMs = opts.sseAfterMs ?? 1000;
    this.keepAliveMs = opts.keepAliveMs ?? 15_000;
  }

  async start(): Promise<void> {}

  /** Serve one HTTP request of this session; `body` is the parsed JSON body of a POST. */
  handleRequest(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    if (this.closed) return fail(res, 404, -32001, 'Session not found');
    if (req.method === 'POST') return this.post(req, res, body);
    if (req.method === 'DELETE') {
      if (this.badSession(req, res) || this.badVersion(req, res)) return;
      res.writeHead(200, { 'content-length': '0' }).end();
      void this.close();
      return;
    }
    res.writeHead(405, { allow: 'POST, DELETE', 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }));
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answer = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    const id = answer ? (message as { id: RequestId }).id : options?.relatedRequestId;
    if (id === undefined) {
      if (answer)
        throw new Error('Cannot send a response on a standalone SSE stream unless resuming a previous client request');
      return; // no standalone stream: a message for no request has nowhere to go (as the SDK's transport without a GET stream)
    }
    const ex = this.exchanges.get(id);
    if (!ex) {
      if (this.closed) return;
      throw new Error(`No connection established for request ID: ${String(id)}`);
    }
    if (!answer) {
      this.stream(ex);
      event(ex.res, message);
      return;
    }
    this.exchanges.delete(id);
    ex.open.delete(id);
    if (ex.sse) event(ex.res, message);
    else ex.held.push(message);
    if (ex.open.size === 0) finish(ex, this.sessionId);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const ex of new Set(this.exchanges.values())) {
      clearTimeout(ex.timer);
      if (!ex.res.headersSent) ex.res.writeHead(200, { 'content-type': 'text/event-stream' });
      ex.res.end();
    }
    this.exchanges.clear();
    this.onclose?.();
  }

  private post(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return this.refuse(
        res,
        406,
        -32000,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      );
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      return this.refuse(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    }
    if (Array.isArray(body) && body.length > MAX_BATCH_SIZE)
      return this.refuse(res, 400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
    const messages: JSONRPCMessage[] = [];
    for (const raw of Array.isArray(body) ? body : [body]) {
      const parsed = JSONRPCMessageSchema.safeParse(raw);
      if (!parsed.success) return this.refuse(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
      messages.push(parsed.data);
    }
    if (messages.some(isInitializeRequest)) {
      if (this.initialized) return this.refuse(res, 400, -32600, 'Invalid Request: Server already initialized');
      if (messages.length > 1)
        return this.refuse(res, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
      this.sessionId = this.opts.sessionIdGenerator();
      this.initialized = true;
      this.opts.onsessioninitialized?.(this.sessionId);
    } else if (this.badSession(req, res) || this.badVersion(req, res)) {
      return;
    }
    const extra: MessageExtraInfo = { requestInfo: { headers: req.headers } };
    const requests = messages.filter(isJSONRPCRequest);
    if (requests.length === 0) {
      for (const m of messages) this.onmessage?.(m, extra);
      res.writeHead(202, { 'content-length': '0' }).end();
      return;
    }
    const ex: Exchange = { res, open: new Set(requests.map((r) => r.id)), held: [], sse: false };
    for (const id of ex.open) this.exchanges.set(id, ex);
    ex.timer = setTimeout(() => this.stream(ex), this.sseAfterMs);
    ex.timer.unref();
    res.once('close', () => {
      clearTimeout(ex.timer);
      if (ex.open.size === 0) return;
      // Gone before its answers: cancel what it asked for, the path a client's own cancel takes.
      for (const requestId of ex.open)
        this.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId, reason: 'client disconnected' },
        });
    });
    for (const m of messages) this.onmessage?.(m, extra);
  }

  /** Turn an exchange's answer into an SSE stream (once), sending what was held back. */
  private stream(ex: Exchange): void {
    if (ex.sse || ex.res.writableEnded) return;
    ex.sse = true;
    clearTimeout(ex.timer);
    ex.res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...(this.sessionId ? { 'mcp-session-id': this.sessionId } : {}),
    });
    ex.res.flushHeaders();
    for (const m of ex.held.splice(0)) event(ex.res, m);
    const keepAlive = setInterval(() => {
      if (ex.res.writableEnded) clearInterval(keepAlive);
      else ex.res.write(': keepalive\n\n');
    }, this.keepAliveMs);
    keepAlive.unref();
    ex.res.once('close', () => clearInterval(keepAlive));
  }

  /** Whether the request is not of this session (answered with the SDK's status and code if so). */
  private badSession(req: IncomingMessage, res: ServerResponse): boolean {
    const sid = req.headers['mcp-session-id'];
    const why: [number, number, string] | null = !this.initialized
      ? [400, -32000, 'Bad Request: Server not initialized']
      : !sid
        ? [400, -32000, 'Bad Request: Mcp-Session-Id header is required']
        : sid !== this.sessionId
          ? [404, -32001, 'Session not found']
          : null;
    if (why) this.refuse(res, ...why);
    return why !== null;
  }

  private badVersion(req: IncomingMessage, res: ServerResponse): boolean {
    const v = req.headers['mcp-protocol-version'];
    if (v === undefined || (typeof v === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(v))) return false;
    this.refuse(
      res,
      400,
      -32000,
      `Bad Request: Unsupported protocol version: ${String(v)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    );
    return true;
  }

  private refuse(res: ServerResponse, status: number, code: number, message: string): void {
    this.onerror?.(new Error(message));
    fail(res, status, code, message);
  }
}

function fail(res: ServerResponse, status: number, code: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

function event(res: ServerResponse, message: JSONRPCMessage): void {
  if (!res.writableEnded && !res.destroyed) res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

/** Every request of the exchange is answered: end the stream, or send the held answers as one JSON body in one write. */
function finish(ex: Exchange, sessionId: string | undefined): void {
  clearTimeout(ex.timer);
  if (ex.res.destroyed || ex.res.writableEnded) return;
  if (ex.sse) {
    ex.res.end();
    return;
  }
  const body = JSON.stringify(ex.held.length === 1 ? ex.held[0] : ex.held);
  ex.res
    .writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
    })
    .end(body);
}

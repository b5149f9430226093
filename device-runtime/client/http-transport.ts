import http from 'node:http';
import https from 'node:https';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createParser } from 'eventsource-parser';
import { ConnectionLostError } from './transport-failure.js';

/**
 * The client half of MCP's Streamable HTTP transport (docs/protocol.md#transport) on Node's
 * `http` module, for the SDK's `Client`.
 *
 * Why not the SDK's `StreamableHTTPClientTransport`: a tool call through it costs about 3.5 ms
 * of CPU in the calling process (500 calls against a simulator in another process): fetch (undici),
 * a web `Response`, and for an SSE answer three chained web streams. A test makes ten or more
 * calls, so on a 2-core machine running two workers and the device, that CPU was about half of a
 * test's time. Over a kept-alive `http.Agent`, reading the answer as it comes, a call costs a
 * third of it. Everything above the wire stays the SDK's: the `Client`/`Protocol` (ids,
 * timeouts, cancellation, result schemas), the error classes (`StreamableHTTPError` with the
 * HTTP status, which `classifyTransportFailure` reads), `eventsource-parser` for SSE.
 *
 * What it speaks: POST of each JSON-RPC message with `Accept: application/json,
 * text/event-stream`; an answer as JSON or as an SSE stream; 202 for notifications;
 * `Mcp-Session-Id` kept from the initialize answer and sent back; `MCP-Protocol-Version` once
 * negotiated; DELETE to end the session. What it leaves out: the standalone GET stream for
 * server-initiated messages (the device protocol sends none outside a call's stream),
 * resumption with `Last-Event-ID`, and OAuth (the runtime takes a bearer token).
 *
 * A request's answer stream that ends, or breaks, before the answer came rejects `send`, so the
 * SDK rejects the call at once with that error (the SDK's own transport leaves it pending until
 * its timeout): a device killed mid-call is a `ConnectionLostError` or the socket's errno.
 */
export class NodeHttpClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private session: string | undefined;
  private protocolVersion: string | undefined;
  private readonly agent: http.Agent;
  private readonly lib: typeof http | typeof https;
  private readonly inFlight = new Set<http.ClientRequest>();
  private closed = false;

  constructor(
    private readonly url: URL,
    private readonly headers: Record<string, string> = {},
  ) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`MCP over HTTP: ${url.href} is not an http(s) URL`);
    this.lib = url.protocol === 'https:' ? https : http;
    // Sockets are kept between calls (the runtime keeps them 65 s); several calls may be in flight.
    this.agent = new this.lib.Agent({ keepAlive: true, maxSockets: 32 });
  }

  get sessionId(): string | undefined {
    return this.session;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new ConnectionLostError('the connection to the device runtime is closed');
    const body = JSON.stringify(message);
    const res = await this.request('POST', body);
    const sid = res.headers['mcp-session-id'];
    if (typeof sid === 'string' && sid) this.session = sid;
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      const text = await readText(res).catch(() => '');
      throw new StreamableHTTPError(status, `Error POSTing to endpoint (HTTP ${status}): ${text}`);
    }
    const waiting = 'method' in message && 'id' in message && message.id !== undefined ? message.id : undefined;
    if (status === 202 || waiting === undefined) {
      res.resume();
      return;
    }
    const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    let answered = false;
    const deliver = (msg: JSONRPCMessage) => {
      if ('id' in msg && msg.id === waiting && !('method' in msg)) answered = true;
      this.onmessage?.(msg);
    };
    if (type === 'application/json') {
      const data = JSON.parse(await readText(res)) as JSONRPCMessage | JSONRPCMessage[];
      for (const msg of Array.isArray(data) ? data : [data]) deliver(msg);
    } else if (type === 'text/event-stream') {
      await readEvents(res, (data) => deliver(JSON.parse(data) as JSONRPCMessage));
    } else {
      res.resume();
      throw new StreamableHTTPError(-1, `Unexpected content type: ${type || '(none)'}`);
    }
    if (!answered) throw new ConnectionLostError('the device runtime closed the connection before answering');
  }

  /** End the session on the runtime (HTTP DELETE); a runtime may answer 405 (it does not let clients end sessions). */
  async terminateSession(): Promise<void> {
    if (!this.session || this.closed) return;
    const res = await this.request('DELETE');
    res.resume();
    const status = res.statusCode ?? 0;
    if ((status < 200 || status >= 300) && status !== 405)
      throw new StreamableHTTPError(status, `Failed to terminate session (HTTP ${status})`);
    this.session = undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // What a call still waiting rejects with. Its stack is only its name and message: this close is
    // not where the call went wrong, and a stack to format costs the worker's exit tens of ms
    // (Node formats it on destroy; Playwright then maps every frame through the bundle's maps).
    const lost = new ConnectionLostError('the connection to the device runtime was closed');
    lost.stack = `${lost.name}: ${lost.message}`;
    for (const req of this.inFlight) req.destroy(lost);
    this.agent.destroy();
    this.onclose?.();
  }

  private request(method: 'POST' | 'DELETE', body?: string): Promise<http.IncomingMessage> {
    const headers: Record<string, string | number> = { ...this.headers, accept: 'application/json, text/event-stream' };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    if (this.session) headers['mcp-session-id'] = this.session;
    if (this.protocolVersion) headers['mcp-protocol-version'] = this.protocolVersion;
    return new Promise((resolve, reject) => {
      const req = this.lib.request(this.url, { method, headers, agent: this.agent }, resolve);
      this.inFlight.add(req);
      req.once('close', () => this.inFlight.delete(req));
      req.once('error', reject);
      req.end(body);
    });
  }
}

/** Read a body to its end, chunk by chunk; rejects when it errors or the connection closes before it is complete. */
function consume(res: http.IncomingMessage, onChunk: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    res.setEncoding('utf8');
    res.on('data', onChunk);
    res.once('end', resolve);
    // A response cut short ('aborted'/ECONNRESET) ends in an error or a premature close.
    res.once('error', reject);
    res.once('close', () => {
      if (!res.complete) reject(new ConnectionLostError('the device runtime closed the connection mid-answer'));
    });
  });
}

async function readText(res: http.IncomingMessage): Promise<string> {
  let text = '';
  await consume(res, (d) => (text += d));
  return text;
}

/** Feed an SSE body to `onData` (each event's data), resolving when the stream ends. */
async function readEvents(res: http.IncomingMessage, onData: (data: string) => void): Promise<void> {
  let failed: unknown = null;
  const parser = createParser({
    onEvent: (event) => {
      if (failed || !event.data) return;
      try {
        onData(event.data);
      } catch (e) {
        failed = e;
      }
    },
  });
  await consume(res, (d) => parser.feed(d));
  if (failed) throw failed;
}

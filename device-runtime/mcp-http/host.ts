import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { NodeStreamableHttpServerTransport } from './server-transport.js';
import {
  allowedHosts,
  authorized,
  badHostOrOrigin,
  corsHeaders,
  digest,
  HttpError,
  LIMITS,
  readJsonBody,
  reply,
} from './guards.js';
import { closeAfterResponse } from './lingering-close.js';
import type { EarlyListener } from './early-listener.js';

export interface McpHttpOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /**
   * Serve the connections of this listener, already listening on 127.0.0.1 (`port` and `host`
   * are then its own): see early-listener.ts. Closed with the server.
   */
  listener?: EarlyListener;
  /** 127.0.0.1 unless `lan` is set (LAN only when asked for explicitly, and with a token). */
  host?: string;
  lan?: boolean;
  /** Bearer token; random when absent. `lan` requires one to be given. */
  token?: string;
  /** No bearer token at all: only for the MCP conformance suite, which cannot send one. Refused with `lan`. */
  noAuth?: boolean;
  /** Extra Host/Origin names to accept besides loopback (e.g. a name that resolves to this machine). */
  allowHosts?: string[];
  /** Idle MCP sessions are closed after this long. Default 30 min. */
  sessionIdleMs?: number;
  /** Authenticated requests in flight beyond this get 429 (32). */
  maxConcurrent?: number;
  /**
   * Authenticated connections (ones that have carried a request with the token, or any request
   * with `noAuth`), idle keep-alive ones included: one more is answered 429 and closed. Default
   * 4 × maxConcurrent: HTTP clients keep idle sockets around (16 clients connecting at once open
   * ~48), and counting those against the 32 would refuse well-behaved clients.
   */
  maxConnections?: number;
  /**
   * Connections that have not authenticated yet: one more closes the oldest of them (default
   * maxConnections). They never count against `maxConnections`, so strangers cannot use up the
   * token holder's budget; this bounds the file descriptors they hold.
   */
  maxPendingConnections?: number;
  /** A request's headers must be complete this long after it began, or after the connection opened (10 s). */
  headersTimeoutMs?: number;
  maxBodyBytes?: number;
}

export interface McpHttpHooks {
  /** Who is serving, for error messages and hints (`nestwright sim`, `nestwright mcp`). */
  name: string;
  /** A new MCP server for one client session; `sessionId()` is its id once initialized. */
  newServer(sessionId: () => string): Server;
  /** The session closed (DELETE, idle reclaim, shutdown): free what it held. */
  onSessionClosed?(sessionId: string): void;
}

export interface McpHttpHost {
  url: string;
  token: string;
  /** MCP sessions currently open. */
  sessionCount(): number;
  close(): Promise<void>;
}

interface Session {
  transport: NodeStreamableHttpServerTransport;
  lastSeen: number;
}

/**
 * Serve MCP over Streamable HTTP at `/mcp` with the transport rules of the device protocol. In
 * order: Host/Origin against the allow-list (403; `Origin: null` too), path (404), bearer token
 * in constant time (401), then load — authenticated connections and requests in flight (429) —
 * all before a byte of the body is read; then body size from Content-Length and while streaming
 * (413), then the session (404 when unknown or reclaimed). `Expect: 100-continue` gets its 100
 * only once all of that has passed, just before the body is read; a refusal is final.
 *
 * Connections that have not authenticated are kept apart: they do not count against the
 * authenticated budget, a new one closes the oldest beyond `maxPendingConnections`, and each
 * request's headers must be complete within `headersTimeoutMs` (Node's `headersTimeout`, which
 * counts from the moment the connection opened for its first request), so idle sockets cannot
 * lock the token holder out. An answer that leaves a body unread (a 413, any refusal before
 * the body, a refused `Expect`) closes the connection in stages (lingering-close.ts), so that a
 * client still sending reads it rather than a reset; so does a 429.
 * Both MCP servers of the project (the simulated device and `nestwright mcp`) sit behind it.
 */
export async function startMcpHttpHost(opts: McpHttpOptions, hooks: McpHttpHooks): Promise<McpHttpHost> {
  if (opts.lan && opts.noAuth)
    throw new Error(`${hooks.name}: --lan cannot be combined with --no-auth; a LAN server must check a token.`);
  if (opts.lan && !opts.token)
    throw new Error(
      `${hooks.name}: --lan needs an explicit token (--token-file F); refusing to expose the server on the network without one.`,
    );
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const expected = digest(token);
  const host = opts.host ?? (opts.lan ? '0.0.0.0' : '127.0.0.1');
  const hosts = allowedHosts(!!opts.lan, [...(opts.allowHosts ?? []), ...(opts.host ? [opts.host] : [])]);
  const maxConcurrent = opts.maxConcurrent ?? LIMITS.maxConcurrent;
  const maxConnections = opts.maxConnections ?? maxConcurrent * 4;
  const maxPending = opts.maxPendingConnections ?? maxConnections;
  const headersTimeout = opts.headersTimeoutMs ?? LIMITS.headersTimeoutMs;
  const maxBody = opts.maxBodyBytes ?? LIMITS.maxBodyBytes;
  const idleMs = opts.sessionIdleMs ?? LIMITS.sessionIdleMs;
  const sessions = new Map<string, Session>();
  /** Connections without an authenticated request yet, oldest first (a Set keeps insertion order). */
  const pending = new Set<Socket>();
  /** Connections that have carried an authenticated request: the budget `maxConnections` counts. */
  const trusted = new Set<Socket>();
  /** Requests with `Expect: 100-continue` not yet told to go on. */
  const awaitingContinue = new WeakSet<IncomingMessage>();
  let inFlight = 0;

  /**
   * Whether answering now leaves unread a body the client is sending or waiting to send: then
   * the answer closes the connection (in stages), rather than reading on for the next request.
   */
  function leavesBody(req: IncomingMessage): boolean {
    if (awaitingContinue.has(req)) return true;
    const declared = (req.headers['content-length'] ?? '0') !== '0' || req.headers['transfer-encoding'] !== undefined;
    return declared && !req.readableEnded;
  }

  /** A refusal; a 429 sheds the connection too. */
  function refuse(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    code: string,
    message: string,
    extra: Record<string, string> = {},
  ): void {
    if (leavesBody(req)) {
      req.resume(); // whatever of the body still comes is dropped (a half-read one is not dumped by Node)
      closeAfterResponse(res);
    } else if (status === 429) closeAfterResponse(res);
    reply(res, status, code, message, extra);
  }

  /** The request's JSON body; a client waiting on `Expect: 100-continue` is told to send it now. */
  function body(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    if (awaitingContinue.delete(req)) res.writeContinue();
    return readJsonBody(req, maxBody);
  }

  /** Count the request's connection as authenticated; false when that budget is used up. */
  function admit(socket: Socket): boolean {
    if (trusted.has(socket)) return true;
    if (trusted.size >= maxConnections) return false;
    pending.delete(socket);
    trusted.add(socket);
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bad = badHostOrOrigin(req, hosts);
    if (bad)
      return refuse(
        req,
        res,
        403,
        'FORBIDDEN',
        `${bad}; ${hooks.name} answers loopback names${opts.lan ? ' and its LAN addresses' : ''} (add names with --allow-host)`,
      );
    for (const [k, v] of Object.entries(corsHeaders(req, hosts))) res.setHeader(k, v);
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp') return refuse(req, res, 404, 'NOT_FOUND', 'the MCP endpoint is /mcp');
    if (req.method === 'OPTIONS') {
      if (leavesBody(req)) closeAfterResponse(res);
      res.writeHead(204).end();
      return;
    }
    if (!opts.noAuth && !authorized(req, expected)) {
      return refuse(
        req,
        res,
        401,
        'UNAUTHORIZED',
        `missing or wrong bearer token; the token file is printed by \`${hooks.name}\``,
        { 'www-authenticate': 'Bearer' },
      );
    }
    if (!admit(req.socket))
      return refuse(req, res, 429, 'RATE_LIMITED', `more than ${maxConnections} connections open; retry shortly`, {
        'retry-after': '1',
      });
    inFlight++;
    res.once('close', () => inFlight--);
    if (inFlight > maxConcurrent)
      return refuse(req, res, 429, 'RATE_LIMITED', `more than ${maxConcurrent} requests in flight; retry shortly`, {
        'retry-after': '1',
      });
    if (req.method === 'GET') {
      // The servers send notifications only on request streams, so there is no standalone SSE
      // stream (the MCP spec allows 405 here). Held-open GETs would otherwise take half the
      // connection budget. No body: a client that ignores it (the SDK does) would keep the socket busy.
      if (leavesBody(req)) closeAfterResponse(res);
      res.writeHead(405, { allow: 'POST, DELETE', 'content-length': '0' }).end();
      return;
    }
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > maxBody)
      throw new HttpError(
        413,
        'PAYLOAD_TOO_LARGE',
        `request body of ${length} bytes is over the ${maxBody}-byte limit`,
      );
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const session = sessions.get(sid);
      if (!session)
        return refuse(req, res, 404, 'SESSION_NOT_FOUND', `unknown or expired session ${sid}; initialize a new one`);
      session.lastSeen = Date.now();
      session.transport.handleRequest(req, res, req.method === 'POST' ? await body(req, res) : undefined);
      return;
    }
    if (req.method !== 'POST')
      return refuse(req, res, 400, 'BAD_REQUEST', 'no Mcp-Session-Id; initialize first with POST');
    const message = await body(req, res);
    const transport = new NodeStreamableHttpServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, lastSeen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) {
        sessions.delete(transport.sessionId);
        hooks.onSessionClosed?.(transport.sessionId);
      }
    };
    const server = hooks.newServer(() => transport.sessionId ?? 'anonymous');
    await server.connect(transport);
    transport.handleRequest(req, res, message);
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((e: unknown) => {
      const status = e instanceof HttpError ? e.status : 500;
      const code = e instanceof HttpError ? e.code : 'INTERNAL';
      refuse(req, res, status, code, (e as Error).message);
    });
  };
  const http: HttpServer = createServer(
    {
      maxHeaderSize: LIMITS.maxHeaderBytes,
      // How often Node looks for requests past headersTimeout (its default is every 30 s).
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, headersTimeout / 4)),
    },
    onRequest,
  );
  // Expect: 100-continue is answered by the handler: 100 just before the body is read, or the refusal instead.
  http.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    awaitingContinue.add(req);
    onRequest(req, res);
  });
  // A client reuses an idle keep-alive connection until the server's advertised timeout less a
  // second; at Node's default of 5 s a client stalled by a busy machine can send on a socket the
  // server is closing ("other side closed"). A long idle timeout makes that race rare; idle
  // sockets are few (one per client) and the connection limit still holds. (headersTimeout does
  // not apply between requests: it starts with a request's first byte, or with the connection.)
  http.keepAliveTimeout = 65_000;
  http.headersTimeout = headersTimeout;
  http.requestTimeout = Math.max(http.requestTimeout, headersTimeout);
  http.on('connection', (socket: Socket) => {
    if (pending.size >= maxPending) {
      // The oldest stranger makes room: a new connection may be the token holder's.
      const oldest = pending.values().next().value!;
      pending.delete(oldest);
      oldest.destroy();
    }
    pending.add(socket);
    socket.once('close', () => {
      pending.delete(socket);
      trusted.delete(socket);
    });
  });

  // Sessions idle for `idleMs` are closed, which frees what they held.
  const reaper = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const s of sessions.values()) if (s.lastSeen < cutoff) void s.transport.close();
    },
    Math.max(50, Math.min(idleMs / 4, 60_000)),
  );
  reaper.unref();

  const listener = opts.listener;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    if (listener) http.listen(listener.handle, () => resolve());
    else http.listen(opts.port ?? 0, host, () => resolve());
  });
  // Connections that waited on the early listener go the way accepted ones go.
  for (const socket of listener?.drain() ?? []) {
    http.emit('connection', socket);
    socket.resume();
  }
  const port = listener ? listener.port : (http.address() as AddressInfo).port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}/mcp`,
    token,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(reaper);
      for (const s of [...sessions.values()]) await s.transport.close().catch(() => {});
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

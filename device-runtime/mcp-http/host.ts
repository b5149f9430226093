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

export interface McpHttpOptions {
  /** 0 (default) picks a free port. */
  port?: number;
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
  /** Requests in flight beyond this get 429 (32). */
  maxConcurrent?: number;
  /**
   * Open connections, idle keep-alive ones included, beyond this are answered 429 and closed.
   * Default 4 × maxConcurrent: HTTP clients keep idle sockets around (16 clients connecting at
   * once open ~48), and counting those against the 32 would refuse well-behaved clients.
   */
  maxConnections?: number;
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
 * order: Host/Origin against the allow-list (403), path (404), load (429), bearer token in
 * constant time (401) — all before a byte of the body is read — then body size from
 * Content-Length and while streaming (413), then the session (404 when unknown or reclaimed).
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
  const maxBody = opts.maxBodyBytes ?? LIMITS.maxBodyBytes;
  const idleMs = opts.sessionIdleMs ?? LIMITS.sessionIdleMs;
  const sessions = new Map<string, Session>();
  const sockets = new Set<Socket>();
  let inFlight = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bad = badHostOrOrigin(req, hosts);
    if (bad)
      return reply(
        res,
        403,
        'FORBIDDEN',
        `${bad}; ${hooks.name} answers loopback names${opts.lan ? ' and its LAN addresses' : ''} (add names with --allow-host)`,
      );
    const cors = corsHeaders(req);
    for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp') return reply(res, 404, 'NOT_FOUND', 'the MCP endpoint is /mcp');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    if (!opts.noAuth && !authorized(req, expected)) {
      return reply(
        res,
        401,
        'UNAUTHORIZED',
        `missing or wrong bearer token; the token file is printed by \`${hooks.name}\``,
        { 'www-authenticate': 'Bearer' },
      );
    }
    if (req.method === 'GET') {
      // The servers send notifications only on request streams, so there is no standalone SSE
      // stream (the MCP spec allows 405 here). Held-open GETs would otherwise take half the
      // connection budget. No body: a client that ignores it (the SDK does) would keep the socket busy.
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
        return reply(res, 404, 'SESSION_NOT_FOUND', `unknown or expired session ${sid}; initialize a new one`);
      session.lastSeen = Date.now();
      const body = req.method === 'POST' ? await readJsonBody(req, maxBody) : undefined;
      session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST') return reply(res, 400, 'BAD_REQUEST', 'no Mcp-Session-Id; initialize first with POST');
    const body = await readJsonBody(req, maxBody);
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
    transport.handleRequest(req, res, body);
  }

  const http: HttpServer = createServer({ maxHeaderSize: LIMITS.maxHeaderBytes }, (req, res) => {
    inFlight++;
    res.once('close', () => inFlight--);
    if (inFlight > maxConcurrent) {
      return reply(res, 429, 'RATE_LIMITED', `more than ${maxConcurrent} requests in flight; retry shortly`, {
        'retry-after': '1',
        connection: 'close',
      });
    }
    handle(req, res).catch((e: unknown) => {
      const status = e instanceof HttpError ? e.status : 500;
      const code = e instanceof HttpError ? e.code : 'INTERNAL';
      // After a 413 the rest of the body is not wanted: close instead of draining 40 MB.
      reply(res, status, code, (e as Error).message, status === 413 ? { connection: 'close' } : {});
    });
  });
  // A client reuses an idle keep-alive connection until the server's advertised timeout less a
  // second; at Node's default of 5 s a client stalled by a busy machine can send on a socket the
  // server is closing ("other side closed"). A long idle timeout makes that race rare; idle
  // sockets are few (one per client) and the connection limit still holds.
  http.keepAliveTimeout = 65_000;
  http.headersTimeout = 66_000;
  http.on('connection', (socket: Socket) => {
    if (sockets.size >= maxConnections) {
      socket.end(`HTTP/1.1 429 Too Many Requests\r\nretry-after: 1\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
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

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
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

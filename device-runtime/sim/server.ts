import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from './mcp.js';
import { SimRuntime, type SimOptions } from './runtime.js';

export interface SimServerOptions extends SimOptions {
  /** 0 picks a free port. */
  port?: number;
  /** 127.0.0.1 unless `lan` is set (§5.3: LAN only when asked for explicitly, and with a token). */
  host?: string;
  lan?: boolean;
  token?: string;
  runtime?: SimRuntime;
}

export interface RunningSim {
  url: string;
  token: string;
  runtime: SimRuntime;
  close(): Promise<void>;
}

const MAX_BODY = 40 * 1024 * 1024;

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** Bearer token check in constant time (both sides hashed to equal length first). */
function authorized(req: IncomingMessage, expected: Buffer): boolean {
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+(.+)$/i.exec(header);
  return !!m && timingSafeEqual(digest(m[1]!.trim()), expected);
}

function reply(res: ServerResponse, status: number, code: string, message: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...extra });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `${code}: ${message}` }, id: null }));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw Object.assign(new Error('body too large'), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw Object.assign(new Error('body is not JSON'), { status: 400 });
  }
}

/**
 * Serve a simulated runtime over MCP Streamable HTTP at `/mcp` (§5.3): bearer token checked
 * before the body is read, one MCP session (and lease owner) per client, loopback by default.
 */
export async function startSimServer(opts: SimServerOptions = {}): Promise<RunningSim> {
  const runtime = opts.runtime ?? new SimRuntime(opts);
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const expected = digest(token);
  const host = opts.host ?? (opts.lan ? '0.0.0.0' : '127.0.0.1');
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const http: HttpServer = createServer({ maxHeaderSize: 64 * 1024 }, async (req, res) => {
    try {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== '/mcp') return reply(res, 404, 'NOT_FOUND', 'the MCP endpoint is /mcp');
      if (!authorized(req, expected)) {
        return reply(res, 401, 'UNAUTHORIZED', 'missing or wrong bearer token', { 'www-authenticate': 'Bearer' });
      }
      const sid = req.headers['mcp-session-id'];
      if (typeof sid === 'string') {
        const transport = sessions.get(sid);
        if (!transport) return reply(res, 404, 'SESSION_NOT_FOUND', `unknown or expired session ${sid}; initialize a new one`);
        const body = req.method === 'POST' ? await readBody(req) : undefined;
        return await transport.handleRequest(req, res, body);
      }
      if (req.method !== 'POST') return reply(res, 400, 'BAD_REQUEST', 'no Mcp-Session-Id; initialize first with POST');
      const body = await readBody(req);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          sessions.set(id, transport);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) {
          sessions.delete(transport.sessionId);
          runtime.endSession(transport.sessionId);
        }
      };
      const server = createMcpServer(runtime, () => ({ sessionId: transport.sessionId ?? 'anonymous', caller: 'REMOTE_MCP' }));
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (e) {
      const status = (e as { status?: number }).status ?? 500;
      if (!res.headersSent) reply(res, status, status === 413 ? 'PAYLOAD_TOO_LARGE' : 'ERROR', (e as Error).message);
      else res.end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost}:${port}/mcp`,
    token,
    runtime,
    async close() {
      for (const t of sessions.values()) await t.close().catch(() => {});
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

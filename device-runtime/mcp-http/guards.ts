import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';

/** Limits of the transport rules (docs/protocol.md#transport): the same for the device runtime and `nestwright mcp`. */
export const LIMITS = {
  maxBodyBytes: 40 * 1024 * 1024,
  maxHeaderBytes: 64 * 1024,
  maxConcurrent: 32,
  sessionIdleMs: 30 * 60_000,
  /** A request's headers complete within this (from its first byte, or from the connection's opening). */
  headersTimeoutMs: 10_000,
} as const;

export function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** Bearer token check in constant time (both sides hashed to equal length first). */
export function authorized(req: IncomingMessage, expected: Buffer): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  return !!m && timingSafeEqual(digest(m[1]!.trim()), expected);
}

export function reply(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...extra });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `${code}: ${message}` }, id: null }));
}

/**
 * Host names a request may be addressed to. Loopback always; with `lan`, this machine's own
 * addresses and name; plus whatever `--allow-host` adds. Anything else is a DNS-rebinding attempt
 * (a web page whose name resolves to us) and gets 403.
 */
export function allowedHosts(lan: boolean, extra: string[]): Set<string> {
  const hosts = new Set(['localhost', '127.0.0.1', '::1', ...extra.map((h) => h.toLowerCase())]);
  if (lan) {
    hosts.add(hostname().toLowerCase());
    for (const addrs of Object.values(networkInterfaces()))
      for (const a of addrs ?? []) hosts.add(a.address.toLowerCase());
  }
  return hosts;
}

/** `[::1]:8765` → `::1`, `Localhost:80` → `localhost`. */
function hostOf(value: string): string {
  const v = value.trim().toLowerCase();
  if (v.startsWith('[')) return v.slice(1, v.indexOf(']'));
  return v.split(':')[0]!;
}

/**
 * Why the request's Host or Origin is not allowed, or null when both are fine. A request without
 * Origin is not from a browser's page (or is a same-origin GET) and passes on its Host. `Origin:
 * null` is refused: browsers send it from sandboxed frames, `file:` and `data:` pages, which any
 * web page can open, so answering it would let any page call us. The MCP SDK's transport
 * refuses it the same way (its allowed origins are exact strings, and `null` is never among
 * them); its `hostHeaderValidation` is Express middleware and checks the Host only, so the
 * check is ours, on Node's own request.
 */
export function badHostOrOrigin(req: IncomingMessage, allowed: Set<string>): string | null {
  const host = req.headers.host;
  if (!host) return 'the request has no Host header';
  if (!allowed.has(hostOf(host))) return `Host ${host} is not allowed`;
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  if (origin.trim() === 'null') return 'Origin null (a sandboxed frame, a file: or data: page) is not allowed';
  return originAllowed(origin, allowed) ? null : `Origin ${origin} is not allowed`;
}

/** Whether `origin` is an http(s) origin whose host is in the allow-list. */
function originAllowed(origin: string, allowed: Set<string>): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return allowed.has(url.hostname.replace(/^\[|\]$/g, '').toLowerCase());
}

/**
 * CORS for the MCP Inspector (docs/protocol.md#transport): only for an allowed origin, so a
 * preflight from any other origin (or `null`) is never answered with an allow-origin.
 */
export function corsHeaders(req: IncomingMessage, allowed: Set<string>): Record<string, string> {
  const origin = req.headers.origin;
  if (!origin || !originAllowed(origin, allowed)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers':
      'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id',
    'access-control-expose-headers': 'mcp-session-id',
    vary: 'origin',
  };
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Read a JSON body of at most `max` bytes: a larger Content-Length is refused before any of the
 * body is read, and a body that crosses `max` while it streams (Content-Length may lie or be
 * absent) is refused there. A refusal leaves the request as it is (not destroyed, which would
 * reset the connection before the 413 is out): the caller answers and closes.
 */
export async function readJsonBody(req: IncomingMessage, max: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > max)
    throw new HttpError(413, 'PAYLOAD_TOO_LARGE', `request body of ${declared} bytes is over the ${max}-byte limit`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length;
    if (size > max) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', `request body is over the ${max}-byte limit`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'PARSE_ERROR', 'request body is not JSON');
  }
}

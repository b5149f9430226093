import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * What a call that failed on the wire (no answer, or an answer that is not MCP) means for the
 * caller. Decided by the error's type and code — the SDK's error classes and their codes, Node's
 * and undici's `code` on the error or its `cause` chain, the DOMException name of an abort —
 * never by message text, which changes with the next release of any of them.
 *
 * - `unauthorized`: the runtime refused the bearer token (HTTP 401/403, or the SDK's auth error).
 * - `session-gone`: HTTP 404 on a call: the runtime no longer knows this session
 *   (docs/protocol.md#transport: it restarted, or reclaimed the session after 30 idle minutes).
 * - `disconnected`: no answer came: connection refused, reset or closed mid-answer, a name that
 *   does not resolve, the HTTP timeout, the MCP connection closed or its request timed out.
 * - `protocol`: an answer came but it is not what MCP says (another HTTP status, a body the SDK
 *   could not parse, a JSON-RPC error other than the two above).
 */
export type TransportFailureKind = 'unauthorized' | 'session-gone' | 'disconnected' | 'protocol';

/** A classified transport failure: its kind, and what decided it. */
export interface TransportFailure {
  kind: TransportFailureKind;
  /** What was found, for the message: `ECONNREFUSED`, `HTTP 401`, `MCP ConnectionClosed`, `AbortError`… */
  evidence: string;
}

/**
 * Error codes that say the peer is not there or went away. System errors (errno names) are what
 * Node's sockets and DNS set on `code`; the `UND_ERR_*` ones are undici's (Node's fetch), e.g.
 * `UND_ERR_SOCKET` for "other side closed" and the cause of fetch's `terminated`.
 */
const GONE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
  'UND_ERR_ABORTED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** DOMException names of an aborted fetch: the SDK closing its transport, or our HTTP timeout. */
const ABORT_NAMES = new Set(['AbortError', 'TimeoutError']);

/** `e`, its `cause` chain and an AggregateError's `errors` (fetch to `localhost` tries ::1 and 127.0.0.1), breadth first. */
function* chain(e: unknown): Generator<unknown> {
  const queue = [e];
  const seen = new Set<unknown>();
  while (queue.length > 0 && seen.size < 16) {
    const x = queue.shift();
    if (x === null || typeof x !== 'object' || seen.has(x)) continue;
    seen.add(x);
    yield x;
    queue.push((x as { cause?: unknown }).cause);
    if (x instanceof AggregateError) queue.push(...x.errors);
  }
}

/**
 * Thrown by our own transport code when it knows the connection is gone without an error from
 * below to say so: the answer stream closed before the answer, or the MCP client is no longer
 * connected (the SDK rejects that case with a plain `Error('Not connected')`, nothing typed).
 */
export class ConnectionLostError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectionLostError';
  }
}

/** Classify a transport failure (see {@link TransportFailureKind}); `protocol` when nothing says otherwise. */
export function classifyTransportFailure(e: unknown): TransportFailure {
  for (const x of chain(e)) {
    if (x instanceof ConnectionLostError) return { kind: 'disconnected', evidence: 'connection lost' };
    if (x instanceof UnauthorizedError) return { kind: 'unauthorized', evidence: 'UnauthorizedError' };
    if (x instanceof StreamableHTTPError) {
      const status = x.code;
      if (status === 401 || status === 403) return { kind: 'unauthorized', evidence: `HTTP ${status}` };
      if (status === 404) return { kind: 'session-gone', evidence: 'HTTP 404' };
      return { kind: 'protocol', evidence: `HTTP ${status ?? '?'}` };
    }
    if (x instanceof McpError) {
      if (x.code === ErrorCode.ConnectionClosed) return { kind: 'disconnected', evidence: 'MCP ConnectionClosed' };
      if (x.code === ErrorCode.RequestTimeout) return { kind: 'disconnected', evidence: 'MCP RequestTimeout' };
      return { kind: 'protocol', evidence: `MCP error ${x.code}` };
    }
    const code = (x as { code?: unknown }).code;
    if (typeof code === 'string' && GONE_CODES.has(code)) return { kind: 'disconnected', evidence: code };
    const name = (x as { name?: unknown }).name;
    if (typeof name === 'string' && ABORT_NAMES.has(name)) return { kind: 'disconnected', evidence: name };
  }
  return { kind: 'protocol', evidence: (e as Error)?.name ?? typeof e };
}

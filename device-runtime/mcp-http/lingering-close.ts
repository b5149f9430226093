import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a closing connection may go on sending what is then thrown away (nginx's lingering_time is 30 s). */
export const LINGER_MS = 10_000;
/** …and how long it may pause while doing so (nginx's lingering_timeout is 5 s). */
export const LINGER_QUIET_MS = 2_000;

/**
 * Answer `res` with `Connection: close`, and close the connection in stages so that the client
 * gets the answer even while it is still sending a body nobody will read (RFC 9112 §9.6).
 *
 * Node ends a `Connection: close` response with `socket.destroySoon()`: the FIN goes out after
 * the answer, and the socket is destroyed as soon as that is written. With the body's bytes
 * still unread in the kernel, closing the socket sends a reset; a client that writes its whole
 * body before it reads (Python's requests, Java's HttpURLConnection) then fails its write with
 * EPIPE and never reads the answer (30 of 30 such requests, measured). So this connection's
 * `destroySoon` is replaced by a lingering close, as nginx's `lingering_close` and Go's
 * `closeWriteAndWait` do it: shut the write side (the answer and the FIN are on their way), keep
 * reading — Node's parser goes on taking the body and drops it, the request being dumped once
 * answered — and destroy the socket when the client closes its side, after `quietMs` without a
 * byte, or after `lingerMs` in all. Nothing read is kept, so what it costs is bounded by time.
 * Replacing an instance method is the only handle Node gives: `ServerResponse` has no public way
 * to take its socket back, and `Connection: close` is what makes it call `destroySoon`.
 */
export function closeAfterResponse(res: ServerResponse, lingerMs = LINGER_MS, quietMs = LINGER_QUIET_MS): void {
  if (!res.headersSent) res.setHeader('connection', 'close');
  const socket: Socket | null = res.socket;
  if (!socket || socket.destroyed) return;
  socket.destroySoon = () => {
    socket.end();
    // The parser refreshes the socket's idle timer as it consumes bytes, so this fires on silence.
    socket.setTimeout(quietMs, () => socket.destroy());
    const cap = setTimeout(() => socket.destroy(), lingerMs);
    cap.unref();
    socket.once('close', () => clearTimeout(cap));
  };
}

import { createServer, type Server, type Socket } from 'node:net';

/**
 * A port on 127.0.0.1 that is listening before its server exists: connections made in the
 * meantime wait, unread (`pauseOnConnect`), and are handed over in order once the server takes
 * the port over. The test run's global setup uses it so the embedded simulator loads (about
 * 0.3 s of CPU) while Playwright starts its workers instead of before them: the address is known
 * at once, and a worker that connects early is answered as soon as the simulator is up.
 */
export interface EarlyListener {
  readonly port: number;
  /**
   * The listening socket, for `server.listen(handle)` (Node's way for one server to take over
   * another's port); call {@link drain} once it listens.
   */
  readonly handle: Server;
  /** The connections that waited, in order; later ones go to the server that took the port. */
  drain(): Socket[];
  /** Stop listening when no server came: connections still waiting are closed. */
  close(): Promise<void>;
}

/**
 * `onFirstConnection` runs once, when the first connection arrives (before it waits): the run's
 * simulator is loaded then, when a worker reaches for it, rather than while Playwright's runner
 * is still loading the specs on the same thread.
 */
export async function listenEarly(host = '127.0.0.1', onFirstConnection?: () => void): Promise<EarlyListener> {
  const waiting: Socket[] = [];
  let first = onFirstConnection;
  const handle: Server = createServer({ pauseOnConnect: true }, (socket) => {
    const call = first;
    first = undefined;
    call?.();
    waiting.push(socket);
    socket.once('close', () => {
      const i = waiting.indexOf(socket);
      if (i >= 0) waiting.splice(i, 1);
    });
  });
  await new Promise<void>((resolve, reject) => {
    handle.once('error', reject);
    handle.listen(0, host, () => resolve());
  });
  const address = handle.address();
  if (!address || typeof address === 'string') throw new Error('listenEarly: the listener has no port');
  return {
    port: address.port,
    handle,
    drain: () => waiting.splice(0).filter((s) => !s.destroyed),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of waiting.splice(0)) socket.destroy();
        handle.close(() => resolve());
      }),
  };
}

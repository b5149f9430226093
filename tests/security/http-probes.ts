import { connect, type Socket } from 'node:net';

/** What came of sending one request: its status (`'413'`) or the client's error code (`'EPIPE'`). */
export type Outcome = string;

/**
 * POST a body of `total` bytes to `url` the way a client that writes first and reads after does
 * (Python's requests, Java's HttpURLConnection): every byte of the body is written (64 KiB
 * writes, backpressure respected) before the answer is read. Content-Length is declared unless
 * `chunked`. Resolves with the answer's status (`'413'`), or with the error that ended the
 * exchange first (`'EPIPE'`: the server reset the connection while the body was being sent,
 * and the answer waiting in the socket went with it).
 */
export function streamBody(
  url: string,
  headers: Record<string, string>,
  total: number,
  opts: { chunked?: boolean } = {},
): Promise<Outcome> {
  const u = new URL(url);
  return new Promise((resolve) => {
    let done = false;
    const finish = (outcome: Outcome) => {
      if (done) return;
      done = true;
      resolve(outcome);
      s.destroy();
    };
    const s = connect(Number(u.port), u.hostname);
    s.pause(); // nothing is read until the body is sent
    s.on('error', (e: NodeJS.ErrnoException) => finish(e.code ?? e.message));
    s.on('close', () => finish('closed without an answer'));
    let got = '';
    s.on('data', (d: Buffer) => {
      got += d.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(got)?.[1];
      if (status) finish(status);
    });
    const head = {
      host: u.host,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(opts.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(total) }),
      ...headers,
    };
    s.write(
      `POST ${u.pathname} HTTP/1.1\r\n${Object.entries(head)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = (): void => {
      while (sent < total && !done) {
        const part = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += part.length;
        const more = opts.chunked
          ? [s.write(`${part.length.toString(16)}\r\n`), s.write(part), s.write('\r\n')].every(Boolean)
          : s.write(part);
        if (!more) return void s.once('drain', pump);
      }
      if (opts.chunked) s.write('0\r\n\r\n');
      s.resume(); // now read the answer
    };
    pump();
  });
}

/** `{ '413': 30 }`: how many times each outcome came. */
export function tally(outcomes: Outcome[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const o of outcomes) t[o] = (t[o] ?? 0) + 1;
  return t;
}

/**
 * Send `head` (a request's head, ending in a blank line) on a fresh TCP connection and send
 * nothing more; resolves with every byte the server wrote until it closed the connection (or
 * until `quietMs` passed without a byte after the first).
 */
export function rawExchange(url: string, head: string, quietMs = 2_000): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(u.port), u.hostname, () => s.write(head));
    let got = '';
    let quiet: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(quiet);
      s.destroy();
      resolve(got);
    };
    s.on('data', (d) => {
      got += d.toString('latin1');
      clearTimeout(quiet);
      quiet = setTimeout(done, quietMs);
    });
    s.on('close', done);
    s.on('error', (e: NodeJS.ErrnoException) => (got ? done() : reject(e)));
  });
}

/** `n` TCP connections to `url` that send nothing, each with whether the server has closed it. */
export async function idleSockets(url: string, n: number): Promise<Array<{ socket: Socket; closed: boolean }>> {
  const u = new URL(url);
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<{ socket: Socket; closed: boolean }>((resolve, reject) => {
          const entry = { socket: connect(Number(u.port), u.hostname), closed: false };
          entry.socket.on('error', () => {});
          entry.socket.on('close', () => (entry.closed = true));
          entry.socket.resume(); // reading (and dropping) what comes, so that it sees the server close it
          entry.socket.once('connect', () => resolve(entry));
          entry.socket.once('error', reject);
        }),
    ),
  );
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Mockttp } from 'mockttp';
import type { ProxyCredentials } from './proxy-credentials.js';

/** The longest request head the gate reads before deciding: Node's own limit for a request's headers. */
const MAX_HEAD = 16 * 1024;
/** How long a connection may take to send its first request head. */
const HEAD_TIMEOUT_MS = 10_000;
/** How long a refused connection is kept to let the 407 reach its client before it is cut. */
const LINGER_MS = 5_000;
const REALM = 'nestwright instance proxy';

/**
 * The door of one instance's proxy: a TCP server on 127.0.0.1 (a port the kernel picks) that reads
 * the first request of each connection — a CONNECT, or a plain request in absolute form — and
 * lets the connection in only when it carries this proxy's credentials; anything else gets 407
 * and is closed before a byte of it reaches mockttp. A connection let in is handed to mockttp's
 * HTTP server whole (the head put back first), so the rest of it — the tunnel, the next requests
 * of a keep-alive connection — is the client's that authenticated. Credentials are compared as
 * SHA-256 digests with `timingSafeEqual`, so the comparison takes the same time for any guess.
 *
 * Written here because mockttp 4.6.3 has neither: its `start()` takes a port (or a range) and
 * listens on every interface, with no address to bind, and it reads `Proxy-Authorization` only as
 * metadata, never refusing a request for lacking it. See {@link startOffNetwork} for how its
 * server is kept off the network.
 */
export class ProxyGate {
  /** Connections refused for lacking the credentials (or not speaking HTTP/1). */
  refused = 0;
  private readonly expected: Buffer;
  /** Every connection still open, handed on or not. */
  private readonly sockets = new Set<net.Socket>();
  /** Those not handed on (still sending their first request, or refused). */
  private readonly deciding = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    credentials: ProxyCredentials,
    private readonly handOff: (socket: net.Socket) => void,
  ) {
    this.expected = digest(Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8'));
    server.on('connection', (socket) => this.admit(socket));
  }

  /** Listen on 127.0.0.1 and hand each authenticated connection to `handOff`. */
  static async open(credentials: ProxyCredentials, handOff: (socket: net.Socket) => void): Promise<ProxyGate> {
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: '127.0.0.1', port: 0 }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new ProxyGate(server, credentials, handOff);
  }

  /** The port on 127.0.0.1. */
  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /**
   * Stop listening, end the connections not handed on, run `stopHandedOn` (mockttp's stop, which
   * ends the connections it was handed, tunnels and all), then end any left: a keep-alive client
   * would otherwise hold the server's close.
   */
  async close(stopHandedOn: () => Promise<void>): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.deciding) s.destroy();
    await stopHandedOn();
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  private admit(socket: net.Socket): void {
    this.sockets.add(socket);
    this.deciding.add(socket);
    socket.once('close', () => {
      this.sockets.delete(socket);
      this.deciding.delete(socket);
    });
    let head: Buffer = Buffer.alloc(0);
    const onError = () => socket.destroy();
    const onTimeout = () => socket.destroy();
    socket.setTimeout(HEAD_TIMEOUT_MS, onTimeout);
    const onData = (chunk: Buffer) => {
      head = head.length ? Buffer.concat([head, chunk]) : chunk;
      // A request line starts with a method's capital letter; a TLS hello or anything else does not.
      if (!(head[0]! >= 0x41 && head[0]! <= 0x5a)) return this.refuse(socket, onData, null);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > MAX_HEAD) this.refuse(socket, onData, '431 Request Header Fields Too Large');
        return;
      }
      if (!this.authorized(head.subarray(0, end)))
        return this.refuse(socket, onData, '407 Proxy Authentication Required');
      // Handed on in this tick, the head put back first: mockttp's server reads it as it reads a
      // fresh connection (httpolyglot peeks with read(), Node's HTTP server listens for 'data').
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('timeout', onTimeout);
      socket.setTimeout(0);
      this.deciding.delete(socket);
      socket.unshift(head);
      this.handOff(socket);
    };
    socket.on('data', onData);
    socket.on('error', onError);
  }

  /** One Proxy-Authorization header, Basic, with these credentials. */
  private authorized(head: Buffer): boolean {
    const lines = head.toString('latin1').split('\r\n');
    if (!/^[A-Z]+ \S+ HTTP\/1\.[01]$/.test(lines[0]!)) return false;
    const values = lines.filter((l) => /^proxy-authorization[ \t]*:/i.test(l));
    if (values.length !== 1) return false;
    const m = /^basic[ \t]+([A-Za-z0-9+/]+=*)[ \t]*$/i.exec(values[0]!.slice(values[0]!.indexOf(':') + 1).trim());
    return !!m && timingSafeEqual(digest(Buffer.from(m[1]!, 'base64')), this.expected);
  }

  /** Answer `status` (or nothing, to a client not speaking HTTP/1), then close; what it still sends is read and dropped. */
  private refuse(socket: net.Socket, onData: (chunk: Buffer) => void, status: string | null): void {
    this.refused++;
    socket.off('data', onData);
    socket.on('data', () => {});
    socket.setTimeout(LINGER_MS, () => socket.destroy());
    if (!status) return void socket.end();
    const body = `${status.slice(4)}: this proxy belongs to one nestwright test instance and relays only for the runtime it was set on (net_proxy_set), which sends its credentials in Proxy-Authorization.\n`;
    socket.end(
      `HTTP/1.1 ${status}\r\nProxy-Authenticate: Basic realm="${REALM}"\r\nContent-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
}

/** Fresh credentials for one proxy: 192 random bits. */
export function newCredentials(): ProxyCredentials {
  return { username: 'nestwright', password: randomBytes(24).toString('base64url') };
}

const digest = (b: Buffer) => createHash('sha256').update(b).digest();

/**
 * Start `mockttp` with its HTTP server on a Unix socket in a directory of its own (mode 0700,
 * so no other user can connect), never on a TCP port: connections reach it only from the
 * {@link ProxyGate}, handed over in process. mockttp 4.6.3's `start()` calls `listen(port)` on its
 * server with no address, which is every interface; it offers no other way to say where, so the
 * server is taken as mockttp stores it (its `server` field) and its `listen` pointed at the socket.
 * Checked before and after: if that field is not there, or the server did not end up on the
 * socket, nothing is left listening and this throws (a mockttp upgrade that moved it fails here,
 * closed, rather than open on the network).
 *
 * @returns mockttp's server (to hand connections to) and a function that stops it and removes the directory.
 */
export async function startOffNetwork(mockttp: Mockttp): Promise<{ server: net.Server; stop: () => Promise<void> }> {
  const field = Object.getOwnPropertyDescriptor(mockttp, 'server');
  if (!field || !('value' in field) || field.value !== undefined)
    throw new Error(
      'mockttp has no `server` field to listen privately with (mockttp 4.6.3 has one): the instance proxy will not start listening on every interface',
    );
  const dir = await mkdtemp(join(tmpdir(), 'nestwright-proxy-'));
  const path = join(dir, 'mockttp.sock');
  let server: net.Server | undefined;
  Object.defineProperty(mockttp, 'server', {
    configurable: true,
    enumerable: true,
    get: () => server,
    set: (s: net.Server | undefined) => {
      server = s;
      // mockttp calls listen(port): the port is not used, the socket is.
      if (s) s.listen = (() => net.Server.prototype.listen.call(s, path)) as typeof s.listen;
    },
  });
  const stop = async () => {
    await mockttp.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // A number, so mockttp takes it as given rather than probing ports for a free one.
    await mockttp.start(0);
  } catch (e) {
    await stop();
    throw new Error(`the instance proxy could not listen on its private socket ${path}: ${(e as Error).message}`, {
      cause: e,
    });
  }
  if (!server || server.address() !== path) {
    await stop();
    throw new Error(`mockttp did not listen on the private socket ${path}: the instance proxy is not started`);
  }
  return { server, stop };
}

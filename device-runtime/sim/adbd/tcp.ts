import net from 'node:net';
import type { AdbdConnection } from './connection.js';
import type { AndroidDevice } from './device.js';
import type { AdbStream } from './stream.js';

/** Relay bytes between a TCP socket and an adb stream, with flow control both ways; either end closing closes the other. */
export function relay(socket: net.Socket, stream: AdbStream): void {
  socket.on('data', (d: Buffer) => {
    socket.pause();
    void stream.write(d).then(() => socket.resume());
  });
  socket.on('end', () => stream.end());
  socket.on('error', () => stream.abort());
  socket.on('close', () => stream.end());
  stream.onData = (d) => new Promise<void>((r) => (socket.writable ? socket.write(d, () => r()) : r()));
  // The host closed its end: what it wrote still goes out before the socket ends.
  stream.onClose(() => socket.end());
}

/**
 * `tcp:PORT` — what `adb forward` opens on the device for each connection to its local port: a
 * connection to the device's port, which for the runtime's port is the simulator's MCP server.
 * Refused (the host sees the stream closed) when nothing listens there, as on a phone.
 */
export function openTcp(dev: AndroidDevice, service: string, stream: AdbStream): Promise<boolean> {
  const m = /^tcp:(?:(localhost|127\.0\.0\.1):)?(\d+)$/.exec(service);
  const port = m ? Number(m[2]) : NaN;
  const hostPort = Number.isInteger(port) && port > 0 && port < 65536 ? dev.hostPortFor(port) : null;
  if (!hostPort) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: hostPort });
    socket.once('connect', () => {
      relay(socket, stream);
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The device's half of `adb reverse` (`reverse:forward:[norebind:]tcp:D;tcp:H`, `killforward:`,
 * `killforward-all`, `list-forward`): the device listens on its port D — the simulated device
 * shares the host's loopback, so on 127.0.0.1:D (tcp:0 picks one) — and each connection there
 * becomes a stream the device opens to the host's `tcp:H`, on the host connection that asked for
 * the reverse (as adbd ties a listener to its transport), never another host's. When that
 * connection goes, its listeners go with it.
 */
export class ReverseForwards {
  private readonly listeners = new Map<string, { server: net.Server; remote: string; conn: AdbdConnection }>();

  list(): Array<{ local: string; remote: string }> {
    return [...this.listeners].map(([local, l]) => ({ local, remote: l.remote }));
  }

  /** Answer one reverse: request that `conn` sent on its stream, as handle_forward_request does on the device. */
  async handle(request: string, stream: AdbStream, conn: AdbdConnection): Promise<void> {
    const okay = 'OKAY';
    const failWith = (msg: string) => `FAIL${Buffer.byteLength(msg).toString(16).padStart(4, '0')}${msg}`;
    const proto = (s: string) => `${Buffer.byteLength(s).toString(16).padStart(4, '0')}${s}`;
    let reply: string;
    if (request === 'list-forward') {
      reply = proto(
        this.list()
          .map((l) => `(reverse) ${l.local} ${l.remote}\n`)
          .join(''),
      );
    } else if (request === 'killforward-all') {
      this.closeAll();
      reply = okay;
    } else if (request.startsWith('killforward:')) {
      const local = request.slice('killforward:'.length);
      const l = this.listeners.get(local);
      if (l) {
        l.server.close();
        this.listeners.delete(local);
        reply = okay;
      } else reply = failWith(`listener '${local}' not found`);
    } else if (request.startsWith('forward:')) {
      let spec = request.slice('forward:'.length);
      const noRebind = spec.startsWith('norebind:');
      if (noRebind) spec = spec.slice('norebind:'.length);
      const [local = '', remote = ''] = spec.split(';');
      const lm = /^tcp:(\d+)$/.exec(local);
      if (!lm || !/^tcp:\d+$/.test(remote)) {
        reply = failWith(`bad forward: ${spec} (the simulated device reverses tcp: ports only)`);
      } else if (this.listeners.has(local) && noRebind) {
        reply = failWith('cannot rebind existing socket');
      } else {
        try {
          const port = await this.listen(Number(lm[1]), local, remote, conn);
          reply = okay + (lm[1] === '0' ? proto(String(port)) : '');
        } catch (e) {
          reply = failWith(`cannot bind listener: ${(e as Error).message}`);
        }
      }
    } else {
      reply = failWith(`unknown reverse request ${request}`);
    }
    await stream.write(reply);
    stream.end();
  }

  private listen(port: number, local: string, remote: string, conn: AdbdConnection): Promise<number> {
    const existing = this.listeners.get(local);
    if (existing) {
      // Rebinding moves the listener to the connection that asked last, as adbd's install_listener does.
      existing.remote = remote;
      existing.conn = conn;
      return Promise.resolve(port);
    }
    const server = net.createServer((socket) => {
      socket.pause();
      const target = [...this.listeners.values()].find((l) => l.server === server);
      if (!target || !target.conn.online) return socket.destroy();
      void target.conn.openToHost(target.remote).then((stream) => {
        if (!stream) return socket.destroy();
        relay(socket, stream);
        socket.resume();
      });
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const actual = (server.address() as net.AddressInfo).port;
        this.listeners.set(port === 0 ? `tcp:${actual}` : local, { server, remote, conn });
        resolve(actual);
      });
    });
  }

  /** The host connection went away: the listeners it made are closed. */
  dropConnection(conn: AdbdConnection): void {
    for (const [local, l] of this.listeners) {
      if (l.conn !== conn) continue;
      l.server.close();
      this.listeners.delete(local);
    }
  }

  closeAll(): void {
    for (const l of this.listeners.values()) l.server.close();
    this.listeners.clear();
  }
}

import net from 'node:net';
import type { FakeDevice } from './fake-device.js';

/** What a forward needs of the adb server: its devices (the server implements it). */
export interface ForwardHost {
  readonly devices: ReadonlyMap<string, FakeDevice>;
}

interface Forward {
  serial: string;
  local: number;
  remote: string;
  server: net.Server;
  sockets: Set<net.Socket>;
}

/**
 * `adb forward`: a real listener on 127.0.0.1 per forward. A connection to it is piped to the
 * device's port — here, the `nestwright sim` standing in for the runtime. As with real adb, the
 * local connection is accepted and then closed when nothing listens on the device side, and
 * vanishing devices take their forwards (and open connections) with them.
 */
export class ForwardTable {
  private readonly forwards = new Map<number, Forward>();

  constructor(private readonly adb: ForwardHost) {}

  list(): Array<{ serial: string; local: string; remote: string }> {
    return [...this.forwards.values()].map((f) => ({ serial: f.serial, local: `tcp:${f.local}`, remote: f.remote }));
  }

  async add(
    serial: string,
    local: string,
    remote: string,
    noRebind: boolean,
  ): Promise<{ port: number } | { error: string }> {
    const lm = /^tcp:(\d+)$/.exec(local);
    const rm = /^tcp:(\d+)$/.exec(remote);
    const am = /^localabstract:(.+)$/.exec(remote);
    if (!lm || (!rm && !am))
      return {
        error: `adb: error: cannot bind listener: unsupported forward spec (the fake handles tcp:N and localabstract:NAME)`,
      };
    const wanted = Number(lm[1]);
    const existing = this.forwards.get(wanted);
    if (existing) {
      if (noRebind) return { error: `adb: error: cannot rebind existing socket` };
      this.close(existing);
    }
    const remotePort: number | string = rm ? Number(rm[1]) : am![1]!;
    const fwd: Forward = { serial, local: 0, remote, server: net.createServer(), sockets: new Set() };
    fwd.server.on('connection', (client) => this.pipe(fwd, client, remotePort));
    const port = await new Promise<number | null>((resolve) => {
      fwd.server.once('error', () => resolve(null));
      fwd.server.listen(wanted, '127.0.0.1', () => resolve((fwd.server.address() as net.AddressInfo).port));
    });
    if (port === null) return { error: `adb: error: cannot bind listener: Address already in use` };
    fwd.local = port;
    this.forwards.set(port, fwd);
    return { port };
  }

  private pipe(fwd: Forward, client: net.Socket, remotePort: number | string): void {
    fwd.sockets.add(client);
    client.on('close', () => fwd.sockets.delete(client));
    client.on('error', () => {});
    const dev = this.adb.devices.get(fwd.serial);
    if (!dev || dev.state !== 'device') return void client.destroy();
    // An abstract socket is the device's; the fake keeps a host port for each (a connection to a missing one closes, as adb's does).
    const target =
      typeof remotePort === 'string'
        ? Promise.resolve(dev.spec.abstractSockets?.[remotePort] ?? null)
        : dev.remotePort(remotePort);
    void target.then((port) => {
      if (port === null || client.destroyed) return void client.destroy();
      const upstream = net.connect(port, '127.0.0.1');
      fwd.sockets.add(upstream);
      upstream.on('close', () => {
        fwd.sockets.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
    });
  }

  remove(local: string): boolean {
    const m = /^tcp:(\d+)$/.exec(local);
    const fwd = m ? this.forwards.get(Number(m[1])) : undefined;
    if (!fwd) return false;
    this.close(fwd);
    return true;
  }

  removeAll(serial: string | null): void {
    for (const f of [...this.forwards.values()]) if (!serial || f.serial === serial) this.close(f);
  }

  dropDevice(serial: string): void {
    this.removeAll(serial);
  }

  private close(f: Forward): void {
    this.forwards.delete(f.local);
    f.server.close();
    for (const s of f.sockets) s.destroy();
  }
}

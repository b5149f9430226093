import net from 'node:net';
import { AuthorizedKeys } from './auth.js';
import { AdbdConnection, DEVICE_FEATURES } from './connection.js';
import { AndroidDevice, type AndroidDeviceOptions } from './device.js';
import { startShell } from './shell.js';
import { startSync } from './sync.js';
import { openTcp, ReverseForwards } from './tcp.js';

export interface AdbdOptions extends AndroidDeviceOptions {
  /** TCP port on 127.0.0.1 (0 picks a free one). */
  port?: number;
  /**
   * ro.adb.secure: true (default) runs AUTH and verifies the host's RSA signature against the
   * keys the device trusts; false lets any host in without AUTH, as a `ro.adb.secure=0` build does.
   */
  secure?: boolean;
  /** A host whose key is unknown is let in and its key trusted from then on (the "Always allow" tap; default true); false leaves it `unauthorized`. */
  acceptNewKeys?: boolean;
}

export interface RunningAdbd {
  /** What `adb connect` takes: `127.0.0.1:PORT`, also the serial adb lists it under. */
  readonly address: string;
  readonly port: number;
  readonly device: AndroidDevice;
  readonly keys: AuthorizedKeys;
  /** What happened on the connections (CNXN, AUTH, refused services), newest last. */
  readonly log: string[];
  /** Host connections that completed the handshake and are still open. */
  onlineConnections(): number;
  /** Drop every host connection, as a cable pulled does (the daemon keeps listening; adb reconnects). */
  dropConnections(): void;
  /** Stop listening and drop every connection; the device's runtime is stopped and its files removed. */
  close(): Promise<void>;
}

/**
 * The simulated device's adb daemon: Google's adb reaches it with `adb connect 127.0.0.1:PORT`
 * and sees a device. Written from adb's published protocol description (AOSP
 * packages/modules/adb: protocol.txt, SERVICES.TXT, SYNC.TXT, shell_protocol.h,
 * file_sync_protocol.h) because no kept npm library implements the daemon's side — the adb
 * libraries on npm (adbkit, @yume-chan/adb, …) are clients of a daemon. Services: `shell:`,
 * `shell,v2,…:`, `exec:`, `sync:`, `tcp:PORT`, `reverse:`; the install commands run in the shell.
 */
export async function startAdbd(opts: AdbdOptions = {}): Promise<RunningAdbd> {
  const device = new AndroidDevice(opts);
  const keys = new AuthorizedKeys(opts.acceptNewKeys ?? true);
  const log: string[] = [];
  const note = (e: string) => {
    log.push(e);
    if (log.length > 500) log.shift();
  };
  const connections = new Set<AdbdConnection>();
  const sockets = new Set<net.Socket>();
  const latest = () => [...connections].reverse().find((c) => c.online) ?? null;
  const reverse = new ReverseForwards(latest);
  const banner = () => {
    const p = device.props();
    return `device::ro.product.name=${p['ro.product.name']};ro.product.model=${p['ro.product.model']};ro.product.device=${p['ro.product.device']};features=${DEVICE_FEATURES.join(',')}`;
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const conn = new AdbdConnection(socket, {
      banner,
      secure: opts.secure ?? true,
      keys,
      log: note,
      open: (service, stream) => {
        if (service.startsWith('shell') || service.startsWith('exec:')) return startShell(device, service, stream);
        if (service === 'sync:') return startSync(device, stream);
        if (service.startsWith('tcp:')) return openTcp(device, service, stream);
        if (service.startsWith('reverse:')) {
          void reverse.handle(service.slice('reverse:'.length), stream);
          return true;
        }
        note(`OPEN ${service}: no such service on the simulated device`);
        return false;
      },
    });
    connections.add(conn);
    socket.once('close', () => {
      connections.delete(conn);
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  const dropConnections = () => {
    for (const s of sockets) s.destroy();
    reverse.closeAll();
  };
  return {
    address: `127.0.0.1:${port}`,
    port,
    device,
    keys,
    log,
    onlineConnections: () => [...connections].filter((c) => c.online).length,
    dropConnections,
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      dropConnections();
      await closed;
      await device.close();
    },
  };
}

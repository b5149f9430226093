import net from 'node:net';
import { AuthorizedKeys } from './authorized-keys.js';
import type { BufferMeter } from './byte-queue.js';
import { AdbdConnection, DEVICE_FEATURES } from './connection.js';
import { AndroidDevice, type AndroidDeviceOptions } from './device.js';
import { startShell } from './shell.js';
import { startSync } from './sync.js';
import { userKeySources, type KeySource } from './key-files.js';
import { openTcp, ReverseForwards } from './tcp.js';

export interface AdbdOptions extends AndroidDeviceOptions {
  /** TCP port on 127.0.0.1 (0 picks a free one). */
  port?: number;
  /**
   * ro.adb.secure: true (default) runs AUTH and verifies the host's RSA signature against the
   * keys the device trusts; false lets any host in without AUTH, as a `ro.adb.secure=0` build does.
   */
  secure?: boolean;
  /**
   * adb_keys files (one adbkey.pub line per key) whose keys the device trusts, read again at
   * each AUTH as adbd reads /data/misc/adb/adb_keys. Default: none.
   */
  keyFiles?: string[];
  /**
   * Also trust this user's own adb keys (`userKeySources()`: ~/.android/adbkey.pub,
   * $ANDROID_USER_HOME, $ADB_VENDOR_KEYS). Default: true when `keyFiles` is not given.
   */
  trustUserKeys?: boolean;
  /**
   * A host whose key no one listed is let in, and its key trusted until the daemon stops — the
   * "Always allow" tap, for anyone who can reach the port. Default false: adb lists the device
   * `unauthorized` to that host, as a phone does until someone taps Allow.
   */
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
  /** The most bytes one stream's input (a push, an install's stdin) has held at once: bounded by the queues' high-water mark. */
  bufferPeak(): number;
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
  const log: string[] = [];
  const note = (e: string) => {
    log.push(e);
    if (log.length > 500) log.shift();
  };
  const sources: KeySource[] = [
    ...((opts.trustUserKeys ?? opts.keyFiles === undefined) ? userKeySources() : []),
    ...(opts.keyFiles ?? []).map((path): KeySource => ({ path, kind: 'adb_keys', required: true })),
  ];
  const keys = new AuthorizedKeys({ sources, acceptNewKeys: opts.acceptNewKeys ?? false, log: note });
  const meter: BufferMeter = { peak: 0 };
  const connections = new Set<AdbdConnection>();
  const sockets = new Set<net.Socket>();
  const reverse = new ReverseForwards();
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
      meter,
      log: note,
      open: (service, stream, conn) => {
        if (service.startsWith('shell') || service.startsWith('exec:')) return startShell(device, service, stream);
        if (service === 'sync:') return startSync(device, stream);
        if (service.startsWith('tcp:')) return openTcp(device, service, stream);
        if (service.startsWith('reverse:')) {
          void reverse.handle(service.slice('reverse:'.length), stream, conn);
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
      reverse.dropConnection(conn);
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
    bufferPeak: () => meter.peak,
    dropConnections,
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      dropConnections();
      await closed;
      await device.close();
    },
  };
}

import type net from 'node:net';
import { newToken, parseHostKey } from './auth.js';
import type { AuthorizedKeys } from './authorized-keys.js';
import type { BufferMeter } from './byte-queue.js';
import {
  A_AUTH,
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_VERSION,
  A_VERSION_MIN,
  A_WRTE,
  AUTH_RSAPUBLICKEY,
  AUTH_SIGNATURE,
  AUTH_TOKEN,
  commandName,
  encodePacket,
  MAX_PAYLOAD,
  PacketReader,
  type Packet,
} from './packet.js';
import { AdbStream, type StreamLink } from './stream.js';

/** The device features adbd announces in CNXN that this daemon implements (see services.ts). */
export const DEVICE_FEATURES = ['shell_v2', 'cmd', 'stat_v2', 'ls_v2', 'fixed_push_mkdir'];

export interface ConnectionHooks {
  /** `device::ro.product.name=…;…` — the banner CNXN carries. */
  banner(): string;
  /** ro.adb.secure: 0 skips AUTH altogether. */
  secure: boolean;
  keys: AuthorizedKeys;
  /** Shared by the streams' input queues: the most one held. */
  meter: BufferMeter;
  /** Start the service a host OPEN names on this stream; false: no such service (the stream is refused). */
  open(service: string, stream: AdbStream, conn: AdbdConnection): boolean | Promise<boolean>;
  log(event: string): void;
}

/**
 * One host connection to the daemon: CNXN, AUTH as a device answers it, then the streams the
 * host opens (and those the device opens for `adb reverse`). A packet that cannot be read, or
 * one that comes before the connection is authorized, drops the connection as adbd does.
 */
export class AdbdConnection implements StreamLink {
  maxData = MAX_PAYLOAD;
  private state: 'connecting' | 'authorizing' | 'online' = 'connecting';
  private token: Buffer | null = null;
  private readonly streams = new Map<number, AdbStream>();
  private nextId = 1;
  private readonly reader = new PacketReader();
  /** The host's key that authorized it, or how it got in. */
  authorizedBy: 'signature' | 'new key' | 'not secure' | null = null;

  constructor(
    private readonly socket: net.Socket,
    private readonly hooks: ConnectionHooks,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      let packets: Packet[];
      try {
        packets = this.reader.push(chunk);
      } catch (e) {
        this.hooks.log((e as Error).message);
        this.close();
        return;
      }
      for (const p of packets) this.handle(p);
    });
    socket.on('close', () => this.teardown());
    socket.on('error', () => this.teardown());
  }

  get online(): boolean {
    return this.state === 'online';
  }

  send(command: number, arg0: number, arg1: number, data?: Buffer | string): void {
    if (!this.socket.destroyed) this.socket.write(encodePacket(command, arg0, arg1, data));
  }

  forget(localId: number): void {
    this.streams.delete(localId);
  }

  get meter(): BufferMeter {
    return this.hooks.meter;
  }

  misbehaved(reason: string): void {
    this.hooks.log(reason);
    this.close();
  }

  /** Open a stream from the device to the host (`adb reverse`): resolves once the host accepts it, null if it refuses. */
  openToHost(service: string): Promise<AdbStream | null> {
    if (!this.online) return Promise.resolve(null);
    const stream = new AdbStream(this, this.nextId++, 0);
    this.streams.set(stream.localId, stream);
    return new Promise((resolve) => {
      let settled = false;
      const origOkay = stream.handleOkay.bind(stream);
      stream.handleOkay = (remoteId: number) => {
        stream.handleOkay = origOkay;
        origOkay(remoteId);
        settled = true;
        resolve(stream);
      };
      stream.onClose(() => {
        if (!settled) resolve(null);
      });
      this.send(A_OPEN, stream.localId, 0, `${service}\0`);
    });
  }

  private handle(p: Packet): void {
    switch (p.command) {
      case A_CNXN:
        return this.onConnect(p);
      case A_AUTH:
        return this.onAuth(p);
      default:
        break;
    }
    if (!this.online) {
      this.hooks.log(`${commandName(p.command)} before the host was authorized: connection dropped`);
      return this.close();
    }
    const stream = this.streams.get(p.arg1);
    switch (p.command) {
      case A_OPEN:
        return void this.onOpen(p);
      case A_OKAY:
        return stream?.handleOkay(p.arg0);
      case A_WRTE:
        if (stream) void stream.handleWrite(p.data);
        return;
      case A_CLSE:
        return stream?.handleClose();
      default:
        // STLS and SYNC are not offered in CNXN; a host does not send them.
        this.hooks.log(`${commandName(p.command)} ignored`);
    }
  }

  private onConnect(p: Packet): void {
    if (p.arg0 < A_VERSION_MIN) {
      this.hooks.log(`host protocol version 0x${p.arg0.toString(16)} is too old: connection dropped`);
      return this.close();
    }
    this.maxData = Math.min(p.arg1 || MAX_PAYLOAD, MAX_PAYLOAD);
    // A new CNXN resets the connection: its streams are gone.
    for (const s of [...this.streams.values()]) s.handleClose();
    this.hooks.log(`CNXN from ${p.data.toString('utf8').replace(/\0+$/, '')}`);
    if (!this.hooks.secure) {
      this.authorizedBy = 'not secure';
      return this.goOnline();
    }
    this.state = 'authorizing';
    this.challenge();
  }

  private challenge(): void {
    this.token = newToken();
    this.send(A_AUTH, AUTH_TOKEN, 0, this.token);
  }

  private onAuth(p: Packet): void {
    if (this.state !== 'authorizing' || !this.token) return;
    if (p.arg0 === AUTH_SIGNATURE) {
      const key = this.hooks.keys.verify(this.token, p.data);
      if (key) {
        this.hooks.log(`AUTH signature verified (key ${key.comment || 'without a name'})`);
        this.authorizedBy = 'signature';
        return this.goOnline();
      }
      this.hooks.log('AUTH signature from an unknown key: a new token is sent');
      return this.challenge();
    }
    if (p.arg0 === AUTH_RSAPUBLICKEY) {
      const key = parseHostKey(p.data);
      if (!key) {
        this.hooks.log('AUTH public key cannot be read: the host stays unauthorized');
        return;
      }
      if (this.hooks.keys.offer(key)) {
        this.hooks.log(`AUTH new key ${key.comment || 'without a name'} accepted`);
        this.authorizedBy = 'new key';
        return this.goOnline();
      }
      this.hooks.log(
        `AUTH new key ${key.comment || 'without a name'} refused (not among the device's keys, and new keys are not accepted): the host stays unauthorized`,
      );
    }
  }

  private goOnline(): void {
    this.state = 'online';
    this.send(A_CNXN, A_VERSION, this.maxData, this.hooks.banner());
  }

  private async onOpen(p: Packet): Promise<void> {
    const service = p.data.toString('utf8').replace(/\0+$/, '');
    const stream = new AdbStream(this, this.nextId++, p.arg0);
    this.streams.set(stream.localId, stream);
    let ok = false;
    try {
      ok = await this.hooks.open(service, stream, this);
    } catch (e) {
      this.hooks.log(`${service}: ${(e as Error).message}`);
    }
    if (!ok) {
      this.streams.delete(stream.localId);
      this.send(A_CLSE, 0, p.arg0);
      return;
    }
    // OKAY tells the host its stream is open; only then may data flow.
    if (!stream.isClosed) {
      this.send(A_OKAY, stream.localId, p.arg0);
      stream.release();
    }
  }

  /** Drop the connection (the cable pulled). */
  close(): void {
    this.socket.destroy();
    this.teardown();
  }

  private teardown(): void {
    for (const s of [...this.streams.values()]) s.handleClose();
    this.streams.clear();
  }
}

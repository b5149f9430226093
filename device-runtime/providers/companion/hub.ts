import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { DeviceInfoSchema, parseDeviceMessage, type DeviceInfo } from './messages.js';
import { Phone, type Dialect } from './phone.js';

export interface HubOptions {
  /** Where phones dial in (default 0.0.0.0, port 8080: phones are on another machine). */
  host?: string;
  port?: number;
  /** Keys a phone may authenticate with (`apiKey` of its auth message). */
  keys: string[];
  /** PEM certificate and key: the endpoint is then wss://. */
  tls?: { cert: string; key: string };
  /**
   * Interval of the WebSocket ping (default a fifth of the timeout, at most 1 s), and how long a
   * phone may stay silent before it is dropped (default 5 s: a phone on Wi-Fi in power saving, or
   * a busy CI machine, can miss a second or two without being gone).
   */
  heartbeatMs?: number;
  heartbeatTimeoutMs?: number;
  /**
   * A phone must authenticate within this time after connecting (default 5 s); its upgrade
   * request's headers must arrive within it too.
   */
  authTimeoutMs?: number;
  dialect?: Dialect;
  log?: (line: string) => void;
}

/** How long a phone may stay silent before it is dropped, unless the options say otherwise. */
const HEARTBEAT_TIMEOUT_MS = 5_000;

/** The endpoint the design names: phones connect to ws(s)://host:port/ws/device. */
export const DEVICE_PATH = '/ws/device';

/**
 * Bytes a connection may send before it has authenticated, frame headers and pongs included.
 * The auth message is a key and a device's description: a few hundred bytes.
 */
export const AUTH_BYTES = 8 * 1024;

/** A phone's message, screen trees and pictures included, after it has authenticated. */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/** How long a refused connection has to read why before it is cut (it may ignore the closing handshake). */
const REFUSAL_GRACE_MS = 1_000;

/**
 * The server side of the companion protocol: phones dial in over a WebSocket (the `ws` library;
 * no framing of ours), authenticate with a configured key (compared in constant time; a wrong
 * one gets `auth_error` and is closed; keys are never logged), and are then held by identity so a
 * phone that reconnects is the same phone. The heartbeat is WebSocket ping/pong, which the
 * companion's client answers by itself (the design's `ping` message is answered too).
 *
 * The endpoint is there to be dialled into, so strangers reach it too, and until a connection
 * has authenticated it gets little: its upgrade request must come within `authTimeoutMs`, its
 * auth message within the same time, and it may send at most AUTH_BYTES before that. The budget
 * is counted on the TCP (or TLS) socket itself, by a 'data' listener put ahead of ws's, so the
 * bytes are counted before ws's parser buffers them; past it the connection is paused (ws's
 * `pause()`: nothing more is read from the network, and ws does not resume it), sent close code
 * 1009 and cut after a short grace. A 24 MiB frame is thus refused after its first read (64 KiB
 * at most), never assembled, never parsed. Why not ws's own `maxPayload`: it is one value per
 * server, fixed for each connection when it opens (ws 8 keeps it in a private field of the
 * connection's receiver), and a phone's screens after auth need 32 MiB; a second server cannot
 * take over a connection once it is open. Any refused connection is cut after the grace, so one
 * that never answers the closing handshake does not hold a socket for ws's 30 s close timeout.
 */
export class CompanionHub {
  readonly phones = new Map<string, Phone>();
  private server!: Server;
  private wss!: WebSocketServer;
  private readonly digests: Buffer[];
  private heartbeat: NodeJS.Timeout | null = null;
  private waiters: Array<() => void> = [];
  private freed: Array<() => void> = [];
  private readonly opts: Required<Omit<HubOptions, 'tls'>> & Pick<HubOptions, 'tls'>;

  constructor(opts: HubOptions) {
    if (!opts.keys.length)
      throw new Error('companion: no keys: give use.deviceOptions.keys or NESTWRIGHT_COMPANION_KEYS');
    const timeout = opts.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
    this.opts = {
      host: '0.0.0.0',
      port: 8080,
      authTimeoutMs: 5000,
      dialect: 'published',
      log: () => {},
      ...opts,
      heartbeatTimeoutMs: timeout,
      heartbeatMs: opts.heartbeatMs ?? Math.min(1000, timeout / 5),
    };
    this.digests = opts.keys.map(digest);
  }

  async listen(): Promise<{ url: string }> {
    // The upgrade request's headers within the auth deadline: an idle TCP connection is not kept for Node's minute.
    const httpOpts = { connectionsCheckingInterval: Math.max(100, Math.min(1_000, this.opts.authTimeoutMs / 4)) };
    this.server = this.opts.tls ? createHttpsServer({ ...this.opts.tls, ...httpOpts }) : createHttpServer(httpOpts);
    this.server.headersTimeout = this.opts.authTimeoutMs;
    this.server.requestTimeout = this.opts.authTimeoutMs;
    this.server.on('request', (_req, res) =>
      res.writeHead(426, { 'content-type': 'text/plain' }).end(`connect a WebSocket to ${DEVICE_PATH}\n`),
    );
    this.wss = new WebSocketServer({ server: this.server, path: DEVICE_PATH, maxPayload: MAX_MESSAGE_BYTES });
    this.wss.on('connection', (socket, req) => this.accept(socket, req));
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.opts.port, this.opts.host, () => resolve());
    });
    this.heartbeat = setInterval(() => this.beat(), this.opts.heartbeatMs);
    this.heartbeat.unref();
    const { port } = this.server.address() as AddressInfo;
    const host = this.opts.host === '0.0.0.0' ? '127.0.0.1' : this.opts.host;
    return { url: `${this.opts.tls ? 'wss' : 'ws'}://${host}:${port}${DEVICE_PATH}` };
  }

  async close(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const c of this.wss?.clients ?? []) c.terminate();
    await new Promise<void>((resolve) => (this.wss ? this.wss.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => (this.server?.listening ? this.server.close(() => resolve()) : resolve()));
  }

  /** Resolves when a phone comes online. */
  whenOnline(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Resolves when a held phone is let go. */
  whenFreed(): Promise<void> {
    return new Promise((resolve) => this.freed.push(resolve));
  }

  /** Let go of the phones `session` holds (its space was deleted, or it ended). */
  release(session: string, phone?: Phone): void {
    for (const p of phone ? [phone] : this.phones.values()) if (p.holder === session) p.holder = null;
    for (const w of this.freed.splice(0)) w();
  }

  private accept(socket: WebSocket, req: IncomingMessage): void {
    let phone: Phone | null = null;
    let refused = false;
    let alive = Date.now();
    (socket as WebSocket & { lastSeen?: () => number }).lastSeen = () => alive;
    socket.on('pong', () => (alive = Date.now()));
    const refuse = (why: string, code = 4001) => {
      if (refused) return;
      refused = true;
      clearTimeout(authTimer);
      this.opts.log(`companion: ${req.socket.remoteAddress}: refused: ${why}`);
      this.refuse(socket, why, code);
    };
    const authTimer = setTimeout(() => refuse('no auth message within the time allowed'), this.opts.authTimeoutMs);
    // Counted ahead of ws's own listener: a chunk is counted before ws's parser sees it.
    let received = 0;
    const budget = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= AUTH_BYTES) return;
      req.socket.removeListener('data', budget);
      socket.pause(); // ws gets this one chunk and nothing after it
      refuse(`more than ${AUTH_BYTES} bytes before authenticating`, 1009);
    };
    req.socket.prependListener('data', budget);
    socket.on('message', (data, isBinary) => {
      if (refused) return;
      alive = Date.now();
      const msg = parseDeviceMessage(isBinary ? '' : data.toString());
      if (msg instanceof Error) {
        if (!phone) return refuse(`the first message must be auth: ${msg.message}`);
        // A phone's bad message is reported and dropped; the connection stays (one bad frame is not a dead phone).
        this.opts.log(`companion: phone ${phone.name}: ${msg.message}`);
        return;
      }
      if (!phone) {
        if (msg.type !== 'auth') return refuse(`the first message must be auth, not ${msg.type}`);
        if (!this.validKey(msg.apiKey)) return refuse('unknown key');
        clearTimeout(authTimer);
        req.socket.removeListener('data', budget);
        phone = this.admit(socket, msg.apiKey, DeviceInfoSchema.parse(msg.deviceInfo ?? {}));
        return;
      }
      if (msg.type === 'auth') return;
      if (msg.type === 'heartbeat') phone.battery = { level: msg.batteryLevel, charging: msg.isCharging };
      else if ('requestId' in msg && !phone.answer(msg))
        this.opts.log(`companion: phone ${phone.name}: an answer to no request in flight (${msg.requestId}), dropped`);
    });
    socket.on('close', () => {
      clearTimeout(authTimer);
      phone?.detach(socket, 'disconnected');
    });
    socket.on('error', () => {});
  }

  private admit(socket: WebSocket, key: string, info: DeviceInfo): Phone {
    // The same key and device, reconnecting: the same phone (a test may be waiting for it).
    const identity = createHash('sha256')
      .update(
        `${digest(key).toString('hex')}|${info.name ?? ''}|${info.manufacturer}|${info.model}|${info.screenWidth}x${info.screenHeight}`,
      )
      .digest('hex');
    let phone = [...this.phones.values()].find((p) => p.identity === identity && !p.online);
    if (!phone) {
      phone = new Phone(`phone-${this.phones.size + 1}`, identity, info, this.opts.dialect);
      this.phones.set(phone.id, phone);
    }
    phone.attach(socket, info);
    socket.send(JSON.stringify({ type: 'auth_ok', deviceId: phone.id }));
    this.opts.log(`companion: ${phone.name} (${phone.id}) connected`);
    for (const w of this.waiters.splice(0)) w();
    return phone;
  }

  /** Tell the connection why, close it with `code`, and cut it if it has not closed after the grace. */
  private refuse(socket: WebSocket, why: string, code: number): void {
    socket.send(JSON.stringify({ type: 'auth_error', message: `refused: ${why}` }), () => socket.close(code, 'auth'));
    setTimeout(() => socket.terminate(), REFUSAL_GRACE_MS).unref();
  }

  private validKey(key: string): boolean {
    const d = digest(key);
    // Every key is compared, so the time taken does not say which one (or whether any) matched.
    return this.digests.reduce((ok, k) => timingSafeEqual(k, d) || ok, false);
  }

  private beat(): void {
    const now = Date.now();
    for (const socket of this.wss.clients) {
      const seen = (socket as WebSocket & { lastSeen?: () => number }).lastSeen?.() ?? now;
      if (now - seen > this.opts.heartbeatTimeoutMs) {
        socket.terminate();
        continue;
      }
      socket.ping();
    }
  }
}

const digest = (key: string) => createHash('sha256').update(key).digest();

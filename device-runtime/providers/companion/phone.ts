import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { disconnected, fail } from './errors.js';
import type { Answer, DeviceInfo, Request } from './messages.js';

/** How requests are written to a phone: the published app's one type per action, or the design's `execute`. */
export type Dialect = 'published' | 'design';

interface Pending {
  resolve(a: Answer): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * One phone that dialled in: its identity survives reconnects (the next connection with the same
 * key and device info takes the same `id`), its socket does not. A request gets a fresh id and
 * waits for the answer carrying it; a socket that closes fails every request in flight with
 * DEVICE_DISCONNECTED, and one that stays silent past the heartbeat timeout is closed.
 */
export class Phone {
  socket: WebSocket | null = null;
  /** The worker session holding this phone (one test at a time per phone). */
  holder: string | null = null;
  battery: { level?: number; charging?: boolean } = {};
  /** Whether the phone answers `clear_data` (learned from the first try; the published app does not). */
  canClear: boolean | undefined = undefined;
  connectedAt = 0;
  private pending = new Map<string, Pending>();

  constructor(
    readonly id: string,
    readonly identity: string,
    public info: DeviceInfo,
    readonly dialect: Dialect,
  ) {}

  get name(): string {
    return this.info.name ?? this.info.model;
  }

  get online(): boolean {
    return this.socket?.readyState === 1;
  }

  attach(socket: WebSocket, info: DeviceInfo): void {
    this.socket = socket;
    this.info = info;
    this.connectedAt = Date.now();
  }

  /** The socket closed: every request in flight fails now, naming its id. */
  detach(socket: WebSocket, why: string): void {
    if (this.socket !== socket) return;
    this.socket = null;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(disconnected(`the phone ${this.name} (${this.id}) ${why} before answering request ${id}`));
    }
    this.pending.clear();
  }

  answer(a: Answer): boolean {
    const p = this.pending.get(a.requestId);
    if (!p) return false;
    this.pending.delete(a.requestId);
    clearTimeout(p.timer);
    p.resolve(a);
    return true;
  }

  /** Send one request and wait for the message answering it. */
  request(req: Request, timeoutMs: number): Promise<Answer> {
    const socket = this.socket;
    if (!socket || socket.readyState !== 1)
      return Promise.reject(disconnected(`the phone ${this.name} (${this.id}) is not connected`));
    const requestId = randomUUID();
    const wire =
      this.dialect === 'design' && req.type !== 'get_screen' && req.type !== 'get_screenshot'
        ? { type: 'execute', requestId, action: req }
        : { ...req, requestId };
    return new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(
          fail(
            'TIMEOUT',
            `the phone ${this.name} did not answer ${req.type} (request ${requestId}) within ${timeoutMs} ms`,
            {
              hint: 'Is the companion app still running (battery optimisation may have stopped it) with its accessibility service on? A slow phone needs a larger use.deviceOptions.requestTimeoutMs.',
              retryable: true,
            },
          ),
        );
      }, timeoutMs);
      this.pending.set(requestId, { resolve, reject, timer });
      socket.send(JSON.stringify(wire), (err) => {
        if (err) this.detach(socket, `failed to take request ${requestId} (${err.message})`);
      });
    });
  }
}

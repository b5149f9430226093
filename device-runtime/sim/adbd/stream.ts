import type { BufferMeter } from './byte-queue.js';
import { A_CLSE, A_OKAY, A_WRTE } from './packet.js';

/** What a stream needs of its connection. */
export interface StreamLink {
  send(command: number, arg0: number, arg1: number, data?: Buffer | string): void;
  /** The largest WRTE the host accepts (agreed in CNXN). */
  readonly maxData: number;
  /** Where the services' input queues record the most they held. */
  readonly meter: BufferMeter;
  forget(localId: number): void;
  /** The host broke the protocol on this stream: the connection is dropped. */
  misbehaved(reason: string): void;
}

/**
 * WRTEs a host may have sent on one stream that the device has not acknowledged yet. adb sends
 * the next only after the OKAY for the last (no `delayed_ack` is offered in CNXN), so one is the
 * norm; a host far past that ignores flow control to make the device hold its data, and is dropped.
 */
const MAX_UNACKED_WRTES = 4;

/**
 * One adb stream (protocol.txt: OPEN, OKAY, WRTE, CLSE) from the device's side. Writes go out one
 * WRTE at a time, each after the host's OKAY for the one before (adb's flow control); what the
 * host writes is handed to `onData`, and acknowledged with OKAY once that has taken it.
 */
export class AdbStream {
  /** The host's id for this stream; 0 until the host accepts a stream the device opened. */
  remoteId: number;
  private readonly queue: Array<{ data: Buffer; done: () => void }> = [];
  private inFlight: (() => void) | null = null;
  private ending = false;
  private closed = false;
  /** A stream the host opened sends nothing before the device's OKAY has accepted it. */
  private held: boolean;
  private dataHandler: ((data: Buffer) => void | Promise<void>) | null = null;
  /** WRTEs that came before anyone listened (a stream the device opened may get data at once) wait, unacknowledged, for the listener. */
  private listening: Promise<void>;
  private listen: () => void = () => {};
  private unacked = 0;
  private early: Buffer[] = [];
  private readonly closeHandlers: Array<() => void> = [];

  constructor(
    private readonly link: StreamLink,
    readonly localId: number,
    remoteId: number,
  ) {
    this.remoteId = remoteId;
    this.held = remoteId !== 0;
    this.listening = new Promise<void>((r) => (this.listen = r));
  }

  /**
   * Who takes what the host writes; data that came before is handed over first. The host gets
   * its OKAY once the handler's promise settles: a handler that waits holds the host back.
   */
  set onData(f: (data: Buffer) => void | Promise<void>) {
    this.dataHandler = f;
    for (const d of this.early.splice(0)) void f(d);
    this.listen();
  }

  /** The largest WRTE the host takes. */
  get maxData(): number {
    return this.link.maxData;
  }

  /** Where this stream's service records the most its input queue held. */
  get meter(): BufferMeter {
    return this.link.meter;
  }

  /** The device's OKAY has gone out: data may flow. */
  release(): void {
    this.held = false;
    this.pump();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  onClose(f: () => void): void {
    if (this.closed) f();
    else this.closeHandlers.push(f);
  }

  /** Queue `data`; resolves once the host has acknowledged all of it (or the stream closed). */
  write(data: Buffer | string): Promise<void> {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (this.closed || this.ending || buf.length === 0) return Promise.resolve();
    const parts: Promise<void>[] = [];
    for (let i = 0; i < buf.length; i += this.link.maxData) {
      const data = buf.subarray(i, i + this.link.maxData);
      parts.push(new Promise<void>((done) => this.queue.push({ data, done })));
    }
    this.pump();
    return Promise.all(parts).then(() => {});
  }

  /** Close once everything queued has been acknowledged. */
  end(): void {
    if (this.closed) return;
    this.ending = true;
    this.pump();
  }

  private pump(): void {
    if (this.closed || this.held || this.inFlight || this.remoteId === 0) return;
    const next = this.queue.shift();
    if (next) {
      this.inFlight = next.done;
      this.link.send(A_WRTE, this.localId, this.remoteId, next.data);
    } else if (this.ending) {
      this.link.send(A_CLSE, this.localId, this.remoteId);
      this.teardown();
    }
  }

  /** The host's OKAY: the WRTE in flight was taken (or, for a stream the device opened, it was accepted). */
  handleOkay(remoteId: number): void {
    if (this.remoteId === 0) {
      this.remoteId = remoteId;
    } else {
      const done = this.inFlight;
      this.inFlight = null;
      done?.();
    }
    this.pump();
  }

  /** The host's WRTE: handed on, then acknowledged. */
  async handleWrite(data: Buffer): Promise<void> {
    if (++this.unacked > MAX_UNACKED_WRTES) {
      this.link.misbehaved(
        `stream ${this.localId}: ${this.unacked} WRTEs without waiting for the device's OKAY: connection dropped`,
      );
      return;
    }
    try {
      // Handed on at once, in the order the WRTEs came; the OKAY waits for the handler's promise.
      if (this.dataHandler) await this.dataHandler(data);
      else {
        this.early.push(data);
        await this.listening;
      }
    } finally {
      this.unacked--;
      if (!this.closed) this.link.send(A_OKAY, this.localId, this.remoteId);
    }
  }

  /** The host closed the stream (or refused one the device opened). */
  handleClose(): void {
    this.teardown();
  }

  /** Close at once, dropping what is queued. */
  abort(): void {
    if (this.closed) return;
    if (this.remoteId !== 0) this.link.send(A_CLSE, this.localId, this.remoteId);
    this.teardown();
  }

  private teardown(): void {
    if (this.closed) return;
    this.closed = true;
    this.link.forget(this.localId);
    this.inFlight?.();
    this.inFlight = null;
    for (const q of this.queue.splice(0)) q.done();
    this.listen();
    for (const f of this.closeHandlers.splice(0)) f();
  }
}

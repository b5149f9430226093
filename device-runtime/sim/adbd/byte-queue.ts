/** The most bytes one queue holds before its writer must wait: one WRTE of the largest size (MAX_PAYLOAD). */
export const QUEUE_HIGH_WATER = 1024 * 1024;

/** The most bytes any one queue has held at once, across the queues that share it. */
export interface BufferMeter {
  peak: number;
}

/**
 * Bytes that arrive in pieces (a stream's WRTEs, a shell's stdin) read back by count: what the
 * sync service and `cmd package install -S N` need. `end()` marks the end of input.
 *
 * Bounded: `push` resolves only once the queue is back to `highWater` bytes or fewer, and a
 * stream acknowledges a WRTE (its OKAY) only then — so a host that claims gigabytes is held to
 * the reader's pace instead of filling memory. A read never asks for more than `highWater`.
 */
export class ByteQueue {
  private chunks: Buffer[] = [];
  private length = 0;
  private ended = false;
  private wake: (() => void) | null = null;
  private drained: Array<() => void> = [];

  constructor(
    private readonly meter: BufferMeter | null = null,
    readonly highWater = QUEUE_HIGH_WATER,
  ) {}

  /** Take `chunk`; resolves once the queue holds `highWater` bytes or fewer (at once when it does). */
  push(chunk: Buffer): Promise<void> {
    if (this.ended || chunk.length === 0) return Promise.resolve();
    this.chunks.push(chunk);
    this.length += chunk.length;
    if (this.meter && this.length > this.meter.peak) this.meter.peak = this.length;
    this.notify();
    if (this.length <= this.highWater) return Promise.resolve();
    return new Promise<void>((r) => this.drained.push(r));
  }

  /** No more input; writers waiting for room are let go. */
  end(): void {
    this.ended = true;
    this.notify();
    this.release();
  }

  get isEnded(): boolean {
    return this.ended && this.length === 0;
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  private release(): void {
    for (const r of this.drained.splice(0)) r();
  }

  /** Exactly `n` bytes (at most `highWater`), or null when the input ends first. */
  async read(n: number): Promise<Buffer | null> {
    if (n > this.highWater) throw new RangeError(`ByteQueue.read: ${n} bytes is over the queue's ${this.highWater}`);
    while (this.length < n) {
      if (this.ended) return null;
      await new Promise<void>((r) => (this.wake = r));
    }
    return this.take(n);
  }

  /** Whatever is there, 1 to `max` bytes, once there is some; null at the end of input. */
  async readSome(max: number): Promise<Buffer | null> {
    while (this.length === 0) {
      if (this.ended) return null;
      await new Promise<void>((r) => (this.wake = r));
    }
    return this.take(Math.min(max, this.length));
  }

  /** The first `n` bytes, copied only when they span chunks. */
  private take(n: number): Buffer {
    let out: Buffer;
    const first = this.chunks[0];
    if (n === 0) out = Buffer.alloc(0);
    else if (first && first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      const parts: Buffer[] = [];
      let need = n;
      while (need > 0) {
        const c = this.chunks[0]!;
        if (c.length <= need) {
          parts.push(c);
          this.chunks.shift();
          need -= c.length;
        } else {
          parts.push(c.subarray(0, need));
          this.chunks[0] = c.subarray(need);
          need = 0;
        }
      }
      out = Buffer.concat(parts, n);
    }
    this.length -= n;
    if (this.length <= this.highWater) this.release();
    return out;
  }
}

/**
 * Bytes that arrive in pieces (a stream's WRTEs, a shell's stdin) read back by count: what the
 * sync service and `cmd package install -S N` need. `end()` marks the end of input.
 */
export class ByteQueue {
  private chunks: Buffer[] = [];
  private length = 0;
  private ended = false;
  private wake: (() => void) | null = null;

  push(chunk: Buffer): void {
    if (this.ended || chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  get isEnded(): boolean {
    return this.ended && this.length === 0;
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** Exactly `n` bytes, or null when the input ends first. */
  async read(n: number): Promise<Buffer | null> {
    while (this.length < n) {
      if (this.ended) return null;
      await new Promise<void>((r) => (this.wake = r));
    }
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.length = rest.length;
    return out;
  }

  /** Everything up to the end of input. */
  async readAll(): Promise<Buffer> {
    while (!this.ended) await new Promise<void>((r) => (this.wake = r));
    const all = Buffer.concat(this.chunks);
    this.chunks = [];
    this.length = 0;
    return all;
  }
}

/**
 * Time as the simulator sees it. Everything time-dependent on a simulated screen (animations,
 * toasts, loading delays, channel latency, `ui_wait_for` polling) reads this clock, so tests can
 * replace wall time with a {@link VirtualClock} and stay deterministic.
 */
export interface Clock {
  /** Milliseconds since the epoch (or since the virtual start). Near-zero cost. */
  now(): number;
  /** Wait `ms` of this clock's time. */
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

/**
 * A clock that only moves when told to: `sleep` advances it instantly (yielding to the event loop
 * once), so a `ui_wait_for` with a 5 s timeout finishes in microseconds of real time while the
 * simulated app sees 5 s pass.
 */
export class VirtualClock implements Clock {
  constructor(private t = 1_750_000_000_000) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += Math.max(0, ms);
  }
  async sleep(ms: number): Promise<void> {
    this.advance(ms);
    await Promise.resolve();
  }
}

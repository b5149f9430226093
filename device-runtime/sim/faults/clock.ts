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
  /**
   * Real work under way that the simulated time must not outrun (an app's HTTP request): a
   * virtual clock's sleep waits for it (up to a moment of real time) before moving on.
   */
  hold?(work: Promise<unknown>): void;
  /** Resolve once this clock reads `due` or later (a server's think time, in simulated time). */
  until?(due: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
  until: (due) => new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now()))),
};

/** The most real time one virtual sleep waits for held work (an HTTP request to loopback takes a few ms). */
const HOLD_MAX_MS = 50;

/**
 * A clock that only moves when told to: `sleep` advances it instantly (yielding to the event loop
 * once), so a `ui_wait_for` with a 5 s timeout finishes in microseconds of real time while the
 * simulated app sees 5 s pass. Real work the simulator holds it for (an app's HTTP request to the
 * simulator's backend, which answers in real time) is waited for first, a moment at a time: the
 * simulated time does not run ahead of a request in flight.
 */
export class VirtualClock implements Clock {
  private readonly held = new Set<Promise<unknown>>();
  /** Work waiting for simulated time (a server thinking): not waited for, time must move for it. */
  private readonly waiting: Array<{ due: number; resolve: () => void }> = [];
  private wake: (() => void) | null = null;
  constructor(private t = 1_750_000_000_000) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += Math.max(0, ms);
    for (const w of this.waiting.filter((x) => x.due <= this.t)) {
      this.waiting.splice(this.waiting.indexOf(w), 1);
      w.resolve();
    }
  }
  hold(work: Promise<unknown>): void {
    const done: Promise<void> = work.then(
      () => void this.held.delete(done),
      () => void this.held.delete(done),
    );
    this.held.add(done);
  }
  until(due: number): Promise<void> {
    if (due <= this.t) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiting.push({ due, resolve });
      this.wake?.();
    });
  }
  async sleep(ms: number): Promise<void> {
    // Held work that is not waiting for time is doing real I/O: give it a moment before time moves.
    if (ms > 0 && this.held.size > this.waiting.length) {
      let timer: NodeJS.Timeout | undefined;
      let early = false;
      const t0 = performance.now();
      await Promise.race([
        Promise.allSettled([...this.held]).then(() => (early = true)),
        new Promise<void>((resolve) => {
          this.wake = resolve;
          timer = setTimeout(resolve, Math.min(ms, HOLD_MAX_MS));
        }),
      ]);
      this.wake = null;
      clearTimeout(timer);
      // The answer came in meanwhile: time moved as much as it took, and the caller looks again.
      if (early) {
        this.advance(Math.min(ms, Math.ceil(performance.now() - t0)));
        return;
      }
    }
    this.advance(ms);
    await Promise.resolve();
  }
}

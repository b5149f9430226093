/**
 * A feature's place in the running test (framework/core/running-test.ts): a leaf the features may
 * import, so reading their per-test state does not tie them to the core's classes.
 */

/** What holds the running test's slots (the core's `TestContext`). */
export interface SlotHolder {
  get<T>(slot: TestSlot<T>): T | undefined;
}

/** The running test's slots as the fixture that fills one sees them. */
export interface SlotStore extends SlotHolder {
  set<T>(slot: TestSlot<T>, value: T): void;
}

let running: SlotHolder | null = null;

/** @internal The core's: make `holder` the running test for `body`, and none once it ends. */
export async function withRunningTest<T>(holder: SlotHolder, body: () => Promise<T>): Promise<T> {
  const previous = running;
  running = holder;
  try {
    return await body();
  } finally {
    running = previous;
  }
}

/** @internal The running test's slots, or null outside a test. */
export function runningSlots(): SlotHolder | null {
  return running;
}

/** A feature's state in the running test: made once per feature module, keyed by identity. */
export class TestSlot<T> {
  constructor(
    /** The feature's name, for debugging. */
    readonly name: string,
    /** What the feature uses outside a test (a CLI run, a bench): made once per process. */
    private readonly outside: () => T,
  ) {}

  private fallback: { value: T } | null = null;

  /** The running test's value, or the outside value when no test runs (or the test set none). */
  current(): T {
    const value = running?.get(this);
    if (value !== undefined) return value;
    return (this.fallback ??= { value: this.outside() }).value;
  }
}

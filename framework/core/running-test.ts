import type { App } from './app.js';
import type { DriverOptions } from './driver.js';
import { Trajectory } from './trajectory.js';
import { currentTestId } from './in-test.js';
import { Lifecycle } from './lifecycle.js';
import { runningSlots, withRunningTest, type SlotStore, type TestSlot } from './test-slot.js';

export { TestSlot } from './test-slot.js';

/**
 * The running test, as the core and the features see it: one object per test, set by the
 * fixtures for the test's duration, instead of a module-level "current test" per feature. A
 * feature keeps its per-test state in a slot of its own ({@link TestSlot}); the core never knows
 * what is in them. One test runs at a time in a worker, so one is current at a time.
 *
 * Not public API: the fixtures make it; features read their slot.
 */
export class TestContext implements SlotStore {
  /** Every instance launched during the test, closed when it ends. */
  readonly launched: App[] = [];
  /** The package of `use.apk`: a permission it does not request is a mistake in the config. */
  appPackage: string | null = null;
  /** Whether the `app` fixture ran for this test (it did not when test.use replaced it with a value). */
  appFixture = false;
  /** The Playwright test it runs for (`testInfo.testId`), once it ran; null outside Playwright. */
  testId: string | null = null;
  private readonly slots = new Map<TestSlot<unknown>, unknown>();

  constructor(
    readonly trajectory: Trajectory,
    readonly options: DriverOptions,
    /** `use.permissions`: the runtime permissions each app starts the test with (none by default). */
    readonly permissions: string[] = [],
    /** The features of this test (the world, the network, video, device logs…), told of each instance. */
    readonly lifecycle: Lifecycle = new Lifecycle(),
  ) {}

  /** The feature's state for this test (set by its fixture), or undefined. */
  get<T>(slot: TestSlot<T>): T | undefined {
    return this.slots.get(slot as TestSlot<unknown>) as T | undefined;
  }

  set<T>(slot: TestSlot<T>, value: T): void {
    this.slots.set(slot as TestSlot<unknown>, value);
  }
}

/** The running test, or null outside one. */
export function runningTest(): TestContext | null {
  const holder = runningSlots();
  return holder instanceof TestContext ? holder : null;
}

/**
 * Make `ctx` the running test for `body` (the fixture's `use`), and none once it ends.
 *
 * @internal The fixtures'.
 */
export async function runTest<T>(ctx: TestContext, body: () => Promise<T>): Promise<T> {
  ctx.testId = currentTestId();
  try {
    return await withRunningTest(ctx, body);
  } finally {
    lastTest = ctx;
  }
}

/** The test that ran last in this worker (its body may outlive it: a timed-out test's does). */
let lastTest: TestContext | null = null;

/**
 * The test a call made now belongs to, for calls not made through an app's driver (which keeps
 * its test): the running test; else, when the last test ended by its timeout and what runs now
 * is still its body (no other test or hook has begun), that test, whose aborted signal refuses
 * the call as it refuses its apps' calls; else a context of its own ({@link outsideTest}).
 */
export function callContext(): TestContext {
  const running = runningTest();
  if (running) return running;
  const now = currentTestId();
  if (lastTest?.options.scope?.signal.aborted && (now === null || now === lastTest.testId)) return lastTest;
  return outsideTest();
}

/** What apps launched outside a test get: a trajectory of their own and default timeouts. */
export function outsideTest(): TestContext {
  return runningTest() ?? new TestContext(new Trajectory(), { actionTimeout: 5_000, expectTimeout: 5_000 });
}

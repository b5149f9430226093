import type { DeviceClient } from '../../device-runtime/client/index.js';
import { DeviceError } from '../../device-runtime/client/index.js';
import type { Observation, ToolInput, ToolName, ToolResult } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from './api-call.js';
import { DeviceDisconnectedError, NestwrightError, TestEndedError } from './errors.js';

/** What a driver needs from the test it runs in. */
export interface TestScope {
  /**
   * Aborted when the test times out: calls in flight stop at once, and the step that was running
   * fails with the timeout (not with what clean-up does to the device afterwards).
   */
  readonly signal: AbortSignal;
  /** Why the test ended, e.g. `Test timeout of 30000ms exceeded.` */
  endReason(): string;
  /**
   * Work of the test's body in flight (an action, a step): when the test times out, clean-up
   * aborts {@link signal} and then waits for that work to end (at once: its calls and waits stop),
   * so its error — the timeout, naming the step — reaches the report before the test ends.
   */
  track<T>(work: Promise<T>): Promise<T>;
  /** A fatal error (APP_CRASHED, DEVICE_DISCONNECTED) was raised: the test fails at its end even if it was caught. */
  raised(error: NestwrightError, from: { who(): string }): void;
  /** `expect(app).toHaveCrashed()` passed: the crashes raised for instance `who` were expected. Whether there were any. */
  acknowledge(who: string): boolean;
}

/** Builds the error for an APP_CRASHED answer (with the instance's logcat): see InstanceWatch.crashError. */
export type CrashErrorFactory = (call: ApiCall, reason: string, cause: unknown) => Promise<NestwrightError>;

/**
 * The one path from an app's objects (its locators, assertions, AI and skill steps) to the
 * device, the way Playwright's `_wrapApiCall` is for its client: every tool call goes through
 * {@link DeviceCalls.call} (or {@link DeviceCalls.raw} where the caller handles the device's codes
 * itself, then {@link DeviceCalls.translate}), which stops when the test ends, counts round trips,
 * remembers the last screen seen, and turns device errors into nestwright errors named after
 * the API that made the call — by the error's type and code, never its text.
 */
export class DeviceCalls {
  /** Tool calls made so far: each trajectory step records how many it took (`roundTrips`). */
  roundTrips = 0;
  /** The last screen observed: what a step cut short by the test's timeout shows. */
  lastSeen: Observation | null = null;

  constructor(
    readonly client: DeviceClient,
    private readonly owner: { who(): string },
    private readonly scope: TestScope | undefined,
    private readonly crashError: CrashErrorFactory,
  ) {}

  /** A tool call, device errors translated to nestwright errors named after `call`. */
  async call<N extends ToolName>(call: ApiCall, name: N, input: ToolInput<N>): Promise<ToolResult<N>> {
    try {
      return await this.raw(name, input);
    } catch (e) {
      throw await this.translate(call, e);
    }
  }

  /**
   * A tool call, untranslated, that stops when the test times out (it then rejects with
   * {@link TestEndedError}; what the device answers later is ignored).
   */
  async raw<N extends ToolName>(name: N, input: ToolInput<N>): Promise<ToolResult<N>> {
    const signal = this.scope?.signal;
    if (signal?.aborted) throw new TestEndedError();
    this.roundTrips++;
    if (!signal) {
      const result = await this.client.call(name, input);
      if (name === 'ui_observe') this.lastSeen = result as Observation;
      return result;
    }
    // The call gets a signal of its own, aborted with the test's: the device then cancels a wait
    // it runs for us (an action on the selector_actions path) rather than going on into clean-up.
    // Its own, since the MCP SDK keeps a listener on a request's signal after the request ends.
    const call = new AbortController();
    const onAbort = () => call.abort(new TestEndedError());
    signal.addEventListener('abort', onAbort, { once: true });
    const pending = this.client.call(name, input, { signal: call.signal });
    pending.catch(() => {}); // answered after the end: nobody listens any more
    const ended = new Promise<never>((_, reject) =>
      call.signal.addEventListener('abort', () => reject(new TestEndedError()), { once: true }),
    );
    ended.catch(() => {});
    let result: ToolResult<N>;
    try {
      result = await Promise.race([pending, ended]);
    } catch (e) {
      // The client's own rejection of the cancelled call says nothing the end does not.
      throw call.signal.aborted ? new TestEndedError() : e;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    if (name === 'ui_observe') this.lastSeen = result as Observation;
    return result;
  }

  /**
   * A tool call made after the test ended, to collect what explains its failure (the full tree):
   * not stopped by the end, not counted, and never raising a fatal error of the test — a device
   * error is only named after `call`.
   */
  async afterTest<N extends ToolName>(call: ApiCall, name: N, input: ToolInput<N>): Promise<ToolResult<N>> {
    try {
      return await this.client.call(name, input);
    } catch (e) {
      throw e instanceof DeviceError ? new NestwrightError(call, e.message, { cause: e, code: e.code }) : e;
    }
  }

  /** By code: APP_CRASHED and DEVICE_DISCONNECTED end the test at once, with what explains them; other device errors are named after `call`. */
  async translate(call: ApiCall, e: unknown): Promise<unknown> {
    if (!(e instanceof DeviceError)) return e;
    if (e.code === 'DEVICE_DISCONNECTED') {
      return this.fatal(
        new DeviceDisconnectedError(
          call,
          `${e.message}\n  The device went away; nothing was retried. Check that the runtime is still running.`,
          { cause: e },
        ),
      );
    }
    if (e.code === 'APP_CRASHED') return this.crashError(call, (e.details?.crash_reason as string) ?? e.message, e);
    return new NestwrightError(call, e.message, { cause: e, code: e.code });
  }

  /** Tell the test a fatal error was raised (it fails at its end even if the error is caught). */
  fatal<E extends NestwrightError>(error: E): E {
    this.scope?.raised(error, this.owner);
    return error;
  }
}

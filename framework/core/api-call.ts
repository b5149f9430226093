import type { CallSite } from './call-site.js';
import { NestwrightError, type NestwrightErrorCode } from './errors.js';
import type { TrajectoryStep } from './trajectory.js';

/**
 * One public API call in progress (`locator.tap`, `expect.toBeVisible`, `app.launch`,
 * `app.ai.act`, …), made once by the public method (`port.wrap(api, opts, body)`) and handed to
 * everything below it, as Playwright's `_wrapApiCall` hands its progress down: the API's name
 * (every error it raises starts with it, its step records it), its deadline, its call log, the
 * test's abort signal, and the step it records once that is open. Nothing below a public method
 * takes the API's name, a timeout or a signal as separate arguments.
 */
export class ApiCall {
  /** When the call began (epoch ms): its step's record starts here, even when it opens later. */
  readonly startedAt = Date.now();
  /** When the call must end (epoch ms): `startedAt` + `timeout`. */
  readonly deadline: number;
  /** What the call waited for and saw, a line per wait (Playwright's call log): a timeout prints it. */
  readonly log: string[] = [];
  /** The user-visible step this call records, once open (StepRecorder sets it). */
  step: TrajectoryStep | null = null;

  constructor(
    /** The public API, e.g. `locator.tap`. */
    readonly api: string,
    /** Its timeout, ms, already scaled to the device's timing (what messages show). */
    readonly timeout: number,
    /** Aborted when the test ends: waits and tool calls in flight stop at once. */
    readonly signal: AbortSignal | undefined,
    /** Where the user made the call, captured before the first await (healing keys by it); absent when healing is off. */
    readonly at?: CallSite,
  ) {
    this.deadline = this.startedAt + timeout;
  }

  /** Time left until the deadline, ms (negative once it has passed). */
  remaining(): number {
    return this.deadline - Date.now();
  }

  /** A {@link NestwrightError} named after this call (`locator.tap: …`), with the code that says whose it is. */
  error(message: string, options: { cause?: unknown; code: NestwrightErrorCode }): NestwrightError {
    return new NestwrightError(this.api, message, options);
  }
}

/** How a public method's call is made: its timeout (given, ms, before the device's scale) and which default it takes. */
export interface CallOptions {
  timeout?: number | undefined;
  /** The default timeout: the action timeout (default) or the expect timeout. */
  kind?: 'action' | 'expect';
}

/** What wraps a public method's call: implemented by the driver, reached by features through the port. */
export interface CallWrapper {
  /**
   * Run a public method's body with its call context: `wrap('app.launch', {}, (call) => …)`.
   * The one way a public method starts, in the core and in every feature.
   */
  wrap<T>(api: string, opts: CallOptions, body: (call: ApiCall) => Promise<T>): Promise<T>;
}

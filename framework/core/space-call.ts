import type { DeviceClient } from '../../device-runtime/client/index.js';
import { ApiCall } from './api-call.js';
import { DeviceCalls } from './device-calls.js';
import { NestwrightError, TestEndedError } from './errors.js';
import { callContext, type TestContext } from './running-test.js';
import { Screenshots } from './screenshots.js';
import { StepRecorder } from './step-recorder.js';
import type { TrajectoryStep } from './trajectory.js';

/** What a Space's public method's body gets: its call, the one path to the device, and the test it runs in. */
export interface SpaceCall {
  readonly call: ApiCall;
  readonly calls: DeviceCalls;
  readonly ctx: TestContext;
  /** One user-visible step of the call (a `test.step` and a trajectory record), as an app's steps are. */
  step<T>(title: string, body: (record: TrajectoryStep) => Promise<T>): Promise<T>;
}

/**
 * The call context of a Space's public methods (`space.install`, `space.launch`,
 * `space.delete`), as `AppDriver.wrap` is an app's: the API's name on every error, the test's
 * abort signal (a call once the test ended by its timeout is refused with `TestEndedError`), a
 * lost device raised as the test's fatal `DEVICE_DISCONNECTED`, and a step in the test's
 * trajectory. A space lives as long as its worker, so each call takes the test it is made in
 * ({@link callContext}), not one kept from its creation.
 */
export class SpaceCalls {
  constructor(
    private readonly client: DeviceClient,
    private readonly spaceId: string,
    private readonly owner: { who(): string },
  ) {}

  /** Run a public method's body with its call context; `timeout` (ms, before the device's scale) defaults to the action timeout. */
  wrap<T>(api: string, body: (sc: SpaceCall) => Promise<T>, timeout?: number): Promise<T> {
    const ctx = callContext();
    const { options } = ctx;
    const scope = options.scope;
    const call = new ApiCall(
      api,
      Math.round((timeout ?? options.actionTimeout) * (options.timeoutScale ?? 1)),
      scope?.signal,
    );
    // Refused at once, before a step opens: the test's end is the error, not a timeout of this step.
    if (scope?.signal.aborted) return Promise.reject(new TestEndedError());
    // A space runs no app of its own: an APP_CRASHED answer (an app that dies as it starts) is named after the call.
    const calls: DeviceCalls = new DeviceCalls(this.client, this.owner, scope, (c, reason, cause) =>
      Promise.resolve(calls.fatal(new NestwrightError(c, reason, { cause, code: 'APP_CRASHED' }))),
    );
    const steps = new StepRecorder(ctx.trajectory, calls, new Screenshots(calls, this.spaceId), null, 'off', scope);
    return body({
      call,
      calls,
      ctx,
      step: (title, run) => steps.step(call, { kind: 'app', title, selector: null }, run),
    });
  }
}

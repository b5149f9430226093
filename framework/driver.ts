import type { DeviceClient } from '../device-runtime/client/index.js';
import {
  REAL_CLOCK,
  settle,
  type Clock,
  type Observation,
  type Took,
  type ToolInput,
  type ToolName,
  type ToolResult,
  type UiNode,
} from '../device-runtime/protocol/index.js';
import { CallSite } from './call-site.js';
import { ApiCall, type CallOptions } from './core/api-call.js';
import { DeviceCalls, type TestScope } from './device-calls.js';
import { TestEndedError } from './errors.js';
import type { AppCrashedError } from './errors.js';
import { InstanceWatch } from './instance-watch.js';
import type { Lifecycle } from './core/lifecycle.js';
import type { InstancePort, InstanceState, LocatorHealing, StepMeta } from './port.js';
import { Screenshots } from './screenshots.js';
import { StepRecorder, type ScreenshotMode } from './step-recorder.js';
import type { Trajectory, TrajectoryStep } from './trajectory.js';

export type { TestScope } from './device-calls.js';
export type { ScreenshotMode } from './step-recorder.js';

export interface DriverOptions {
  actionTimeout: number;
  expectTimeout: number;
  /** PNGs in the trajectory: none, the screen after a failed step, or after every step. */
  screenshot?: ScreenshotMode;
  /**
   * How much slower than a phone this device runs (runtime_info `timing`; 3 under the simulator's
   * `hostile` profile): every action and assertion timeout, given or default, is multiplied by it.
   */
  timeoutScale?: number;
  /** The fault profile the scale comes from, for messages. */
  timingProfile?: string;
  /** The running test, when there is one. */
  scope?: TestScope;
  /**
   * 'auto' (default): act in one round trip on runtimes that offer the `selector_actions`
   * extension; 'off': always wait, act and verify from here, one tool call per look.
   */
  deviceActions?: 'auto' | 'off';
  /** Selector healing for this test (`use.heal`); absent: off. */
  heal?: LocatorHealing;
  /** The test's features, told of the instance's observations (core/lifecycle.ts); absent outside a test. */
  lifecycle?: Lifecycle;
}

/**
 * What an app object and its locators share: the instance they act on, its options, and its
 * parts, one per job —
 * - {@link DeviceCalls} `calls`: the one path to the device (errors named and translated by code);
 * - {@link InstanceWatch} `watch`: keeps the instance in front and notices crashes;
 * - {@link Screenshots} `screenshots`: PNGs, with the runtime's support asked once;
 * - {@link StepRecorder} `steps`: `test.step`s and their trajectory records.
 * Here only what joins them: the call context every public method starts with ({@link wrap}),
 * and timeouts scaled to the device. Which actuator runs the actions is chosen once per driver
 * (core/actuators.ts).
 * It is the {@link InstancePort} the features (AI, healing, skills) see: the port's methods
 * below only hand on to the parts.
 */
export class AppDriver implements InstancePort {
  readonly calls: DeviceCalls;
  readonly watch: InstanceWatch;
  readonly screenshots: Screenshots;
  readonly steps: StepRecorder;

  constructor(
    client: DeviceClient,
    readonly spaceId: string,
    readonly pkg: string,
    readonly instance: string | null,
    readonly trajectory: Trajectory,
    readonly options: DriverOptions,
  ) {
    this.calls = new DeviceCalls(client, this, options.scope, (call, reason, cause) =>
      this.watch.crashError(call, reason, cause),
    );
    const lifecycle = options.lifecycle;
    this.watch = new InstanceWatch(this.calls, this, lifecycle?.observes ? () => lifecycle.beforeObserve(this) : null);
    this.screenshots = new Screenshots(this.calls, spaceId);
    this.steps = new StepRecorder(
      trajectory,
      this.calls,
      this.screenshots,
      instance,
      options.screenshot ?? 'off',
      options.scope,
    );
  }

  call<N extends ToolName>(call: ApiCall, tool: N, input: ToolInput<N>): Promise<ToolResult<N>> {
    return this.calls.call(call, tool, input);
  }

  offers(name: string): Promise<boolean> {
    return this.calls.client.hasExtension(name).catch(() => false);
  }

  /** `com.example.app@2`: the package, and the instance when there is one. */
  who(): string {
    return this.watch.who();
  }

  /** An action's (or assertion's) timeout in ms: `given` or the default, times the device's timeoutScale. */
  timeout(given: number | undefined, kind: 'action' | 'expect' = 'action'): number {
    const base = given ?? (kind === 'action' ? this.options.actionTimeout : this.options.expectTimeout);
    return Math.round(base * (this.options.timeoutScale ?? 1));
  }

  /** `5000ms`, or `15000ms (5000ms × 3, the device's timing "hostile")` when scaled. */
  describeTimeout(ms: number): string {
    const scale = this.options.timeoutScale ?? 1;
    return scale === 1
      ? `${ms}ms`
      : `${ms}ms (${Math.round(ms / scale)}ms × ${scale}, the device's timing "${this.options.timingProfile ?? '?'}")`;
  }

  /**
   * Start a public method's call: its context (the API's name, its deadline from `opts.timeout`
   * or the default of its kind scaled to the device, a call log, the test's abort signal, and —
   * when healing is on — where the user called, captured here before any await), handed to
   * `body` and to everything below it.
   */
  async wrap<T>(api: string, opts: CallOptions, body: (call: ApiCall) => Promise<T>): Promise<T> {
    const call = new ApiCall(
      api,
      this.timeout(opts.timeout, opts.kind),
      this.options.scope?.signal,
      this.options.heal ? CallSite.capture() : undefined,
    );
    if (this.held.size) await Promise.allSettled([...this.held]);
    return body(call);
  }

  private readonly held = new Set<Promise<unknown>>();

  /** Hold this instance's next public calls until `work` settles (a feature's set-up they must not overtake). */
  hold(work: Promise<unknown>): void {
    this.held.add(work);
    void work.then(
      () => this.held.delete(work),
      () => this.held.delete(work),
    );
  }

  /**
   * The clock every wait runs on (auto-waiting's backoff, the looks after an action): the wall
   * clock, except that a wait in progress when the test times out ends at once with
   * {@link TestEndedError}, as a tool call in flight does — no step sleeps through its test's end.
   */
  readonly clock: Clock = {
    now: () => REAL_CLOCK.now(),
    sleep: (ms) => {
      const signal = this.options.scope?.signal;
      if (!signal) return REAL_CLOCK.sleep(ms);
      if (signal.aborted) return Promise.reject(new TestEndedError());
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          clearTimeout(timer);
          reject(new TestEndedError());
        };
        const timer = setTimeout(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
  };

  /**
   * Observe after an action until it shows an effect (the protocol's settle, the one loop both
   * sides run: a few quick looks); a crash of our instance seen meanwhile is raised.
   */
  settle(
    call: ApiCall,
    before: Observation,
    node: UiNode | null,
    took: Took,
  ): Promise<{ obs: Observation; effect: boolean }> {
    return settle(
      async () => {
        const obs = await this.calls.call(call, 'ui_observe', {
          space_id: this.spaceId,
          max_nodes: 400,
          detail: 'compact',
        });
        if (!this.watch.inFront(obs)) {
          const crash = await this.watch.crashed(call);
          if (crash) throw crash;
        }
        return obs;
      },
      before,
      node,
      took,
      this.clock,
    );
  }

  // The port (port.ts): what AI steps, healing and skills may use of this instance.

  observe(call: ApiCall, opts?: { detail?: 'compact' | 'full'; maxNodes?: number }): Promise<Observation> {
    return this.watch.observe(call, opts);
  }

  observeAsIs(call: ApiCall): Promise<Observation> {
    return this.calls.call(call, 'ui_observe', { space_id: this.spaceId, max_nodes: 400, detail: 'compact' });
  }

  inFront(obs: Observation): boolean {
    return this.watch.inFront(obs);
  }

  state(call: ApiCall): Promise<InstanceState> {
    return this.watch.state(call);
  }

  logcat(call: ApiCall, opts?: { maxLines?: number; sinceMs?: number; afterTest?: boolean }): Promise<string[]> {
    return this.watch.logcat({ call, ...opts });
  }

  crashed(call: ApiCall, state?: InstanceState): Promise<AppCrashedError | null> {
    return this.watch.crashed(call, state);
  }

  screenshot(call: ApiCall, scale?: number): Promise<Buffer | null> {
    return this.screenshots.take(call, scale);
  }

  step<T>(call: ApiCall, meta: StepMeta, body: (record: TrajectoryStep) => Promise<T>): Promise<T> {
    return this.steps.step(call, meta, body);
  }
}

import { test } from '@playwright/test';
import type { DeviceClient } from '../device-runtime/client/index.js';
import { DeviceError } from '../device-runtime/client/index.js';
import { settle, type Observation, type ToolInput, type ToolName, type ToolResult, type Took, type UiNode } from '../device-runtime/protocol/index.js';
import { AppCrashedError, describeScreen, DeviceDisconnectedError, NestwrightError, TestEndedError, TimeoutError } from './errors.js';
import type { LocatorHealing } from './heal/healer.js';
import type { Trajectory, TrajectoryStep } from './trajectory.js';

export type ScreenshotMode = 'off' | 'only-on-failure' | 'every-step';

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
}

/** What a driver needs from the test it runs in. */
export interface TestScope {
  /**
   * Aborted when the test times out: calls in flight stop at once, and the step that was running
   * fails with the timeout (not with what clean-up does to the device afterwards).
   */
  readonly signal: AbortSignal;
  /** Why the test ended, e.g. `Test timeout of 30000ms exceeded.` */
  endReason(): string;
  /** A fatal error (APP_CRASHED, DEVICE_DISCONNECTED) was raised: the test fails at its end even if it was caught. */
  raised(error: NestwrightError, driver: AppDriver): void;
  /** `expect(app).toHaveCrashed()` passed: the crashes raised for instance `who` were expected. Whether there were any. */
  acknowledge(who: string): boolean;
}

type InstanceState = 'stopped' | 'background' | 'foreground' | 'crashed' | 'gone';

/** Whether we are inside a Playwright test (test.info() throws outside one, e.g. in benches). */
function inTest(): boolean {
  try {
    test.info();
    return true;
  } catch {
    return false;
  }
}

/**
 * What an app object and its locators share: the connection, the instance they act on, and the
 * test's trajectory. It keeps the instance in front before every action (so several instances in
 * one space take turns on its screen) and turns device errors into nestwright errors.
 */
export class AppDriver {
  /** Null until the first try; false when the runtime answered NOT_SUPPORTED (asked once). */
  private screenshotsSupported: boolean | null = null;

  constructor(
    readonly client: DeviceClient,
    readonly spaceId: string,
    readonly pkg: string,
    readonly instance: string | null,
    readonly trajectory: Trajectory,
    readonly options: DriverOptions,
  ) {}

  /** An action's (or assertion's) timeout in ms: `given` or the default, times the device's timeoutScale. */
  timeout(given: number | undefined, kind: 'action' | 'expect' = 'action'): number {
    const base = given ?? (kind === 'action' ? this.options.actionTimeout : this.options.expectTimeout);
    return Math.round(base * (this.options.timeoutScale ?? 1));
  }

  /** `5000ms`, or `15000ms (5000ms × 3, the device's timing "hostile")` when scaled. */
  describeTimeout(ms: number): string {
    const scale = this.options.timeoutScale ?? 1;
    return scale === 1 ? `${ms}ms` : `${ms}ms (${Math.round(ms / scale)}ms × ${scale}, the device's timing "${this.options.timingProfile ?? '?'}")`;
  }

  /** The last screen this driver observed: what a step cut short by the test's timeout shows. */
  lastSeen: Observation | null = null;

  /** Tool calls made so far: each trajectory step records how many it took (`roundTrips`). */
  roundTrips = 0;

  private onDevice: Promise<boolean> | null = null;

  /** Whether actions run on the device in one round trip (the runtime offers `selector_actions` and the option allows it). */
  resolvesOnDevice(): Promise<boolean> {
    if (this.options.deviceActions === 'off') return Promise.resolve(false);
    return (this.onDevice ??= this.client.info().then(
      (info) => info?.extensions.includes('selector_actions') ?? false,
      () => false,
    ));
  }

  /**
   * Observe after an action until it shows an effect (the protocol's settle: a few quick looks);
   * a crash of our instance seen meanwhile is raised.
   */
  settle(api: string, before: Observation, node: UiNode | null, took: Took): Promise<{ obs: Observation; effect: boolean }> {
    return settle(async () => {
      const obs = await this.call(api, 'ui_observe', { space_id: this.spaceId, max_nodes: 400, detail: 'compact' });
      if (!this.inFront(obs)) {
        const crash = await this.crashed(api);
        if (crash) throw crash;
      }
      return obs;
    }, before, node, took);
  }

  /** A tool call through the device client, device errors translated to nestwright errors. */
  async call<N extends ToolName>(api: string, name: N, input: ToolInput<N>): Promise<ToolResult<N>> {
    try {
      return await this.raw(name, input);
    } catch (e) {
      throw await this.translate(api, e);
    }
  }

  /**
   * A tool call, untranslated, that stops when the test times out (it then rejects with
   * {@link TestEndedError}; what the device answers later is ignored).
   */
  async raw<N extends ToolName>(name: N, input: ToolInput<N>): Promise<ToolResult<N>> {
    const signal = this.options.scope?.signal;
    if (signal?.aborted) throw new TestEndedError();
    this.roundTrips++;
    const pending = this.client.call(name, input);
    let result: ToolResult<N>;
    if (!signal) result = await pending;
    else {
      let onAbort = () => {};
      const ended = new Promise<never>((_, reject) => signal.addEventListener('abort', (onAbort = () => reject(new TestEndedError())), { once: true }));
      pending.catch(() => {}); // answered after the end: nobody listens any more
      try {
        result = await Promise.race([pending, ended]);
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    }
    if (name === 'ui_observe') this.lastSeen = result as Observation;
    return result;
  }

  /** APP_CRASHED and DEVICE_DISCONNECTED end the test at once, with what explains them. */
  async translate(api: string, e: unknown): Promise<unknown> {
    if (!(e instanceof DeviceError)) return e;
    if (e.code === 'DEVICE_DISCONNECTED') {
      return this.fatal(new DeviceDisconnectedError(api, `${e.message}\n  The device went away; nothing was retried. Check that the runtime is still running.`, { cause: e }));
    }
    if (e.code === 'APP_CRASHED') return this.crashError(api, (e.details?.crash_reason as string) ?? e.message, e);
    return new NestwrightError(api, e.message, { cause: e });
  }

  async crashError(api: string, reason: string, cause?: unknown): Promise<AppCrashedError> {
    const logcat = await this.logcat().catch(() => []);
    return this.fatal(new AppCrashedError(api, `${this.who()} crashed: ${reason.split('\n')[0]}`, reason, logcat, { cause }));
  }

  /** Tell the test a fatal error was raised (it fails at its end even if the error is caught). */
  private fatal<E extends NestwrightError>(error: E): E {
    this.options.scope?.raised(error, this);
    return error;
  }

  who(): string {
    return `${this.pkg}${this.instance ? `@${this.instance}` : ''}`;
  }

  /** The instance's logcat, formatted like `adb logcat -v threadtime` lines. */
  async logcat(maxLines = 200): Promise<string[]> {
    const { lines } = await this.raw('sys_logcat', {
      space_id: this.spaceId,
      package: this.pkg,
      ...(this.instance ? { instance: this.instance } : {}),
      max_lines: maxLines,
    });
    // One output line per message line, each with its prefix, as `adb logcat` prints a stack.
    return lines.flatMap((l) => l.message.split('\n').map((m) => `${new Date(l.ts).toISOString()} ${l.pid} ${l.level} ${l.tag}: ${m}`));
  }

  /** Our instance's state from space_list_apps (one call). */
  async state(api: string): Promise<InstanceState> {
    const { apps } = await this.call(api, 'space_list_apps', { space_id: this.spaceId });
    const inst = apps.find((a) => a.package === this.pkg)?.instances.find((i) => i.instance === (this.instance ?? '0'));
    return inst?.state ?? 'gone';
  }

  /** If our instance crashed, the error that says so (with the crash from logcat); otherwise null. */
  async crashed(api: string, state?: InstanceState): Promise<AppCrashedError | null> {
    if ((state ?? (await this.state(api))) !== 'crashed') return null;
    const lines = await this.logcat().catch(() => []);
    const fatal = lines.map((l) => l.includes('FATAL EXCEPTION')).lastIndexOf(true);
    const body = (l: string) => l.replace(/^\S+ \d+ \w \S+: /, '');
    const stack = fatal >= 0 ? lines.slice(fatal + 1).map(body).filter((l) => /^(\s|[\w.$]+(Exception|Error)\b|Caused by)/.test(l)) : [];
    const reason = stack.length > 0 ? stack.join('\n') : 'the process died (no FATAL EXCEPTION in its logcat)';
    const why = stack[0] ?? reason;
    return this.fatal(new AppCrashedError(api, `${this.who()} crashed: ${why}`, reason, lines));
  }

  /**
   * Observe the space. When another app or instance is in front, bring ours back first — unless
   * ours is still the foreground instance under a window of another package (a permission
   * prompt, a system dialog), which is part of our screen and must not be dismissed.
   */
  async observe(api: string, opts: { detail?: 'compact' | 'full'; maxNodes?: number } = {}): Promise<Observation> {
    const args = { space_id: this.spaceId, max_nodes: opts.maxNodes ?? 400, detail: opts.detail ?? 'compact' } as const;
    let obs = await this.call(api, 'ui_observe', args);
    if (!this.inFront(obs)) {
      const state = await this.state(api);
      const crash = await this.crashed(api, state);
      if (crash) throw crash;
      if (state === 'foreground' && obs.package !== null) return obs;
      await this.bringToFront(api);
      obs = await this.call(api, 'ui_observe', args);
    }
    return obs;
  }

  inFront(obs: Observation): boolean {
    if (obs.package !== this.pkg) return false;
    return this.instance === null || obs.instance === undefined || obs.instance === null || obs.instance === this.instance;
  }

  async bringToFront(api: string): Promise<void> {
    await this.call(api, 'space_launch', {
      space_id: this.spaceId,
      package: this.pkg,
      ...(this.instance ? { instance: this.instance } : {}),
    });
  }

  /**
   * A PNG of the space's screen, or null when the runtime cannot take one (NOT_SUPPORTED is
   * remembered: asked once per app). Costs one render and encode on the device: not per poll.
   */
  async screenshot(api: string, scale = 1): Promise<Buffer | null> {
    if (this.screenshotsSupported === false) return null;
    try {
      const shot = await this.raw('ui_screenshot', { space_id: this.spaceId, scale });
      this.screenshotsSupported = true;
      return Buffer.from(shot.data, 'base64');
    } catch (e) {
      if (e instanceof DeviceError && (e.code === 'NOT_SUPPORTED' || e.code === 'UNKNOWN_TOOL' || e.code === 'CHANNEL_UNAVAILABLE')) {
        this.screenshotsSupported = false;
        return null;
      }
      throw await this.translate(api, e);
    }
  }

  /** Take a screenshot for a step and attach it to the test; returns the attachment name. */
  private async stepScreenshot(record: TrajectoryStep, when: 'before' | 'after'): Promise<void> {
    if (!inTest()) return;
    const png = await this.screenshot(record.api).catch(() => null);
    if (!png) return;
    const name = `step-${record.index}-${when}.png`;
    await test.info().attach(name, { body: png, contentType: 'image/png' });
    record.screenshots[when] = name;
  }

  /**
   * Run one user-visible step: a `test.step` titled from the protocol's title template, and a
   * trajectory record with the snapshots (and, per `screenshot`, PNGs) before and after.
   */
  async step<T>(
    meta: Pick<TrajectoryStep, 'kind' | 'api' | 'title' | 'selector'> & { roundTripsFrom?: number },
    body: (record: TrajectoryStep) => Promise<T>,
  ): Promise<T> {
    const { roundTripsFrom, ...fields } = meta;
    const record = this.trajectory.begin({ ...fields, instance: this.instance });
    const trips = roundTripsFrom ?? this.roundTrips;
    const mode = this.options.screenshot ?? 'off';
    const run = async () => {
      try {
        const value = await body(record);
        record.roundTrips = this.roundTrips - trips;
        this.trajectory.end(record);
        if (mode === 'every-step') await this.stepScreenshot(record, 'after');
        return value;
      } catch (caught) {
        const scope = this.options.scope;
        // The test timed out during this step: say so, with the step and the last screen, rather
        // than whatever the device answers while the test is being torn down.
        const e = scope?.signal.aborted
          ? new TimeoutError(meta.api, `${scope.endReason()} This step was running: ${meta.title} (for ${Date.now() - record.startedAt}ms).\nScreen (last seen):\n${describeScreen(this.lastSeen)}`, [], this.lastSeen)
          : caught;
        record.roundTrips = this.roundTrips - trips;
        this.trajectory.end(record, e);
        if (mode !== 'off' && !(e instanceof DeviceDisconnectedError) && !scope?.signal.aborted) await this.stepScreenshot(record, 'after');
        throw e;
      }
    };
    return inTest() ? test.step(meta.title, run, { box: true }) : run();
  }
}

import { test } from '@playwright/test';
import type { DeviceClient } from '../device-runtime/client/index.js';
import { DeviceError } from '../device-runtime/client/index.js';
import type { Observation, ToolInput, ToolName, ToolResult } from '../device-runtime/protocol/index.js';
import { AppCrashedError, DeviceDisconnectedError, NestwrightError } from './errors.js';
import type { LocatorHealing } from './heal/healer.js';
import type { Trajectory, TrajectoryStep } from './trajectory.js';

export type ScreenshotMode = 'off' | 'only-on-failure' | 'every-step';

export interface DriverOptions {
  actionTimeout: number;
  expectTimeout: number;
  /** PNGs in the trajectory: none, the screen after a failed step, or after every step. */
  screenshot?: ScreenshotMode;
  /** Selector healing for this test (`use.heal`); absent: off. */
  heal?: LocatorHealing;
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

  async call<N extends ToolName>(api: string, name: N, input: ToolInput<N>): Promise<ToolResult<N>> {
    try {
      return await this.client.call(name, input);
    } catch (e) {
      throw await this.translate(api, e);
    }
  }

  /** APP_CRASHED and DEVICE_DISCONNECTED end the test at once, with what explains them. */
  async translate(api: string, e: unknown): Promise<unknown> {
    if (!(e instanceof DeviceError)) return e;
    if (e.code === 'DEVICE_DISCONNECTED') {
      return new DeviceDisconnectedError(api, `${e.message}\n  The device went away; nothing was retried. Check that the runtime is still running.`, { cause: e });
    }
    if (e.code === 'APP_CRASHED') return this.crashError(api, (e.details?.crash_reason as string) ?? e.message, e);
    return new NestwrightError(api, e.message, { cause: e });
  }

  async crashError(api: string, reason: string, cause?: unknown): Promise<AppCrashedError> {
    const logcat = await this.logcat().catch(() => []);
    return new AppCrashedError(api, `${this.who()} crashed: ${reason.split('\n')[0]}`, reason, logcat, { cause });
  }

  who(): string {
    return `${this.pkg}${this.instance ? `@${this.instance}` : ''}`;
  }

  /** The instance's logcat, formatted like `adb logcat -v threadtime` lines. */
  async logcat(maxLines = 200): Promise<string[]> {
    const { lines } = await this.client.call('sys_logcat', {
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
    return new AppCrashedError(api, `${this.who()} crashed: ${why}`, reason, lines);
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
      const shot = await this.client.call('ui_screenshot', { space_id: this.spaceId, scale });
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
    meta: Pick<TrajectoryStep, 'kind' | 'api' | 'title' | 'selector'>,
    body: (record: TrajectoryStep) => Promise<T>,
  ): Promise<T> {
    const record = this.trajectory.begin({ ...meta, instance: this.instance });
    const mode = this.options.screenshot ?? 'off';
    const run = async () => {
      try {
        const value = await body(record);
        this.trajectory.end(record);
        if (mode === 'every-step') await this.stepScreenshot(record, 'after');
        return value;
      } catch (e) {
        this.trajectory.end(record, e);
        if (mode !== 'off' && !(e instanceof DeviceDisconnectedError)) await this.stepScreenshot(record, 'after');
        throw e;
      }
    };
    return inTest() ? test.step(meta.title, run, { box: true }) : run();
  }
}

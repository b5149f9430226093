import { test } from '@playwright/test';
import type { DeviceClient } from '../device-runtime/client/index.js';
import { DeviceError } from '../device-runtime/client/index.js';
import type { Observation, ToolInput, ToolName, ToolResult } from '../device-runtime/protocol/index.js';
import { AppCrashedError, DeviceDisconnectedError, NestwrightError } from './errors.js';
import type { Trajectory, TrajectoryStep } from './trajectory.js';

export interface DriverOptions {
  actionTimeout: number;
  expectTimeout: number;
}

/**
 * What an app object and its locators share: the connection, the instance they act on, and the
 * test's trajectory. It keeps the instance in front before every action (so several instances in
 * one space take turns on its screen) and turns device errors into nestwright errors.
 */
export class AppDriver {
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
    if (e.code === 'DEVICE_DISCONNECTED') return new DeviceDisconnectedError(api, e.message, { cause: e });
    if (e.code === 'APP_CRASHED') return this.crashError(api, (e.details?.crash_reason as string) ?? e.message, e);
    return new NestwrightError(api, e.message, { cause: e });
  }

  async crashError(api: string, reason: string, cause?: unknown): Promise<AppCrashedError> {
    const logcat = await this.logcat().catch(() => []);
    return new AppCrashedError(api, `${this.pkg}${this.instance ? `@${this.instance}` : ''} crashed: ${reason.split('\n')[0]}`, reason, logcat, { cause });
  }

  async logcat(): Promise<string[]> {
    const { lines } = await this.client.call('sys_logcat', {
      space_id: this.spaceId,
      package: this.pkg,
      ...(this.instance ? { instance: this.instance } : {}),
      max_lines: 200,
    });
    return lines.map((l) => `${new Date(l.ts).toISOString()} ${l.pid} ${l.level} ${l.tag}: ${l.message}`);
  }

  /** If our instance crashed, the error that says so; otherwise null. */
  async crashed(api: string): Promise<AppCrashedError | null> {
    const { apps } = await this.call(api, 'space_list_apps', { space_id: this.spaceId });
    const inst = apps.find((a) => a.package === this.pkg)?.instances.find((i) => i.instance === (this.instance ?? '0'));
    if (inst?.state !== 'crashed') return null;
    const lines = await this.logcat().catch(() => []);
    const fatal = lines.findIndex((l) => l.includes('FATAL EXCEPTION'));
    const reason = fatal >= 0 ? lines.slice(fatal).join('\n') : 'the process died';
    return new AppCrashedError(api, `${this.pkg}@${inst.instance} crashed`, reason, lines);
  }

  /** Observe the space, first bringing our instance to the front if another one is there. */
  async observe(api: string, opts: { detail?: 'compact' | 'full'; maxNodes?: number } = {}): Promise<Observation> {
    let obs = await this.call(api, 'ui_observe', { space_id: this.spaceId, max_nodes: opts.maxNodes ?? 400, detail: opts.detail ?? 'compact' });
    if (!this.inFront(obs)) {
      const crash = await this.crashed(api);
      if (crash) throw crash;
      if (obs.package !== null || this.instance !== null) {
        await this.bringToFront(api);
        obs = await this.call(api, 'ui_observe', { space_id: this.spaceId, max_nodes: opts.maxNodes ?? 400, detail: opts.detail ?? 'compact' });
      }
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
   * Run one user-visible step: a `test.step` titled from the protocol's title template, and a
   * trajectory record with the snapshots before and after.
   */
  async step<T>(
    meta: Pick<TrajectoryStep, 'kind' | 'api' | 'title' | 'selector'>,
    body: (record: TrajectoryStep) => Promise<T>,
  ): Promise<T> {
    const record = this.trajectory.begin({ ...meta, instance: this.instance });
    const run = async () => {
      try {
        const value = await body(record);
        this.trajectory.end(record);
        return value;
      } catch (e) {
        this.trajectory.end(record, e);
        throw e;
      }
    };
    let inTest = true;
    try {
      test.info();
    } catch {
      inTest = false;
    }
    return inTest ? test.step(meta.title, run, { box: true }) : run();
  }
}

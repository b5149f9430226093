import { test } from '@playwright/test';
import type { ApiCall } from './api-call.js';
import { inTest } from './in-test.js';
import type { DeviceCalls, TestScope } from './device-calls.js';
import { describeScreen, DeviceDisconnectedError, formatCallLog, TimeoutError } from './errors.js';
import type { Screenshots } from './screenshots.js';
import type { Trajectory, TrajectoryStep } from './trajectory.js';

export type ScreenshotMode = 'off' | 'only-on-failure' | 'every-step';

/**
 * Records an app instance's user-visible steps: each one a `test.step` (titled from the
 * protocol's title template) and a trajectory record with the snapshots before and after, the
 * round trips it took, what failed, and — per the `screenshot` option — PNGs.
 */
export class StepRecorder {
  constructor(
    private readonly trajectory: Trajectory,
    private readonly calls: DeviceCalls,
    private readonly screenshots: Screenshots,
    private readonly instance: string | null,
    private readonly mode: ScreenshotMode,
    private readonly scope: TestScope | undefined,
  ) {}

  /**
   * Run one step of `call` (its record names `call.api`; `call.step` is the record while it
   * runs). `roundTripsFrom` counts round trips made before the step opened (an action resolved
   * before its title was known) as the step's.
   */
  async step<T>(
    call: ApiCall,
    meta: Pick<TrajectoryStep, 'kind' | 'title' | 'selector'> & { roundTripsFrom?: number },
    body: (record: TrajectoryStep) => Promise<T>,
  ): Promise<T> {
    const { roundTripsFrom, ...fields } = meta;
    const record = this.trajectory.begin({ ...fields, api: call.api, instance: this.instance });
    const calls = this.calls;
    const trips = roundTripsFrom ?? calls.roundTrips;
    const run = async () => {
      const outer = call.step;
      call.step = record;
      try {
        const value = await body(record);
        record.roundTrips = calls.roundTrips - trips;
        this.trajectory.end(record);
        if (this.mode === 'every-step') await this.attachScreenshot(call, record, 'after');
        return value;
      } catch (caught) {
        const scope = this.scope;
        // The test timed out during this step: say so, with the step and the last screen, rather
        // than whatever the device answers while the test is being torn down.
        const e = scope?.signal.aborted
          ? new TimeoutError(
              call,
              `${scope.endReason()} This step was running: ${meta.title} (for ${Date.now() - record.startedAt}ms).\n${call.log.length ? `Call log:\n${formatCallLog(call.log)}\n` : ''}Screen (last seen):\n${describeScreen(calls.lastSeen)}`,
              [...call.log],
              calls.lastSeen,
            )
          : caught;
        record.roundTrips = calls.roundTrips - trips;
        this.trajectory.end(record, e);
        if (this.mode !== 'off' && !(e instanceof DeviceDisconnectedError) && !scope?.signal.aborted)
          await this.attachScreenshot(call, record, 'after');
        throw e;
      } finally {
        call.step = outer;
      }
    };
    const work = inTest() ? test.step(meta.title, run, { box: true }) : run();
    return this.scope ? this.scope.track(work) : work;
  }

  /** Take a screenshot for a step and attach it to the test under `step-<index>-<when>.png`. */
  private async attachScreenshot(call: ApiCall, record: TrajectoryStep, when: 'before' | 'after'): Promise<void> {
    if (!inTest()) return;
    const png = await this.screenshots.take(call).catch(() => null);
    if (!png) return;
    const name = `step-${record.index}-${when}.png`;
    await test.info().attach(name, { body: png, contentType: 'image/png' });
    record.screenshots[when] = name;
  }
}

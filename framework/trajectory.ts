import type { NetworkRecord } from './network/record.js';
import type { TrajectoryDoc, TrajectoryFailure, TrajectoryMeta, TrajectoryStep } from './trajectory-schema.js';

export { TRAJECTORY_ATTACHMENT, type HealArbitration, type TrajectoryStep } from './trajectory-schema.js';

/** Collects a test's steps; the fixture attaches them as JSON when the test ends. */
export class Trajectory {
  readonly steps: TrajectoryStep[] = [];
  /** Where the test ran (device, space, instance, package, options), for reports. */
  meta: TrajectoryMeta | undefined;
  /** Names of the attachments written when the test failed. */
  failure: TrajectoryFailure | undefined;
  /** When the test began (ms since the epoch, as steps' `startedAt`): timelines count from it. */
  readonly startedAt = Date.now();
  /** Every request the test's instances made through their proxies (framework/network/). */
  readonly network: NetworkRecord[] = [];
  /** What the steps begun now come from: a skill replay sets 'skill' while it runs. */
  source: TrajectoryStep['source'] = 'locator';

  /** The `nestwright-trajectory` attachment body (version 1). */
  toJSON(): TrajectoryDoc {
    return {
      version: 1,
      steps: this.steps,
      ...(this.meta ? { meta: this.meta } : {}),
      ...(this.failure ? { failure: this.failure } : {}),
      ...(this.network.length ? { network: this.network } : {}),
    };
  }

  begin(
    partial: Pick<TrajectoryStep, 'kind' | 'api' | 'title' | 'selector' | 'instance'> & {
      source?: TrajectoryStep['source'];
    },
  ): TrajectoryStep {
    const step: TrajectoryStep = {
      index: this.steps.length,
      node: null,
      before: null,
      after: null,
      screenshots: {},
      startedAt: Date.now(),
      durationMs: 0,
      result: 'ok',
      error: null,
      source: this.source,
      ...partial,
    };
    this.steps.push(step);
    return step;
  }

  end(step: TrajectoryStep, error?: unknown): void {
    step.durationMs = Date.now() - step.startedAt;
    if (error) {
      step.result = 'failed';
      step.error = {
        code: (error as { code?: string }).code,
        message: String((error as Error).message ?? error).split('\n')[0]!,
      };
    }
  }
}

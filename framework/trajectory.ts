import type { UiNode } from '../device-runtime/protocol/index.js';
import type { AiStepRecord } from './ai/record.js';

/** One recorded step of a test: what was done, to what, what the screen was before and after. */
export interface TrajectoryStep {
  index: number;
  kind: 'action' | 'assertion' | 'app';
  api: string;
  title: string;
  selector: string | null;
  node: UiNode | null;
  before: string | null;
  after: string | null;
  screenshots: { before?: string; after?: string };
  startedAt: number;
  durationMs: number;
  result: 'ok' | 'failed';
  error: { code?: string; message: string } | null;
  source: 'locator' | 'ai' | 'skill' | 'healed';
  instance: string | null;
  /** Tool calls the step made (one per look, action and check; one in all on the `selector_actions` path). */
  roundTrips?: number;
  /** Set when the step ran on a healed locator (`source: 'healed'`): from what, to what, how sure. */
  heal?: { from: string; to: string; score: number; margin: number; proposal: string; by?: 'score' | 'model'; arbitration?: HealArbitration };
  /** AI steps (source 'ai'): instruction, tool calls, verdict and evidence, usage, cost, cache. */
  ai?: AiStepRecord;
}

/** When a model arbitrated a heal: which model, what it was offered, what it chose, at what cost. */
export interface HealArbitration {
  model: string;
  offered: string[];
  choice: string;
  reason: string;
  tokens: number;
  costUsd: number;
  latencyMs: number;
}

/**
 * The name of the attachment that holds a test's trajectory (JSON, every step), as reports and
 * `nestwright/reporters/allure` look it up.
 *
 * @example
 * ```ts
 * import { test, TRAJECTORY_ATTACHMENT } from 'nestwright';
 *
 * test.afterEach(async ({}, testInfo) => {
 *   const trajectory = testInfo.attachments.find((a) => a.name === TRAJECTORY_ATTACHMENT);
 *   console.log(trajectory?.path);
 * });
 * ```
 */
export const TRAJECTORY_ATTACHMENT = 'nestwright-trajectory';

/** Collects a test's steps; the fixture attaches them as JSON when the test ends. */
export class Trajectory {
  readonly steps: TrajectoryStep[] = [];
  /** Where the test ran (device, space, instance, package, options), for reports. */
  meta: Record<string, unknown> | undefined;
  /** Names of the attachments written when the test failed. */
  failure: { logcat?: string; tree?: string } | undefined;
  /** What the steps begun now come from: a skill replay sets 'skill' while it runs. */
  source: TrajectoryStep['source'] = 'locator';

  /** The `nestwright-trajectory` attachment body (version 1). */
  toJSON(): { version: 1; steps: TrajectoryStep[]; meta?: Record<string, unknown>; failure?: { logcat?: string; tree?: string } } {
    return { version: 1, steps: this.steps, ...(this.meta ? { meta: this.meta } : {}), ...(this.failure ? { failure: this.failure } : {}) };
  }

  begin(partial: Pick<TrajectoryStep, 'kind' | 'api' | 'title' | 'selector' | 'instance'> & { source?: TrajectoryStep['source'] }): TrajectoryStep {
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
      step.error = { code: (error as { code?: string }).code, message: String((error as Error).message ?? error).split('\n')[0]! };
    }
  }
}

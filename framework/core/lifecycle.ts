import type { InstancePort } from './port.js';
import type { TrajectoryFailure, TrajectoryStep } from './trajectory-schema.js';

/**
 * The instance lifecycle: what a feature that lives as long as an instance (video, device logs,
 * the network, the world, failure artifacts) is told, in one loop that `Space`, `App` and the
 * fixtures run. A feature implements the hooks it needs; every hook is optional, and one that is
 * absent costs nothing. The feature never reaches the fixtures, `Space` or `App`: it gets the
 * instance as the feature port ({@link InstancePort}) and the test's end as a {@link TestEnd}.
 *
 * The order for one test:
 * 1. `launched(instance)` for every instance the test starts (the `app` fixture's,
 *    `space.launch()`, `app.newInstance()`), after it started and before the test acts on it.
 *    A hook that throws fails the launch; the instance is stopped.
 * 2. `beforeObserve(instance)` before each observation an action or assertion makes of the
 *    instance. For features that must act before the screen is read (few: it is the hot path).
 * 3. `ended(end)` once, when the test's body and its fixtures are done, with every instance still
 *    running: keep or drop what was recorded, attach files. A hook that throws fails the test
 *    (its error joins the test's); the other features' `ended` still run.
 * 4. `closing(instance)` for each instance, just before it is stopped and wiped (at the test's
 *    end, or earlier by `app.close()`).
 *
 * A feature is made per test from its option (`use.video`, …) by its fixture
 * (framework/runner/features.ts registers them); a test that does not use it gets none.
 *
 * Not public API: features implement it; users see options.
 */
export interface InstanceFeature {
  /** The feature's name, for errors (`video`, `deviceLogs`, `network`). */
  readonly name: string;
  launched?(instance: InstancePort): Promise<void> | void;
  beforeObserve?(instance: InstancePort): Promise<void> | void;
  ended?(end: TestEnd): Promise<void> | void;
  closing?(instance: InstancePort): Promise<void> | void;
}

/** How a test ended, as Playwright's `TestInfo` says it. */
export interface TestOutcome {
  status: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  expectedStatus: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  /** Whether the test ended other than expected: what `retain-on-failure` keeps for. */
  failed: boolean;
  /** 0 on the first run, 1 on the first retry… (`on-first-retry` records when it is 1). */
  retry: number;
}

/** A file a feature attaches to the test (Playwright's `testInfo.attach`): the HTML report and Allure show it. */
export interface FeatureAttachment {
  /** The attachment's name: one name per kind of file across the report, the trajectory, Allure and the MCP server. */
  name: string;
  contentType: string;
  body?: Buffer | string;
  /** A file to copy in (Playwright copies it into the test's output). */
  path?: string;
}

/** What a feature's `ended` gets: the outcome, the instances the test used, and where its files go. */
export interface TestEnd {
  readonly outcome: TestOutcome;
  /** Every instance the test launched, oldest first, each still running. */
  readonly instances: readonly InstancePort[];
  /** Attach a file to the test. */
  attach(attachment: FeatureAttachment): Promise<void>;
  /**
   * Name an attachment in the trajectory's `failure` section, so reports and the MCP server's
   * failure reader find it under one name: `har`/`tree` hold one name, `video`/`logs`/`crashes`
   * one per instance (added to).
   */
  failureArtifact(key: keyof TrajectoryFailure, name: string): void;
  /** A path in the test's output folder (Playwright's `testInfo.outputPath`) for files made before they are attached. */
  outputPath(...segments: string[]): string;
  /** When the test began, ms since the epoch (as the trajectory's steps' `startedAt`), for timelines. */
  readonly startedAt: number;
  /** The test's annotations (Playwright's `testInfo.annotations`): a feature adds its notes to the report here. */
  readonly annotations: Array<{ type: string; description?: string }>;
  /** The test's steps so far, for timelines (a video's step titles). */
  readonly steps: readonly TrajectoryStep[];
}

/** What a feature's fixture registers with: the running test's lifecycle (the core's `TestContext` is one). */
export interface FeatureHost {
  readonly lifecycle: Lifecycle;
}

/**
 * The features of the running test, called in order. Each hook runs for every feature even when
 * an earlier one threw; the first error is thrown once all have run.
 *
 * Not public API. The core's: `Space`, `App`, the driver and the fixtures call it.
 */
export class Lifecycle {
  private readonly features: InstanceFeature[] = [];

  /** Add a feature for this test (its fixture does, from its option). */
  add(feature: InstanceFeature): void {
    this.features.push(feature);
  }

  /** Whether any feature wants to run before observations (checked on the hot path). */
  get observes(): boolean {
    return this.features.some((f) => f.beforeObserve);
  }

  launched(instance: InstancePort): Promise<void> {
    return this.each((f) => f.launched?.(instance));
  }

  beforeObserve(instance: InstancePort): Promise<void> {
    return this.each((f) => f.beforeObserve?.(instance));
  }

  ended(end: TestEnd): Promise<void> {
    return this.each((f) => f.ended?.(end));
  }

  closing(instance: InstancePort): Promise<void> {
    return this.each((f) => f.closing?.(instance));
  }

  private async each(hook: (f: InstanceFeature) => Promise<void> | void): Promise<void> {
    let first: unknown = null;
    for (const f of this.features) {
      try {
        await hook(f);
      } catch (e) {
        first ??= e;
      }
    }
    if (first !== null) throw first;
  }
}

import type {
  Clock,
  Key,
  Observation,
  ToolInput,
  ToolName,
  ToolResult,
  UiNode,
} from '../device-runtime/protocol/index.js';
import type { ScriptRoute } from '../device-runtime/protocol/skill/index.js';
import type { ApiCall, CallWrapper } from './core/api-call.js';
import type { AppCrashedError } from './errors.js';
import type { Step } from './selector.js';
import type { NetworkRecord } from './network/record.js';
import type { TrajectoryStep } from './trajectory.js';

/**
 * The port: what the features above the core (AI steps, healing, skills — and the next ones:
 * visual comparisons, network, world) may use of one app instance. They depend on these
 * interfaces only, never on `App`, `Locator` or the driver, so the core can change behind them
 * and no import goes back from the core to a feature. The core implements them (`AppDriver` is
 * an {@link InstancePort}; `App` hands a feature an {@link AppPort}) and attaches the features:
 * `app.ai`, `app.runSkill()`, `use.heal` (ARCHITECTURE.md draws it).
 *
 * Every member that reaches the device takes the {@link ApiCall} of the public method it serves
 * (made once by that method with `port.wrap(api, opts, body)`): its name prefixes the errors,
 * its deadline, log and signal bound the waits, its step is the record being written.
 *
 * Nothing here is public API: users see `App` and `Locator`.
 */

/** Where an instance is, as `space_list_apps` reports it. */
export type InstanceState = 'stopped' | 'background' | 'foreground' | 'crashed' | 'gone';

/** What a step is, before it runs: a `test.step` title and the trajectory record's fields. */
export type StepMeta = Pick<TrajectoryStep, 'kind' | 'title' | 'selector'>;

/** The test's trajectory as a feature sees it: the records so far, and the source of the ones begun now. */
export interface StepLog {
  readonly steps: readonly TrajectoryStep[];
  source: TrajectoryStep['source'];
  /** The test's requests, as the network feature records them. */
  readonly network: NetworkRecord[];
}

/**
 * One app instance on the device: observe it, look at it, record a step, take a screenshot,
 * and the timeouts and clock every wait runs on. `wrap` starts a public method's call; the
 * members below take it. Costs: one tool call per observe or screenshot (more when the instance
 * must be brought back to the front); the rest are local.
 */
export interface InstancePort extends CallWrapper {
  /** The package, e.g. `com.nestwright.notes`. */
  readonly pkg: string;
  /** The instance id, or null on a runtime without instances. */
  readonly instance: string | null;
  /** The space the instance runs in. */
  readonly spaceId: string;
  /** A device tool call named `api`, on the one path every call takes (errors translated by code). One tool call. */
  call<N extends ToolName>(call: ApiCall, tool: N, input: ToolInput<N>): Promise<ToolResult<N>>;
  /** Whether the runtime offers protocol extension `name` (runtime_info, asked once per connection). */
  offers(name: string): Promise<boolean>;
  /** `com.example.app@2`, for messages. */
  who(): string;
  /** The screen with this instance in front (brought back first when another app is), crashes raised. */
  observe(call: ApiCall, opts?: { detail?: 'compact' | 'full'; maxNodes?: number }): Promise<Observation>;
  /** The screen as it is now, whoever is in front (one `ui_observe`). */
  observeAsIs(call: ApiCall): Promise<Observation>;
  /** Whether an observation shows this instance. */
  inFront(obs: Observation): boolean;
  /** This instance's state (one `space_list_apps`). */
  state(call: ApiCall): Promise<InstanceState>;
  /**
   * The instance's own log lines (`time pid level tag: message`), the last `maxLines` (200) since
   * `sinceMs` (ms since the epoch); `afterTest`: read in clean-up, after a timed-out test's signal
   * stopped its calls. One `sys_logcat`.
   */
  logcat(call: ApiCall, opts?: { maxLines?: number; sinceMs?: number; afterTest?: boolean }): Promise<string[]>;
  /** The error that says this instance crashed (with its logcat), or null when it did not. */
  crashed(call: ApiCall, state?: InstanceState): Promise<AppCrashedError | null>;
  /** A PNG of the screen, or null when the runtime cannot take one. A render on the device: not per poll. */
  screenshot(call: ApiCall, scale?: number): Promise<Buffer | null>;
  /** Run `body` as one user-visible step of `call`: a `test.step` and a trajectory record (screenshots per `use.screenshot`). */
  step<T>(call: ApiCall, meta: StepMeta, body: (record: TrajectoryStep) => Promise<T>): Promise<T>;
  /** The test's trajectory: the records the steps made. */
  readonly trajectory: StepLog;
  /** The test's defaults, ms, as configured (not yet scaled to the device). */
  readonly options: { readonly actionTimeout: number; readonly expectTimeout: number };
  /** A timeout in ms: `given` or the default of its kind, scaled to the device's timing. */
  timeout(given: number | undefined, kind?: 'action' | 'expect'): number;
  /** A timeout as messages show it (`5000ms`, or with the device's scale). */
  describeTimeout(ms: number): string;
  /** The clock waits run on: a sleep ends at once when the test times out. */
  readonly clock: Clock;
  /** Hold the instance's next public calls (their `wrap`) until `work` settles: set-up a spec's next action must not overtake. Local. */
  hold(work: Promise<unknown>): void;
}

/** A locator as a feature acts through it: the same actions, waiting and verification a spec gets. */
export interface PortLocator {
  readonly steps: Step[];
  toString(): string;
  tap(opts?: { timeout?: number }): Promise<void>;
  longPress(opts?: { duration?: number; timeout?: number }): Promise<void>;
  fill(value: string, opts?: { timeout?: number; secret?: boolean }): Promise<void>;
  clear(opts?: { timeout?: number }): Promise<void>;
  swipe(
    direction: 'up' | 'down' | 'left' | 'right',
    opts?: { distance?: number; duration?: number; timeout?: number },
  ): Promise<void>;
  scrollIntoView(opts?: { timeout?: number }): Promise<void>;
  /** Wait (within `call`'s deadline, or `timeout` ms) until exactly one node matches and is actionable; the node and its snapshot. */
  waitForActionable(
    call: ApiCall,
    opts?: { timeout?: number; enabled?: boolean },
  ): Promise<{ node: UiNode; obs: Observation }>;
}

/** One function the app declares, as a feature choosing between it and the UI sees it. */
export interface PortFunction {
  name: string;
  description: string;
  /** JSON Schema of the parameters. */
  parameters: Record<string, unknown>;
  dangerous: boolean;
}

/** The app's functions (AppFunctions) as skills and AI steps use them (`app.functions`). */
export interface PortFunctions {
  /** The app's functions, asked once per instance; null when the runtime offers none. One `appfn_list` the first time. */
  available(call: ApiCall): Promise<PortFunction[] | null>;
  /** Call function `name` as a step of `call` (source `function`); its result. One `appfn_execute`. */
  run(call: ApiCall, name: string, params: Record<string, unknown>): Promise<unknown>;
}

/** What an app-level feature (AI steps, skills) gets: the instance, and the app's own actions. */
export interface AppPort extends InstancePort {
  /** The app's declared functions (`app.functions`). */
  readonly functions: PortFunctions;
  /** The package (as `app.package`). */
  readonly package: string;
  /** A locator from a selector string (`app.locator()`). */
  locator(selector: string): PortLocator;
  /** `app.press()`. */
  press(key: Key): Promise<void>;
  /** `app.launch()`. */
  launch(opts?: { activity?: string }): Promise<void>;
  /** `app.stop()`. */
  stop(): Promise<void>;
  /** `app.intent()`. */
  intent(opts: { data?: string; action?: string }): Promise<void>;
  /** The instance's network proxy a script's `http` goes through (`app.route()` and the HAR see it); null when none runs. Local (waits for a proxy still starting). */
  scriptNetwork(): Promise<ScriptRoute | null>;
}

/** What a locator is to healing: its steps, how it reads, and the instance it acts on. */
export interface HealableLocator {
  readonly driver: InstancePort;
  readonly steps: Step[];
  toString(): string;
}

/** A node healing found for an action, to act on in that snapshot; `verify` is the post-action check. */
export interface HealedTarget {
  node: UiNode;
  obs: Observation;
  verify(after: { obs: Observation; effect: boolean }): Promise<void>;
}

/**
 * The two places the locator engine calls healing (the feature implements it, the core calls
 * it): `resolved` on every successful resolution (it keeps a reference; fingerprints are
 * computed after the test), and `missed` when an action's locator matched nothing (or several)
 * and would fail — it returns the healed target, or throws the action's error with the heal's
 * verdict added.
 */
export interface LocatorHealing {
  /** `call`: the call whose locator resolved. */
  resolved(call: ApiCall, locator: HealableLocator, node: UiNode, obs: Observation): void;
  /** `call.step`: the action's record (a heal marks it); `call.at`: its call site, captured before its first await. */
  missed(m: { call: ApiCall; locator: HealableLocator; error: unknown }): Promise<HealedTarget>;
}

import type { Clock, Key, Observation, ToolInput, ToolName, ToolResult } from '../device-runtime/protocol/index.js';
import type { ScriptRoute } from '../device-runtime/protocol/skill/index.js';
import type { ApiCall, CallOptions } from './core/api-call.js';
import type { AppDriver } from './driver.js';
import type { AppCrashedError } from './errors.js';
import type { AppPort, InstanceState, PortFunctions, PortLocator, StepLog, StepMeta } from './port.js';
import type { TrajectoryStep } from './trajectory.js';

/** The app's own actions a feature acts through (App's public methods of the same names). */
export interface AppActions {
  locator(selector: string): PortLocator;
  press(key: Key): Promise<void>;
  launch(opts?: { activity?: string }): Promise<void>;
  readonly functions: PortFunctions;
  stop(): Promise<void>;
  intent(opts: { data?: string; action?: string }): Promise<void>;
  scriptNetwork(): Promise<ScriptRoute | null>;
}

/**
 * The {@link AppPort} of one app: the driver's instance port and the app's actions, handed to
 * the features the app attaches (`app.ai`, `app.runSkill()`, `expect(app).toPassSkill()`).
 * Delegation only: a feature gets these members and nothing else of the driver.
 */
export class AppPortOf implements AppPort {
  constructor(
    private readonly d: AppDriver,
    private readonly app: AppActions,
  ) {}

  get pkg(): string {
    return this.d.pkg;
  }
  get package(): string {
    return this.d.pkg;
  }
  get instance(): string | null {
    return this.d.instance;
  }
  get spaceId(): string {
    return this.d.spaceId;
  }
  call<N extends ToolName>(call: ApiCall, tool: N, input: ToolInput<N>): Promise<ToolResult<N>> {
    return this.d.call(call, tool, input);
  }
  offers(name: string): Promise<boolean> {
    return this.d.offers(name);
  }
  get trajectory(): StepLog {
    return this.d.trajectory;
  }
  get options(): { readonly actionTimeout: number; readonly expectTimeout: number } {
    return this.d.options;
  }
  get clock(): Clock {
    return this.d.clock;
  }
  who(): string {
    return this.d.who();
  }
  observe(call: ApiCall, opts?: { detail?: 'compact' | 'full'; maxNodes?: number }): Promise<Observation> {
    return this.d.observe(call, opts);
  }
  logcat(call: ApiCall, opts?: { maxLines?: number; sinceMs?: number; afterTest?: boolean }): Promise<string[]> {
    return this.d.logcat(call, opts);
  }

  observeAsIs(call: ApiCall): Promise<Observation> {
    return this.d.observeAsIs(call);
  }
  inFront(obs: Observation): boolean {
    return this.d.inFront(obs);
  }
  state(call: ApiCall): Promise<InstanceState> {
    return this.d.state(call);
  }
  crashed(call: ApiCall, state?: InstanceState): Promise<AppCrashedError | null> {
    return this.d.crashed(call, state);
  }
  screenshot(call: ApiCall, scale?: number): Promise<Buffer | null> {
    return this.d.screenshot(call, scale);
  }
  step<T>(call: ApiCall, meta: StepMeta, body: (record: TrajectoryStep) => Promise<T>): Promise<T> {
    return this.d.step(call, meta, body);
  }
  wrap<T>(api: string, opts: CallOptions, body: (call: ApiCall) => Promise<T>): Promise<T> {
    return this.d.wrap(api, opts, body);
  }
  hold(work: Promise<unknown>): void {
    this.d.hold(work);
  }
  timeout(given: number | undefined, kind?: 'action' | 'expect'): number {
    return this.d.timeout(given, kind);
  }
  describeTimeout(ms: number): string {
    return this.d.describeTimeout(ms);
  }
  get functions(): PortFunctions {
    return this.app.functions;
  }
  locator(selector: string): PortLocator {
    return this.app.locator(selector);
  }
  press(key: Key): Promise<void> {
    return this.app.press(key);
  }
  launch(opts?: { activity?: string }): Promise<void> {
    return this.app.launch(opts);
  }
  stop(): Promise<void> {
    return this.app.stop();
  }
  intent(opts: { data?: string; action?: string }): Promise<void> {
    return this.app.intent(opts);
  }
  scriptNetwork(): Promise<ScriptRoute | null> {
    return this.app.scriptNetwork();
  }
}

import { toolError, type InstanceInfo, type LogLine } from '../../protocol/index.js';
import { SimError } from './sim-error.js';
import type { ActivityContext, AppModel } from '../apps/define-app.js';
import { defaultEnv, type SimEnv } from '../faults/env.js';
import type { View } from '../apps/view.js';
import { bindContext, type ActivityRecord, type ContextHost } from './activity-context.js';
import { tickWorld } from '../world/app-world.js';
import { SimWorld } from '../world/sim-world.js';
import { SimNet } from '../net/net-state.js';
import {
  appHttp,
  type AppRequest,
  type AppResponse,
  type RawAppRequest,
  type RawAppResponse,
} from '../net/http-client.js';

/** The space an instance runs in (SimSpace implements it). */
export interface InstanceHost extends ContextHost {
  /** The instance's process died; free its slot. */
  crashed(inst: SimInstance): void;
  log(line: Omit<LogLine, 'ts' | 'pid' | 'package' | 'instance'>, from: SimInstance): void;
  /** The space's display: where the clock and fault profile come from. */
  readonly screen?: { readonly env: SimEnv };
  /** The space's instances: background ones keep running their work (network, timers). */
  readonly instances?: ReadonlyMap<string, SimInstance>;
}

interface Timer {
  due: number;
  fn: () => void;
  record: ActivityRecord;
}

let recordSeq = 0;

/**
 * One copy of an app in a space (docs/protocol.md#instances): its own data root (`data`, persisted per instance) and,
 * while running, a back stack of activities and the background work they started.
 */
export class SimInstance {
  data: unknown;
  stack: ActivityRecord[] = [];
  status: InstanceInfo['state'] = 'stopped';
  slot: number | null = null;
  pid = 0;
  crashReason: string | null = null;
  /** Runtime permissions granted to this instance (wiped with its data). */
  granted = new Set<string>();
  /** Times the user denied each permission: after two, Android stops asking (API 30+). */
  denials = new Map<string, number>();
  timers: Timer[] = [];
  /** HTTP requests in flight, for the activity that made them (foreground ones keep the UI busy). */
  requests = new Set<{ record: ActivityRecord; background: boolean }>();
  /** What the world tools set on this instance, and what its app posted (docs/app-world.md): reset with its data. */
  world: SimWorld;
  /** What the net_* tools set on this instance: proxy, extra CA, offline (sim/net/): reset with its data. */
  net = new SimNet();

  constructor(
    readonly model: AppModel<any>,
    readonly id: string,
    readonly host: InstanceHost,
    data?: unknown,
  ) {
    this.data = data ?? model.initialData();
    this.world = new SimWorld(() => this.now());
  }

  /**
   * Reads of the clock by this instance's app code (its context's and its world's `now`): a
   * render that read it depends on the time, so the screen does not keep its frame.
   */
  clockReads = 0;

  /** The clock, as app code reads it (counted in {@link clockReads}). */
  now(): number {
    this.clockReads++;
    return this.env.clock.now();
  }

  get env(): SimEnv {
    return this.host.screen?.env ?? (fallbackEnv ??= defaultEnv());
  }

  get key(): string {
    return `${this.model.package}@${this.id}`;
  }

  get top(): ActivityRecord | null {
    return this.stack[this.stack.length - 1] ?? null;
  }

  /** Start the process (if needed) and bring `activity` (or the launcher) up. */
  start(activity: string | undefined, pid: number, extras: Record<string, unknown> = {}): { cold: boolean } {
    const cold = this.stack.length === 0;
    this.pid = pid;
    if (cold || activity) this.push(activity ?? this.model.launcher, extras);
    return { cold };
  }

  stop(): void {
    this.stack = [];
    this.timers = [];
    this.requests.clear();
    this.status = 'stopped';
    this.slot = null;
  }

  /**
   * The app crashed: its process (slot) dies, the back stack is gone, data stays. The next
   * launch reports restarted_after_crash with this reason (docs/protocol.md#processes).
   */
  crash(reason: string): void {
    this.log({ level: 'E', tag: 'AndroidRuntime', message: `FATAL EXCEPTION: main\n${reason}` });
    this.stack = [];
    this.timers = [];
    this.requests.clear();
    this.status = 'crashed';
    this.crashReason = reason;
    this.host.crashed(this);
  }

  /** A logcat line from this instance's process. */
  log(line: Omit<LogLine, 'ts' | 'pid' | 'package' | 'instance'>): void {
    this.host.log(line, this);
  }

  clearData(): void {
    this.data = this.model.initialData();
    this.granted.clear();
    this.denials.clear();
    this.world = new SimWorld(() => this.now());
    this.net = new SimNet();
  }

  push(name: string, extras: Record<string, unknown>): void {
    const activity = this.model.activities[name];
    if (!activity) {
      // The caller named an activity the app does not have (a typo in app.launch): a bad argument, not a runtime fault.
      throw new SimError(
        toolError(
          'INVALID_ARGUMENT',
          `${this.model.package} has no activity ${name}; it has ${Object.keys(this.model.activities).join(', ')}`,
        ),
      );
    }
    const record: ActivityRecord = {
      name,
      extras,
      seq: ++recordSeq,
      scroll: new Map(),
      focus: null,
      dialog: null,
      snackbar: null,
      anims: new Map(),
      memo: new Map(),
      renders: 0,
      state: undefined,
    };
    this.stack.push(record);
    record.state = activity.initialState(extras, this.data);
    this.host.invalidate();
  }

  /** Offer back to the top activity's own handler first; true when it consumed it. */
  handleBack(): boolean {
    const record = this.top;
    const onBack = record ? this.model.activities[record.name]?.onBack : undefined;
    if (!record || !onBack) return false;
    let handled = false;
    this.runApp(() => (handled = onBack(this.context(record))));
    this.host.invalidate();
    return handled;
  }

  /** Back: finish the top activity. Returns false when the stack became empty. */
  back(): boolean {
    this.stack.pop();
    this.host.invalidate();
    return this.stack.length > 0;
  }

  schedule(record: ActivityRecord, ms: number, fn: () => void): void {
    this.timers.push({ due: this.env.clock.now() + Math.max(0, ms), fn, record });
  }

  /** Background work still pending for a live activity (the UI is not idle): timers, requests the user waits for. */
  busy(): boolean {
    if (this.timers.some((t) => this.stack.includes(t.record))) return true;
    for (const r of this.requests) if (!r.background && this.stack.includes(r.record)) return true;
    return false;
  }

  /**
   * An HTTP request of the app (sim/net/http-client.ts). Its answer runs as app code as soon as
   * it is in (the main thread's looper), in front or behind, for a live activity of a running
   * process only: a stopped or crashed process never sees it.
   */
  fetch(record: ActivityRecord, req: AppRequest, then: (res: AppResponse) => void): void {
    const net = this.net;
    void this.inFlight(record, req.background === true, appHttp(net, this.env.net).send(req)).then((res) => {
      if (this.net !== net || !this.stack.includes(record)) return;
      this.runApp(() => then(res));
      this.host.invalidate();
    });
  }

  /**
   * A request of a WebView's page in the activity in front (sim/web/web-page.ts): the same
   * client, proxy and trust store as the app's own requests; the UI is busy until it is answered.
   */
  webFetch(req: RawAppRequest): Promise<RawAppResponse> {
    const sent = appHttp(this.net, this.env.net).sendRaw(req);
    return this.inFlight(this.top, false, sent).finally(() => this.host.invalidate());
  }

  /** A request in flight for `record` (foreground ones keep the UI busy), held by a virtual clock until it settles. */
  private inFlight<T>(record: ActivityRecord | null | undefined, background: boolean, sent: Promise<T>): Promise<T> {
    const entry = record ? { record, background } : null;
    if (entry) this.requests.add(entry);
    this.env.clock.hold?.(sent);
    return sent.finally(() => {
      if (entry) this.requests.delete(entry);
    });
  }

  /** Run the background work that is due by `now`, oldest first (work may schedule more). */
  pump(now: number): void {
    tickWorld(this, now);
    for (let round = 0; round < 100; round++) {
      this.timers = this.timers.filter((t) => this.stack.includes(t.record));
      const due = this.timers.filter((t) => t.due <= now).sort((a, b) => a.due - b.due)[0];
      if (!due) return;
      this.timers.splice(this.timers.indexOf(due), 1);
      this.runApp(due.fn);
      if (this.status === 'crashed') return;
    }
  }

  /** The clock was moved forward by `ms`: background work falls due that much sooner (a fast-forward fires it). */
  advanceTimers(ms: number): void {
    for (const t of this.timers) t.due -= ms;
  }

  render(): View | null {
    const record = this.top;
    if (!record) return null;
    let view: View | null = null;
    const render = ++record.renders;
    this.runApp(() => (view = this.model.activities[record.name]!.render(this.context(record))));
    // What this render did not ask for again is gone from the screen: its kept views go too.
    for (const [key, kept] of record.memo) if (kept.render !== render) record.memo.delete(key);
    return view;
  }

  /**
   * Run app code (a handler, render, background work). An exception thrown by the app model is
   * what an uncaught exception on Android's main thread is: the process dies with its stack.
   * Simulator errors (SimError) pass through.
   */
  runApp(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      if ((e as Error)?.name === 'SimError') throw e;
      const err = e instanceof Error ? e : new Error(String(e));
      const frames = (err.stack ?? '')
        .split('\n')
        .slice(1, 6)
        .map((l) => `\tat ${l.trim().replace(/^at /, '')}`);
      this.crash([`java.lang.RuntimeException: ${err.message}`, ...frames].join('\n'));
    }
  }

  context(record: ActivityRecord): ActivityContext<any, any> {
    return bindContext(this, record);
  }
}

let fallbackEnv: SimEnv | undefined;

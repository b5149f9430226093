import type { InstanceInfo, LogLine } from '../../protocol/index.js';
import type { ActivityContext, AppModel } from '../apps/define-app.js';
import type { View } from '../ui/view.js';

export interface ActivityRecord {
  name: string;
  state: unknown;
  extras: Record<string, unknown>;
}

export interface InstanceHost {
  /** Called whenever something on screen may have changed. */
  invalidate(): void;
  toast(text: string): void;
  /** The instance's process died; free its slot. */
  crashed(inst: SimInstance): void;
  log(line: Omit<LogLine, 'ts' | 'pid' | 'package' | 'instance'>, from: SimInstance): void;
}

/**
 * One copy of an app in a space (§3.6): its own data root (`data`, persisted per instance) and,
 * while running, a back stack of activities.
 */
export class SimInstance {
  data: unknown;
  stack: ActivityRecord[] = [];
  status: InstanceInfo['state'] = 'stopped';
  slot: number | null = null;
  pid = 0;
  crashReason: string | null = null;

  constructor(
    readonly model: AppModel<any>,
    readonly id: string,
    private readonly host: InstanceHost,
    data?: unknown,
  ) {
    this.data = data ?? model.initialData();
  }

  get key(): string {
    return `${this.model.package}@${this.id}`;
  }

  get top(): ActivityRecord | null {
    return this.stack[this.stack.length - 1] ?? null;
  }

  /** Start the process (if needed) and bring `activity` (or the launcher) up. */
  start(activity: string | undefined, pid: number): { cold: boolean } {
    const cold = this.stack.length === 0;
    this.pid = pid;
    if (cold || activity) this.push(activity ?? this.model.launcher, {});
    return { cold };
  }

  stop(): void {
    this.stack = [];
    this.status = 'stopped';
    this.slot = null;
  }

  /**
   * The app crashed: its process (slot) dies, the back stack is gone, data stays. The next
   * launch reports restarted_after_crash with this reason (§3.3 Stage C-D).
   */
  crash(reason: string): void {
    this.host.log({ level: 'E', tag: 'AndroidRuntime', message: `FATAL EXCEPTION: main\n${reason}` }, this);
    this.stack = [];
    this.status = 'crashed';
    this.crashReason = reason;
    this.host.crashed(this);
  }

  clearData(): void {
    this.data = this.model.initialData();
  }

  push(name: string, extras: Record<string, unknown>): void {
    const activity = this.model.activities[name];
    if (!activity) {
      throw new Error(`${this.model.package} has no activity ${name}; it has ${Object.keys(this.model.activities).join(', ')}`);
    }
    this.stack.push({ name, extras, state: activity.initialState(extras, this.data) });
    this.host.invalidate();
  }

  /** Back: finish the top activity. Returns false when the stack became empty. */
  back(): boolean {
    this.stack.pop();
    this.host.invalidate();
    return this.stack.length > 0;
  }

  render(): View | null {
    const record = this.top;
    if (!record) return null;
    return this.model.activities[record.name]!.render(this.context(record));
  }

  private context(record: ActivityRecord): ActivityContext<any, any> {
    const self = this;
    return {
      get data() {
        return self.data;
      },
      get state() {
        return record.state;
      },
      extras: record.extras,
      set(patch) {
        record.state = { ...(record.state as object), ...patch };
        self.host.invalidate();
      },
      update(fn) {
        fn(self.data);
        self.host.invalidate();
      },
      start(name, extras = {}) {
        self.push(name, extras);
      },
      finish() {
        const i = self.stack.indexOf(record);
        if (i >= 0) self.stack.splice(i, 1);
        self.host.invalidate();
      },
      toast(text) {
        self.host.toast(text);
      },
      log(level, tag, message) {
        self.host.log({ level, tag, message }, self);
      },
    };
  }
}

import type { Observation } from '../device-runtime/protocol/index.js';
import type { ApiCall } from './core/api-call.js';
import type { DeviceCalls } from './device-calls.js';
import { AppCrashedError } from './errors.js';
import type { InstanceState } from './port.js';

export type { InstanceState } from './port.js';

/** Which instance a watch is about: its space, package and instance id (null: the runtime has no instances). */
export interface InstanceRef {
  readonly spaceId: string;
  readonly pkg: string;
  readonly instance: string | null;
}

/**
 * Keeps one app instance in front of its space's screen and notices when it crashed: several
 * instances in one space take turns on the screen, so every observation checks that ours is the
 * one shown, brings it back when it is not, and, when it is gone, asks the device whether it
 * crashed and reads why from its logcat.
 */
export class InstanceWatch {
  constructor(
    private readonly calls: DeviceCalls,
    private readonly ref: InstanceRef,
    /** The test's features that act before the screen is read (the lifecycle's `beforeObserve`); null: none. */
    private readonly beforeObserve: (() => Promise<void>) | null = null,
  ) {}

  /** `com.example.app@2`: the package, and the instance when there is one. */
  who(): string {
    return `${this.ref.pkg}${this.ref.instance ? `@${this.ref.instance}` : ''}`;
  }

  /**
   * Observe the space. When another app or instance is in front, bring ours back first — unless
   * ours is still the foreground instance under a window of another package (a permission
   * prompt, a system dialog), which is part of our screen and must not be dismissed.
   */
  async observe(call: ApiCall, opts: { detail?: 'compact' | 'full'; maxNodes?: number } = {}): Promise<Observation> {
    if (this.beforeObserve) await this.beforeObserve();
    const args = {
      space_id: this.ref.spaceId,
      max_nodes: opts.maxNodes ?? 400,
      detail: opts.detail ?? 'compact',
    } as const;
    let obs = await this.calls.call(call, 'ui_observe', args);
    if (!this.inFront(obs)) {
      const state = await this.state(call);
      const crash = await this.crashed(call, state);
      if (crash) throw crash;
      if (state === 'foreground' && obs.package !== null) return obs;
      await this.bringToFront(call);
      obs = await this.calls.call(call, 'ui_observe', args);
    }
    return obs;
  }

  /** Whether `obs` shows our instance (a runtime without instance ids: our package). */
  inFront(obs: Observation): boolean {
    if (obs.package !== this.ref.pkg) return false;
    const { instance } = this.ref;
    return instance === null || obs.instance === undefined || obs.instance === null || obs.instance === instance;
  }

  /** Launch our instance again, which brings it to the front (one `space_launch`). */
  async bringToFront(call: ApiCall): Promise<void> {
    await this.calls.call(call, 'space_launch', {
      space_id: this.ref.spaceId,
      package: this.ref.pkg,
      ...(this.ref.instance ? { instance: this.ref.instance } : {}),
    });
  }

  /** Our instance's state from space_list_apps (one call). */
  async state(call: ApiCall): Promise<InstanceState> {
    const { apps } = await this.calls.call(call, 'space_list_apps', { space_id: this.ref.spaceId });
    const inst = apps
      .find((a) => a.package === this.ref.pkg)
      ?.instances.find((i) => i.instance === (this.ref.instance ?? '0'));
    return inst?.state ?? 'gone';
  }

  /** If our instance crashed, the error that says so (with the crash from logcat); otherwise null. */
  async crashed(call: ApiCall, state?: InstanceState): Promise<AppCrashedError | null> {
    if ((state ?? (await this.state(call))) !== 'crashed') return null;
    const lines = await this.logcat().catch(() => []);
    const fatal = lines.map((l) => l.includes('FATAL EXCEPTION')).lastIndexOf(true);
    const body = (l: string) => l.replace(/^\S+ \d+ \w \S+: /, '');
    const stack =
      fatal >= 0
        ? lines
            .slice(fatal + 1)
            .map(body)
            .filter((l) => /^(\s|[\w.$]+(Exception|Error)\b|Caused by)/.test(l))
        : [];
    const reason = stack.length > 0 ? stack.join('\n') : 'the process died (no FATAL EXCEPTION in its logcat)';
    const why = stack[0] ?? reason;
    return this.calls.fatal(new AppCrashedError(call, `${this.who()} crashed: ${why}`, reason, lines));
  }

  /** The error for an APP_CRASHED answer: the device's reason and the instance's logcat. */
  async crashError(call: ApiCall, reason: string, cause?: unknown): Promise<AppCrashedError> {
    const logcat = await this.logcat().catch(() => []);
    return this.calls.fatal(
      new AppCrashedError(call, `${this.who()} crashed: ${reason.split('\n')[0]}`, reason, logcat, { cause }),
    );
  }

  /**
   * The instance's own log lines (its processes, not the device's), formatted like
   * `adb logcat -v threadtime` lines, one per message line as `adb logcat` prints a stack. With
   * `call`, a call of that public method (its errors name it); `afterTest`, after the test ended
   * (clean-up's reads, which a timed-out test's signal must not stop); neither: for crash reports.
   */
  async logcat(
    opts: { call?: ApiCall; maxLines?: number; sinceMs?: number; afterTest?: boolean } = {},
  ): Promise<string[]> {
    const input = {
      space_id: this.ref.spaceId,
      package: this.ref.pkg,
      ...(this.ref.instance ? { instance: this.ref.instance } : {}),
      ...(opts.sinceMs !== undefined ? { since_ms: opts.sinceMs } : {}),
      max_lines: opts.maxLines ?? 200,
    };
    const { lines } = opts.call
      ? opts.afterTest
        ? await this.calls.afterTest(opts.call, 'sys_logcat', input)
        : await this.calls.call(opts.call, 'sys_logcat', input)
      : await this.calls.raw('sys_logcat', input);
    return lines.flatMap((l) =>
      l.message.split('\n').map((m) => `${new Date(l.ts).toISOString()} ${l.pid} ${l.level} ${l.tag}: ${m}`),
    );
  }
}

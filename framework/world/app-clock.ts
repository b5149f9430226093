import { NestwrightError } from '../core/errors.js';
import { durationMs, epochMs, showTime, type TimeInput } from './time-input.js';
import type { ApiCall } from '../core/api-call.js';
import type { WorldPort } from './world-port.js';

/**
 * The instance's clock, with Playwright's `page.clock` methods: the wall time its app reads, which
 * its alarms and (when moved forward) its timers see too. Set on this instance only, gone with it;
 * another instance, in this test or in a parallel one, keeps its own time.
 *
 * On the device (the `world` extension's `world_clock_set`): a fixed or running wall time, moved
 * forward with what falls due on the way firing. Playwright's fastForward and runFor are the same
 * here: the app's timers and alarms that fall due fire in order.
 */
export class AppClock {
  /** @internal Made by `app.clock`. */
  constructor(private readonly port: WorldPort) {}

  /**
   * Start controlling the time: the clock runs from `time` (default: now). Calling it is
   * optional; every other method controls the clock too.
   *
   * @example
   * ```ts
   * await app.clock.install({ time: new Date('2026-01-15T08:00:00Z') });
   * ```
   */
  async install(opts: { time?: TimeInput } = {}): Promise<void> {
    const api = 'app.clock.install';
    const time = opts.time === undefined ? undefined : epochMs(api, opts.time);
    await this.port.step(api, `Install the clock${time === undefined ? '' : ` at ${showTime(time)}`}`, (call) =>
      this.set(call, {
        ...(time === undefined ? {} : { time }),
        running: true,
      }),
    );
  }

  /**
   * Stop the clock at `time`: the app reads that time until it is set again.
   *
   * @example
   * ```ts
   * await app.clock.setFixedTime('2026-01-15T09:00:00+09:00');
   * ```
   */
  async setFixedTime(time: TimeInput): Promise<void> {
    const api = 'app.clock.setFixedTime';
    const ms = epochMs(api, time);
    await this.port.step(api, `Fix the clock at ${showTime(ms)}`, (call) =>
      this.set(call, { time: ms, running: false }),
    );
  }

  /**
   * Set the wall time to `time` without firing the app's timers (alarms set for a time now past
   * go off, as on a phone whose time is changed); the clock keeps running or standing.
   *
   * @example
   * ```ts
   * await app.clock.setSystemTime(new Date('2026-03-01T12:00:00Z'));
   * ```
   */
  async setSystemTime(time: TimeInput): Promise<void> {
    const api = 'app.clock.setSystemTime';
    const ms = epochMs(api, time);
    await this.port.step(api, `Set the system time to ${showTime(ms)}`, (call) => this.set(call, { time: ms }));
  }

  /**
   * Jump forward by `ticks` (ms, or `'mm:ss'` / `'hh:mm:ss'`): the app's timers and alarms that
   * fall due on the way fire.
   *
   * @example
   * ```ts
   * await app.clock.fastForward('01:00:00'); // an hour: the reminder goes off
   * ```
   */
  async fastForward(ticks: number | string): Promise<void> {
    const api = 'app.clock.fastForward';
    const ms = durationMs(api, ticks);
    await this.port.step(api, `Fast-forward the clock ${ticks}`, (call) => this.set(call, { advance_ms: ms }));
  }

  /**
   * Advance the clock by `ticks`, firing every timer and alarm that falls due, in order.
   *
   * @example
   * ```ts
   * await app.clock.runFor(5_000);
   * ```
   */
  async runFor(ticks: number | string): Promise<void> {
    const api = 'app.clock.runFor';
    const ms = durationMs(api, ticks);
    await this.port.step(api, `Run the clock for ${ticks}`, (call) => this.set(call, { advance_ms: ms }));
  }

  /**
   * Move forward to `time`, firing what falls due on the way, and stop there. `time` must not be
   * before the instance's now.
   *
   * @example
   * ```ts
   * await app.clock.pauseAt(new Date('2026-01-15T10:00:00Z'));
   * ```
   */
  async pauseAt(time: TimeInput): Promise<void> {
    const api = 'app.clock.pauseAt';
    const ms = epochMs(api, time);
    await this.port.step(api, `Pause the clock at ${showTime(ms)}`, async (call) => {
      const { now } = (await this.port.call(call, 'world_get', {})).clock;
      if (ms < now)
        throw new NestwrightError(
          api,
          `${showTime(ms)} is before the instance's time (${showTime(now)}): pauseAt only moves forward; use setFixedTime to go back.`,
          { code: 'USAGE' },
        );
      await this.port.call(call, 'world_clock_set', { advance_ms: ms - now, running: false });
    });
  }

  /**
   * Let a fixed or paused clock run again from where it stands.
   *
   * @example
   * ```ts
   * await app.clock.resume();
   * ```
   */
  async resume(): Promise<void> {
    await this.port.step('app.clock.resume', 'Resume the clock', (call) => this.set(call, { running: true }));
  }

  private async set(call: ApiCall, input: { time?: number; advance_ms?: number; running?: boolean }): Promise<void> {
    await this.port.call(call, 'world_clock_set', input);
  }
}

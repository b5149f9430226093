import { formatTitle, TOOLS, type Key, type Observation } from '../../device-runtime/protocol/index.js';
import type { AppDriver } from './driver.js';
import { describeScreen, TimeoutError } from './errors.js';
import { poll } from './poll.js';
import type { ApiCall } from './api-call.js';
import { pressKey } from './gestures.js';

/**
 * The bodies of App's methods that reach the device (app.ts keeps the public methods, their
 * docs and the one `wrap` each starts with): each takes the call the method made.
 */

/** The instance fields of a tool call about our app: its package, and its instance when there is one. */
const ours = (d: AppDriver) => ({ package: d.pkg, ...(d.instance ? { instance: d.instance } : {}) });

export interface IntentOptions {
  activity?: string;
  data?: string;
  action?: string;
  extras?: Record<string, string | number | boolean>;
}

/** `app.intent()`: one app_intent, then a look at what came to the front. */
export function intent(call: ApiCall, d: AppDriver, opts: IntentOptions): Promise<void> {
  const title = formatTitle(TOOLS.app_intent.title, { data: opts.data ?? opts.activity ?? d.pkg });
  return d.steps.step(call, { kind: 'app', title, selector: null }, async (rec) => {
    await d.calls.call(call, 'app_intent', {
      space_id: d.spaceId,
      package: d.pkg,
      ...(opts.activity ? { component: `${d.pkg}/${opts.activity}` } : {}),
      ...(opts.data ? { data: opts.data } : {}),
      ...(opts.action ? { action: opts.action } : {}),
      ...(opts.extras ? { extras: opts.extras } : {}),
      ...(d.instance ? { instance: d.instance } : {}),
    });
    rec.after = (await d.watch.observe(call)).snapshot_id;
  });
}

/** `app.press()`: the key, checked for an effect (core/gestures.ts). */
export function press(call: ApiCall, d: AppDriver, key: Key): Promise<void> {
  return pressKey(call, d, key, null);
}

/** `app.hideKeyboard()`: a back per look that still shows the keyboard, until it is gone or the call's deadline. */
export function hideKeyboard(call: ApiCall, d: AppDriver): Promise<void> {
  return d.steps.step(call, { kind: 'action', title: 'Hide the keyboard', selector: null }, async (rec) => {
    const before = await d.watch.observe(call);
    rec.before = before.snapshot_id;
    if (before.keyboard === undefined) {
      throw call.error(
        'this device runtime does not report the soft keyboard (no `keyboard` extension); press back yourself when you know it is up',
        { code: 'NOT_SUPPORTED' },
      );
    }
    if (before.keyboard === null) return;
    let last: Observation = before;
    const r = await poll(
      call.timeout,
      async (n) => {
        // One back per look that still shows it; a dropped key is sent again on the next look.
        if (n === 0 || n % 3 === 0) await d.calls.call(call, 'ui_key', { space_id: d.spaceId, key: 'back' });
        last = await d.watch.observe(call);
        return last.keyboard ? { done: false } : { done: true, value: true };
      },
      d.clock,
    );
    rec.after = last.snapshot_id;
    if ('timedOut' in r)
      throw new TimeoutError(
        call,
        `timeout ${d.describeTimeout(call.timeout)} exceeded: the keyboard is still up\nScreen:\n${describeScreen(last)}`,
        [],
        last,
      );
  });
}

/** `app.launch()`: one space_launch of our instance. */
export function launch(call: ApiCall, d: AppDriver, opts: { activity?: string }): Promise<void> {
  const title = formatTitle(TOOLS.space_launch.title, { package: d.pkg });
  return d.steps.step(call, { kind: 'app', title, selector: null }, async () => {
    await d.calls.call(call, 'space_launch', {
      space_id: d.spaceId,
      ...ours(d),
      ...(opts.activity ? { activity: opts.activity } : {}),
    });
  });
}

/** `app.stop()`: one space_stop of our instance. */
export function stop(call: ApiCall, d: AppDriver): Promise<void> {
  const title = formatTitle(TOOLS.space_stop.title, { package: d.pkg });
  return d.steps.step(call, { kind: 'app', title, selector: null }, async () => {
    await d.calls.call(call, 'space_stop', { space_id: d.spaceId, ...ours(d) });
  });
}

/**
 * `app.screenshot()`: our instance brought to the front, then one ui_screenshot. A runtime without
 * it throws, as documented; `{ optional: true }` gets null instead.
 */
export async function screenshot(
  call: ApiCall,
  d: AppDriver,
  opts: { scale?: number; optional?: boolean },
): Promise<Buffer | null> {
  await d.watch.observe(call);
  const png = await d.screenshots.take(call, opts.scale ?? 1);
  if (!png && opts.optional !== true) {
    throw call.error(
      'this device runtime does not offer ui_screenshot (NOT_SUPPORTED); use app.observe() for the screen as nodes, or app.screenshot({ optional: true }) to get null instead',
      { code: 'NOT_SUPPORTED' },
    );
  }
  return png;
}

/** `app.waitForActivity()`: looks until `activity` is in front, or the call's deadline. */
export async function waitForActivity(call: ApiCall, d: AppDriver, activity: string): Promise<void> {
  let last: Observation | null = null;
  const r = await poll(
    call.timeout,
    async () => {
      last = await d.watch.observe(call);
      return last.activity === activity ? { done: true, value: true } : { done: false };
    },
    d.clock,
  );
  if ('timedOut' in r) {
    throw new TimeoutError(
      call,
      `timeout ${d.describeTimeout(call.timeout)} exceeded waiting for ${activity}; in front: ${(last as Observation | null)?.activity ?? 'nothing'}\nScreen:\n${describeScreen(last)}`,
      [],
      last,
    );
  }
}

import { formatTitle, screenChanged, TOOLS, type Key } from '../../device-runtime/protocol/index.js';
import { swipeEnds, type SwipeDirection } from '../../device-runtime/protocol/swipe.js';
import type { AppDriver } from './driver.js';
import { findNode } from './action.js';
import type { LocatorRef } from './actuator.js';
import type { ApiCall } from './api-call.js';

/** Swipe across the node from its center towards `direction` (see Locator.swipe), as `call`'s step. */
export async function swipe(
  call: ApiCall,
  locator: LocatorRef,
  direction: 'up' | 'down' | 'left' | 'right',
  opts: { distance?: number; duration?: number },
): Promise<void> {
  const d = locator.driver;
  const distance = Math.min(0.95, Math.max(0.05, opts.distance ?? 0.6));
  await d.steps.step(
    call,
    { kind: 'action', title: `Swipe ${direction} on ${locator}`, selector: locator.toString() },
    async (record) => {
      const { node, obs } = await findNode(call, locator, { enabled: false, scroll: false });
      record.node = node;
      record.before = obs.snapshot_id;
      const [from, to] = swipeEnds(node.bounds, direction, distance);
      await d.calls.call(call, 'ui_swipe', { space_id: d.spaceId, from, to, duration_ms: opts.duration ?? 300 });
      const after = await d.watch.observe(call);
      record.after = after.snapshot_id;
    },
  );
}

/** Press `key` as `call`'s step (`locator.press` after its tap, `app.press`), checking its effect. */
export function pressKey(call: ApiCall, d: AppDriver, key: Key, selector: string | null): Promise<void> {
  return d.steps.step(call, { kind: 'action', title: formatTitle(TOOLS.ui_key.title, { key }), selector }, (record) =>
    pressVerified(call, d, key, record),
  );
}

/**
 * Press `key` and check the screen after it: a key that shows no effect was dropped (or does
 * nothing here, when pressing it again is harmless too) and is pressed again, three presses at
 * most. Back first closes a dialog, then the keyboard; enter submits the focused field.
 */
async function pressVerified(
  call: ApiCall,
  d: AppDriver,
  key: Key,
  record: { before: string | null; after: string | null },
): Promise<void> {
  const before = await d.watch.observe(call);
  record.before = before.snapshot_id;
  for (let attempt = 1; ; attempt++) {
    await d.calls.call(call, 'ui_key', { space_id: d.spaceId, key });
    const { obs, effect } = await d.settle(call, before, null, screenChanged);
    record.after = obs.snapshot_id;
    if (effect || attempt >= 3) return;
  }
}

/**
 * Swipe across the screen itself from its center towards `direction`, whatever is on it (Maestro's
 * `scroll` and `scrollUntilVisible` swipe the screen, not an element: an element chosen while a
 * list loads may be gone before the swipe).
 */
export async function swipeScreen(
  call: ApiCall,
  d: AppDriver,
  direction: SwipeDirection,
  opts: { distance?: number; duration?: number } = {},
): Promise<void> {
  const distance = Math.min(0.95, Math.max(0.05, opts.distance ?? 0.6));
  await d.steps.step(
    call,
    { kind: 'action', title: `Swipe ${direction} on the screen`, selector: null },
    async (record) => {
      const obs = await d.watch.observe(call);
      record.before = obs.snapshot_id;
      const [from, to] = swipeEnds([0, 0, obs.screen.width, obs.screen.height], direction, distance);
      await d.calls.call(call, 'ui_swipe', { space_id: d.spaceId, from, to, duration_ms: opts.duration ?? 300 });
      record.after = (await d.watch.observe(call)).snapshot_id;
    },
  );
}

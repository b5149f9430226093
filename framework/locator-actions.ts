import {
  formatTitle,
  screenChanged,
  TOOLS,
  type Key,
  type Observation,
  type Took,
  type UiNode,
} from '../device-runtime/protocol/index.js';
import { DeviceError } from '../device-runtime/client/index.js';
import { CallSite } from './call-site.js';
import type { HealedTarget } from './port.js';
import type { AppDriver } from './driver.js';
import { TimeoutError } from './errors.js';
import { actOnDevice, scrollOnDevice, type DeviceDone, type SelectorTool } from './locator-device.js';
import { waitHere, waitTimeout, type LocatorRef } from './locator-wait.js';
import { resolveSteps } from './selector.js';

/**
 * A locator's actions: auto-wait, act, verify. On a runtime with the `selector_actions`
 * extension (and `deviceActions` not 'off') the device does each in one round trip
 * (locator-device.ts); otherwise they run here, a tool call per look (locator-wait.ts).
 */

/** A step title's fields, or a function of the node found (a password field's text is never shown). */
export type TitleFields = Record<string, unknown> | ((node: UiNode | null) => Record<string, unknown>);

/**
 * Resolve, act on the node from that very snapshot (retrying if the screen changed in
 * between), then verify: a device may answer ok and drop the input, so when the screen shows
 * no effect after a short wait the action is repeated (twice at most).
 */
export function act(
  locator: LocatorRef,
  api: string,
  tool: SelectorTool,
  args: Record<string, unknown>,
  opts: { timeout?: number } = {},
  extraTitle: TitleFields = {},
  took: Took = screenChanged,
): Promise<void> {
  // Tracked whole, not only its step: part of it runs before the step opens.
  const work = actUntracked(locator, api, tool, args, opts, extraTitle, took);
  const scope = locator.driver.options.scope;
  return scope ? scope.track(work) : work;
}

async function actUntracked(
  locator: LocatorRef,
  api: string,
  tool: SelectorTool,
  args: Record<string, unknown>,
  opts: { timeout?: number },
  extraTitle: TitleFields,
  took: Took,
): Promise<void> {
  const d = locator.driver;
  const started = Date.now();
  const trips = d.calls.roundTrips;
  // Where the test called this action: healing looks it up, and after an await it is gone from the stack.
  const at = d.options.heal ? CallSite.capture() : undefined;
  const timeout = d.timeout(opts.timeout);
  const deadline = started + timeout;
  const log: string[] = [];
  // A repeat of an action that showed no effect still gets a short wait when the deadline has passed.
  const find = async (repeat = false): Promise<{ node: UiNode; obs: Observation }> => {
    try {
      return await waitHere(locator, api, {
        timeout: Math.max(repeat ? d.timeout(REPEAT_WAIT_MS) : 1, deadline - Date.now()),
        log,
      });
    } catch (e) {
      if (e instanceof TimeoutError) throw waitTimeout(d, api, timeout, log, e.observation);
      throw e;
    }
  };
  // What happens before the step opens: on the selector_actions path the whole action (one
  // round trip); otherwise, for a title that depends on the node (a password field's text is
  // never shown), its first resolution. The step's record still counts that time and those
  // round trips. A node never found gives the title for `null`.
  let first: { found?: { node: UiNode; obs: Observation }; done?: DeviceDone; error?: unknown } | null = null;
  if (await d.resolvesOnDevice())
    first = await actOnDevice(locator, api, tool, args, timeout).then(
      (done) => ({ done }),
      (error: unknown) => ({ error }),
    );
  else if (typeof extraTitle === 'function')
    first = await find().then(
      (found) => ({ found }),
      (error: unknown) => ({ error }),
    );
  const fields =
    typeof extraTitle === 'function' ? extraTitle(first?.found?.node ?? first?.done?.node ?? null) : extraTitle;
  const title = formatTitle(TOOLS[tool].title, fields, { target: locator.toString() });
  await d.steps.step(
    { kind: 'action', api, title, selector: locator.toString(), roundTripsFrom: trips },
    async (record) => {
      record.startedAt = started;
      if (first?.done) {
        record.node = first.done.node;
        record.before = first.done.before;
        record.after = first.done.after;
        return;
      }
      let attempts = 0;
      let healed: HealedTarget | null = null;
      // The node in the look after an action that showed no effect: acted on again from there.
      let again: { node: UiNode; obs: Observation } | null = null;
      for (;;) {
        let found: { node: UiNode; obs: Observation };
        try {
          if (first && 'error' in first) throw first.error;
          found = first?.found ?? again ?? (await find(attempts > 0));
        } catch (error) {
          // Nothing (or several) matched: healing may name the node, or add why not to the error.
          if (!d.options.heal) throw error;
          found = healed = await d.options.heal.missed({ api, locator, error, record, ...(at ? { at } : {}) });
        } finally {
          first = null;
          again = null;
        }
        const { node, obs } = found;
        record.node = node;
        record.before ??= obs.snapshot_id;
        try {
          await d.calls.raw(tool, {
            space_id: d.spaceId,
            node_id: node.id,
            snapshot_id: obs.snapshot_id,
            ...args,
          } as never);
        } catch (e) {
          if (
            e instanceof DeviceError &&
            (e.code === 'SNAPSHOT_STALE' || e.code === 'NODE_NOT_FOUND') &&
            Date.now() < deadline
          ) {
            log.push(`  the screen changed before the action (${e.code}); resolving again`);
            continue;
          }
          throw await d.calls.translate(api, e);
        }
        attempts++;
        const after = await d.settle(api, obs, node, took);
        record.after = after.obs.snapshot_id;
        // A dropped input gets its repeats even when the wait before it took the whole timeout.
        if (after.effect || attempts >= 3) {
          await healed?.verify(after);
          break;
        }
        log.push(`  no effect on screen after the action; repeating it (the device may have dropped the input)`);
        if (!healed) again = sameNode(locator, after.obs, node);
      }
    },
  );
}

/** How long (ms, before the device's timing scale) a repeat may wait for its node when the action's deadline has passed. */
const REPEAT_WAIT_MS = 1000;

/** The locator's one node in `obs` when it is `node` still (enabled, in the same place): a repeat acts on it without another wait. */
function sameNode(locator: LocatorRef, obs: Observation, node: UiNode): { node: UiNode; obs: Observation } | null {
  if (obs.tree_missing) return null;
  const nodes = resolveSteps(obs.nodes, locator.steps);
  const n = nodes.length === 1 ? nodes[0]! : null;
  return n && n.enabled && n.bounds.join() === node.bounds.join() ? { node: n, obs } : null;
}

/** Scroll the list until the node is in view: one ui_scroll on the device, or the wait here (not requiring enabled). */
export async function scrollIntoView(locator: LocatorRef, opts: { timeout?: number }): Promise<void> {
  const api = 'locator.scrollIntoView';
  const d = locator.driver;
  const timeout = d.timeout(opts.timeout);
  await d.steps.step(
    { kind: 'action', api, title: `Scroll ${locator} into view`, selector: locator.toString() },
    async (record) => {
      const { node, obs } = (await d.resolvesOnDevice())
        ? await scrollOnDevice(locator, api, timeout)
        : await waitHere(locator, api, { enabled: false, timeout });
      record.node = node;
      record.before = record.after = obs.snapshot_id;
    },
  );
}

/** Swipe across the node from its center towards `direction` (see Locator.swipe). */
export async function swipe(
  locator: LocatorRef,
  direction: 'up' | 'down' | 'left' | 'right',
  opts: { distance?: number; duration?: number; timeout?: number },
): Promise<void> {
  const api = 'locator.swipe';
  const d = locator.driver;
  const distance = Math.min(0.95, Math.max(0.05, opts.distance ?? 0.6));
  await d.steps.step(
    { kind: 'action', api, title: `Swipe ${direction} on ${locator}`, selector: locator.toString() },
    async (record) => {
      const { node, obs } = await waitHere(locator, api, {
        enabled: false,
        scroll: false,
        timeout: d.timeout(opts.timeout),
      });
      record.node = node;
      record.before = obs.snapshot_id;
      const [l, t, r, b] = node.bounds;
      const cx = Math.round((l + r) / 2);
      const cy = Math.round((t + b) / 2);
      const dx = Math.round(((r - l) * distance) / 2);
      const dy = Math.round(((b - t) * distance) / 2);
      const [from, to]: [[number, number], [number, number]] =
        direction === 'up'
          ? [
              [cx, cy + dy],
              [cx, cy - dy],
            ]
          : direction === 'down'
            ? [
                [cx, cy - dy],
                [cx, cy + dy],
              ]
            : direction === 'left'
              ? [
                  [cx + dx, cy],
                  [cx - dx, cy],
                ]
              : [
                  [cx - dx, cy],
                  [cx + dx, cy],
                ];
      await d.calls.call(api, 'ui_swipe', { space_id: d.spaceId, from, to, duration_ms: opts.duration ?? 300 });
      const after = await d.watch.observe(api);
      record.after = after.snapshot_id;
    },
  );
}

/** After the tap that focuses the node: press `key`, a step of its own. */
export async function pressKey(locator: LocatorRef, key: Key): Promise<void> {
  const d = locator.driver;
  await d.steps.step(
    {
      kind: 'action',
      api: 'locator.press',
      title: formatTitle(TOOLS.ui_key.title, { key }),
      selector: locator.toString(),
    },
    (record) => pressVerified(d, 'locator.press', key, record),
  );
}

/**
 * Press `key` and check the screen after it: a key that shows no effect was dropped (or does
 * nothing here, when pressing it again is harmless too) and is pressed again, three presses at
 * most. Back first closes a dialog, then the keyboard; enter submits the focused field.
 */
export async function pressVerified(
  d: AppDriver,
  api: string,
  key: Key,
  record: { before: string | null; after: string | null },
): Promise<void> {
  const before = await d.watch.observe(api);
  record.before = before.snapshot_id;
  for (let attempt = 1; ; attempt++) {
    await d.calls.call(api, 'ui_key', { space_id: d.spaceId, key });
    const { obs, effect } = await d.settle(api, before, null, screenChanged);
    record.after = obs.snapshot_id;
    if (effect || attempt >= 3) return;
  }
}

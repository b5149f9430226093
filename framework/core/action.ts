import { formatTitle, TOOLS, type Observation, type UiNode } from '../../device-runtime/protocol/index.js';
import type { HealedTarget } from './port.js';
import { resolveSteps } from './selector.js';
import { actOnNode } from './act-on-node.js';
import type { ActionSpec, Attempt, LocatorRef } from './actuator.js';
import { actuatorOf } from './actuators.js';
import type { ApiCall } from './api-call.js';
import { waitHere, type WaitFor } from './wait-here.js';

/**
 * The action pipeline, written once above the actuator (core/actuator.ts): the step and its
 * trajectory record, healing (`LocatorHealing.resolved` on every node found, `.missed` when the
 * locator matched nothing or several), and the effect check — an action that showed no effect
 * is sent again, three times at most. The actuator (device-side or client-side, chosen once per
 * driver) only waits and acts.
 */

/** A step title's fields, or a function of the node acted on (a password field's text is never shown). */
export type TitleFields = Record<string, unknown> | ((node: UiNode | null) => Record<string, unknown>);

/** An action as a locator method describes it: the tool, its arguments, its effect, its title's fields. */
export interface Action extends ActionSpec {
  title: TitleFields;
}

/** Run `action` on the locator's one node as `call`'s step (tracked whole: part of it runs before the step opens). */
export function act(call: ApiCall, locator: LocatorRef, action: Action): Promise<void> {
  const work = actUntracked(call, locator, action);
  const scope = locator.driver.options.scope;
  return scope ? scope.track(work) : work;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settledOf = <T>(p: Promise<T>): Promise<Settled<T>> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

async function actUntracked(call: ApiCall, locator: LocatorRef, action: Action): Promise<void> {
  const d = locator.driver;
  const trips = d.calls.roundTrips;
  const actuator = await actuatorOf(d);
  const heal = d.options.heal;
  // A repeat of an action that showed no effect still gets a short wait when the deadline has passed.
  const attempt = async (repeat: boolean): Promise<Attempt> => {
    const timeout = Math.max(repeat ? d.timeout(REPEAT_WAIT_MS) : 1, call.remaining());
    const a = await actuator.act(call, locator, action, { timeout, observeBefore: !!heal });
    if (a.named) heal?.resolved(call, locator, a.named.node, a.named.obs);
    return a;
  };
  // The first attempt runs before the step opens: the title may name the node (a password field's
  // text is never shown). The step's record still counts its time and round trips; a node never
  // found gives the title for `null`, and its error is the step's.
  let next = await settledOf(attempt(false));
  const fields = typeof action.title === 'function' ? action.title(next.ok ? next.value.node : null) : action.title;
  const title = formatTitle(TOOLS[action.tool].title, fields, { target: locator.toString() });
  await d.steps.step(
    call,
    { kind: 'action', title, selector: locator.toString(), roundTripsFrom: trips },
    async (record) => {
      record.startedAt = call.startedAt;
      let sent = 0;
      let healed: HealedTarget | null = null;
      for (;;) {
        let a: Attempt | null;
        if (next.ok) a = next.value;
        else {
          // Nothing (or several) matched: healing may name the node, or add why not to the error.
          if (!heal) throw next.error;
          healed = await heal.missed({ call, locator, error: next.error });
          a = await actOnNode(call, d, healed, action);
        }
        if (!a) {
          // The screen changed before the action reached the node: resolve again.
          next = await settledOf(attempt(sent > 0));
          continue;
        }
        sent += a.attempts;
        record.node = a.node;
        record.before ??= a.before;
        record.after = a.after?.snapshot_id ?? null;
        // A dropped input gets its repeats even when the wait before it took the whole timeout.
        if (a.effect || sent >= 3) {
          if (healed && a.after) await healed.verify({ obs: a.after, effect: a.effect });
          return;
        }
        call.log.push(`  no effect on screen after the action; repeating it (the device may have dropped the input)`);
        const same = !healed && a.after && a.node ? sameNode(locator, a.after, a.node) : null;
        next = await settledOf(same ? actOnNode(call, d, same, action).then((r) => r ?? attempt(true)) : attempt(true));
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

/**
 * Wait here (client-side, whatever the actuator: reads and gestures need the node itself) for
 * the locator's one actionable node; healing is told what resolved.
 */
export async function findNode(
  call: ApiCall,
  locator: LocatorRef,
  opts: WaitFor = {},
): Promise<{ node: UiNode; obs: Observation }> {
  const found = await waitHere(call, locator, opts);
  locator.driver.options.heal?.resolved(call, locator, found.node, found.obs);
  return found;
}

/** Scroll the list until the node is in view, as `call`'s step: one ui_scroll on the device, or the wait here. */
export async function scrollIntoView(call: ApiCall, locator: LocatorRef): Promise<void> {
  const d = locator.driver;
  const actuator = await actuatorOf(d);
  await d.steps.step(
    call,
    { kind: 'action', title: `Scroll ${locator} into view`, selector: locator.toString() },
    async (record) => {
      const { node, obs } = await actuator.scrollIntoView(call, locator);
      d.options.heal?.resolved(call, locator, node, obs);
      record.node = node;
      record.before = record.after = obs.snapshot_id;
    },
  );
}

import {
  waitForActionable,
  type ActionabilityIO,
  type Observation,
  type UiNode,
} from '../../device-runtime/protocol/index.js';
import { DeviceError } from '../../device-runtime/client/index.js';
import { nearest } from '../../device-runtime/protocol/nearest.js';
import {
  describeNode,
  describeScreen,
  formatCallLog,
  NestwrightError,
  StrictModeViolationError,
  TimeoutError,
} from './errors.js';
import { resolveSteps, type Step } from './selector.js';
import { suggestLocators } from '../../device-runtime/protocol/best-selector.js';
import type { LocatorRef } from './actuator.js';
import type { ApiCall } from './api-call.js';

/** All current matches in one observation (no waiting): one round trip, or more to bring the app back to the front. */
export async function resolveNow(call: ApiCall, locator: LocatorRef): Promise<{ nodes: UiNode[]; obs: Observation }> {
  const obs = await locator.driver.watch.observe(call);
  return { nodes: obs.tree_missing ? [] : resolveSteps(obs.nodes, locator.steps), obs };
}

/**
 * How a wait for one actionable node runs: `timeout` (ms, scaled) is the wait's own, as its
 * error says it (default: the call's); `budget` only shortens the wait (an action that already
 * spent part of its call's timeout), the error still saying the call's.
 */
export interface WaitFor {
  timeout?: number;
  budget?: number;
  enabled?: boolean;
  scroll?: boolean;
}

/**
 * Wait on this side until the locator names one actionable node (the protocol's loop,
 * device-runtime/protocol/actionability.ts, over tool calls: one round trip per look and per
 * scroll), writing to the call's log. A miss is a {@link TimeoutError} with the call log and the
 * last screen, several matches a {@link StrictModeViolationError}.
 */
export async function waitHere(
  call: ApiCall,
  locator: LocatorRef,
  opts: WaitFor = {},
): Promise<{ node: UiNode; obs: Observation }> {
  const d = locator.driver;
  const io: ActionabilityIO = {
    observe: () => d.watch.observe(call),
    scroll: async (direction) =>
      (await d.calls.call(call, 'ui_scroll', { space_id: d.spaceId, direction, amount: 1 })).moved,
    hideKeyboard: async () => void (await d.calls.call(call, 'ui_key', { space_id: d.spaceId, key: 'back' })),
    clock: d.clock,
  };
  const r = await waitForActionable(
    io,
    locator.steps,
    {
      timeoutMs: opts.budget ?? opts.timeout ?? Math.max(1, call.remaining()),
      ...(opts.enabled !== undefined ? { enabled: opts.enabled } : {}),
      ...(opts.scroll !== undefined ? { scroll: opts.scroll } : {}),
    },
    call.log,
  );
  if (r.status === 'ok') return r;
  if (r.status === 'ambiguous') throw new StrictModeViolationError(call, locator.toString(), r.nodes);
  throw waitTimeout(call, locator, r.obs, opts.timeout);
}

/** The TimeoutError of a wait for a node, in Playwright's layout: the timeout, the call log, the last screen. */
export function waitTimeout(
  call: ApiCall,
  locator: LocatorRef,
  obs: Observation | null,
  timeout = call.timeout,
  log = call.log,
): TimeoutError {
  const closest = closestOnScreen(locator.steps, obs);
  return new TimeoutError(
    call,
    `timeout ${locator.driver.describeTimeout(timeout)} exceeded.\n${closest ? `${closest}\n` : ''}Call log:\n${formatCallLog(log)}\nScreen:\n${describeScreen(obs)}`,
    log,
    obs,
  );
}

/**
 * What a test author can act on when a locator matched nothing: the node of the last screen
 * whose text, description or id is nearest to what the locator's last naming step asks for (a
 * typo, another case), and the locator that names it. Null when nothing is near.
 */
function closestOnScreen(steps: Step[], obs: Observation | null): string | null {
  if (!obs || obs.tree_missing) return null;
  const step = [...steps]
    .reverse()
    .find((s) => s.kind === 'text' || s.kind === 'desc' || s.kind === 'id' || s.kind === 'role');
  if (!step) return null;
  const wanted =
    step.kind === 'id' ? step.id.replace(/^.*:id\//, '') : step.kind === 'role' ? step.name?.text : step.text;
  if (typeof wanted !== 'string' || !wanted) return null;
  const valuesOf = (n: UiNode): Array<string | null | undefined> =>
    step.kind === 'id' ? [n.res_id?.replace(/^.*:id\//, '')] : [n.text, n.desc];
  const byValue = new Map<string, UiNode>();
  for (const n of obs.nodes) for (const v of valuesOf(n)) if (v && !byValue.has(v)) byValue.set(v, n);
  const near = nearest(wanted, [...byValue.keys()]);
  const node = near === undefined ? undefined : byValue.get(near);
  if (!node) return null;
  return `Closest on screen: ${named(obs, node)}`;
}

/** A node as the screen lists it, and the locator that names it alone, when there is one. */
function named(obs: Observation, node: UiNode): string {
  const best = suggestLocators(obs, node.id).find((x) => x.strictSafe);
  return `${describeNode(node)}${best ? ` — ${best.code}` : ''}`;
}

/**
 * `fill`'s error when the device refused to type into its node (INVALID_ARGUMENT of ui_set_text)
 * and the screen shows that node is not editable: what it is and the fields there are, instead
 * of the protocol's hint (which speaks of node ids and observing). Any other error as it was.
 */
export async function fillError(call: ApiCall, locator: LocatorRef, e: unknown): Promise<unknown> {
  const cause = e instanceof NestwrightError ? e.cause : undefined;
  if (!(cause instanceof DeviceError) || cause.tool !== 'ui_set_text' || cause.code !== 'INVALID_ARGUMENT') return e;
  const obs = await locator.driver.watch.observe(call).catch(() => null);
  const node = obs && !obs.tree_missing ? resolveSteps(obs.nodes, locator.steps)[0] : undefined;
  if (!obs || !node || node.editable) return e;
  const fields = obs.nodes.filter((n) => n.editable).slice(0, 5);
  return call.error(
    `${locator.toString()} is ${describeNode(node)}, which is not a text field: fill types into an editable one (a textbox)${
      fields.length
        ? `. The fields on screen:\n${fields.map((f) => `    ${named(obs, f)}`).join('\n')}`
        : ', and there is none on screen.'
    }`,
    { cause: e, code: 'USAGE' },
  );
}

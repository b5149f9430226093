import {
  waitForActionable,
  type ActionabilityIO,
  type Observation,
  type UiNode,
} from '../../device-runtime/protocol/index.js';
import { describeScreen, StrictModeViolationError, TimeoutError } from '../errors.js';
import { resolveSteps } from '../selector.js';
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
  return new TimeoutError(
    call,
    `timeout ${locator.driver.describeTimeout(timeout)} exceeded.\nCall log:\n${formatLog(log)}\nScreen:\n${describeScreen(obs)}`,
    log,
    obs,
  );
}

/** Playwright's call-log layout: a line per wait, its details indented below it. */
function formatLog(log: string[]): string {
  return log.map((l) => (l.startsWith('  ') ? `    - ${l.trimStart()}` : `  - ${l}`)).join('\n');
}

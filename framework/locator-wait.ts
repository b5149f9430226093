import {
  waitForActionable,
  type ActionabilityIO,
  type Observation,
  type UiNode,
} from '../device-runtime/protocol/index.js';
import type { AppDriver } from './driver.js';
import { describeScreen, StrictModeViolationError, TimeoutError } from './errors.js';
import { resolveSteps, type Step } from './selector.js';

/** What the locator's parts need of a {@link Locator} (the class, without importing it). */
export interface LocatorRef {
  readonly driver: AppDriver;
  readonly steps: Step[];
  toString(): string;
}

/** All current matches in one observation (no waiting): one round trip, or more to bring the app back to the front. */
export async function resolveNow(locator: LocatorRef, api: string): Promise<{ nodes: UiNode[]; obs: Observation }> {
  const obs = await locator.driver.watch.observe(api);
  return { nodes: obs.tree_missing ? [] : resolveSteps(obs.nodes, locator.steps), obs };
}

/** How a wait for one actionable node runs: its timeout (ms, already scaled), what it requires, and the call log it writes to. */
export interface WaitFor {
  timeout?: number;
  enabled?: boolean;
  scroll?: boolean;
  log?: string[];
}

/**
 * Wait on this side until the locator names one actionable node (the protocol's loop,
 * device-runtime/protocol/actionability.ts, over tool calls: one round trip per look and per
 * scroll). Healing is told what resolved; a miss is a {@link TimeoutError} with the call log and
 * the last screen, several matches a {@link StrictModeViolationError}.
 */
export async function waitHere(
  locator: LocatorRef,
  api: string,
  opts: WaitFor = {},
): Promise<{ node: UiNode; obs: Observation }> {
  const d = locator.driver;
  const timeout = opts.timeout ?? d.timeout(undefined);
  const log = opts.log ?? [];
  const io: ActionabilityIO = {
    observe: () => d.watch.observe(api),
    scroll: async (direction) =>
      (await d.calls.call(api, 'ui_scroll', { space_id: d.spaceId, direction, amount: 1 })).moved,
    hideKeyboard: async () => void (await d.calls.call(api, 'ui_key', { space_id: d.spaceId, key: 'back' })),
    clock: d.clock,
  };
  const r = await waitForActionable(
    io,
    locator.steps,
    {
      timeoutMs: timeout,
      ...(opts.enabled !== undefined ? { enabled: opts.enabled } : {}),
      ...(opts.scroll !== undefined ? { scroll: opts.scroll } : {}),
    },
    log,
  );
  if (r.status === 'ok') {
    d.options.heal?.resolved(locator, r.node, r.obs);
    return r;
  }
  if (r.status === 'ambiguous') throw new StrictModeViolationError(api, locator.toString(), r.nodes);
  throw waitTimeout(d, api, timeout, log, r.obs);
}

/** The TimeoutError of a wait for a node, in Playwright's layout: the timeout, the call log, the last screen. */
export function waitTimeout(
  d: AppDriver,
  api: string,
  timeout: number,
  log: string[],
  obs: Observation | null,
): TimeoutError {
  return new TimeoutError(
    api,
    `timeout ${d.describeTimeout(timeout)} exceeded.\nCall log:\n${formatLog(log)}\nScreen:\n${describeScreen(obs)}`,
    log,
    obs,
  );
}

/** Playwright's call-log layout: a line per wait, its details indented below it. */
function formatLog(log: string[]): string {
  return log.map((l) => (l.startsWith('  ') ? `    - ${l.trimStart()}` : `  - ${l}`)).join('\n');
}

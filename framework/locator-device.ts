import { toWireSteps, type Observation, type ToolInput, type UiNode } from '../device-runtime/protocol/index.js';
import { DeviceError } from '../device-runtime/client/index.js';
import { NestwrightError, StrictModeViolationError } from './errors.js';
import { waitTimeout, type LocatorRef } from './locator-wait.js';

/**
 * A locator's steps on the `selector_actions` path (docs/protocol.md#extensions): the device
 * waits for the node, acts (or scrolls) and answers with the screen after, in one round trip. A
 * locator that matched nothing (or several) throws as the client-side wait does
 * (locator-wait.ts), so healing and the reports take it from there.
 */

/** The actions that take a selector. */
export type SelectorTool = 'ui_tap' | 'ui_long_press' | 'ui_set_text';

/** What the device did: the node acted on and the snapshots before and after. */
export interface DeviceDone {
  node: UiNode | null;
  before: string | null;
  after: string | null;
}

/** The selector_actions fields every call of a locator carries: its steps and its app instance. */
function selectorArgs(locator: LocatorRef) {
  const d = locator.driver;
  return {
    space_id: d.spaceId,
    selector: toWireSteps(locator.steps),
    app: { package: d.pkg, ...(d.instance ? { instance: d.instance } : {}) },
    max_nodes: 400,
  };
}

/** One action call: wait (enabled, scrolling to find it), act, verify. */
export async function actOnDevice(
  locator: LocatorRef,
  api: string,
  tool: SelectorTool,
  args: Record<string, unknown>,
  timeout: number,
): Promise<DeviceDone> {
  const d = locator.driver;
  const heal = d.options.heal;
  try {
    const r = await d.calls.raw(tool, {
      ...selectorArgs(locator),
      wait: { timeout_ms: timeout, enabled: true, scroll: true },
      observe_before: !!heal,
      ...args,
    } as ToolInput<SelectorTool>);
    // The fingerprint is of what the locator names (as on the client-side path), not of the
    // clickable ancestor a tap may land on.
    const named = r.matched ?? r.node;
    if (named && r.observation_before) heal?.resolved(locator, named, r.observation_before);
    if (r.observation) d.calls.lastSeen = r.observation;
    return { node: r.node, before: r.snapshot_id ?? null, after: r.observation?.snapshot_id ?? null };
  } catch (e) {
    throw await deviceWaitError(locator, api, e, timeout);
  }
}

/** `scrollIntoView`: one ui_scroll with the selector; the device scrolls the list until the node is in view and answers with it and the screen it is on. */
export async function scrollOnDevice(
  locator: LocatorRef,
  api: string,
  timeout: number,
): Promise<{ node: UiNode; obs: Observation }> {
  const d = locator.driver;
  try {
    const r = await d.calls.raw('ui_scroll', {
      ...selectorArgs(locator),
      wait: { timeout_ms: timeout, enabled: false, scroll: true },
    } as ToolInput<'ui_scroll'>);
    if (!r.node || !r.observation)
      throw new NestwrightError(
        api,
        'the runtime answered ui_scroll with a selector without the node or the observation (selector_actions)',
      );
    d.calls.lastSeen = r.observation;
    d.options.heal?.resolved(locator, r.node, r.observation);
    return { node: r.node, obs: r.observation };
  } catch (e) {
    throw await deviceWaitError(locator, api, e, timeout);
  }
}

/** A device-side wait's TIMEOUT or AMBIGUOUS_TARGET as the client-side wait throws it (with its log and screen); other errors translated. */
async function deviceWaitError(locator: LocatorRef, api: string, e: unknown, timeout: number): Promise<unknown> {
  const d = locator.driver;
  if (e instanceof DeviceError && (e.code === 'TIMEOUT' || e.code === 'AMBIGUOUS_TARGET')) {
    const details = (e.details ?? {}) as { log?: string[]; observation?: Observation | null; matches?: UiNode[] };
    const obs = details.observation ?? null;
    if (obs) d.calls.lastSeen = obs;
    return e.code === 'AMBIGUOUS_TARGET'
      ? new StrictModeViolationError(api, locator.toString(), details.matches ?? [])
      : waitTimeout(d, api, timeout, details.log ?? [], obs);
  }
  return d.calls.translate(api, e);
}

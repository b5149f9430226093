import type { Observation, Took, UiNode } from '../../device-runtime/protocol/index.js';
import type { AppDriver } from './driver.js';
import type { Step } from './selector.js';
import type { ApiCall } from './api-call.js';

/**
 * The actuator: the one seam between a locator's action pipeline (core/action.ts: the step,
 * healing, effect verification, the trajectory record) and where the waiting happens. Two
 * implementations, chosen once per driver from what the runtime advertises (core/actuators.ts):
 * - device-side (actuator-device.ts): the runtime's `selector_actions` extension waits for the
 *   node, acts and verifies next to the screen, in one round trip;
 * - client-side (actuator-client.ts): the protocol's actionability loop over tool calls, then
 *   the action on the node and the looks that check its effect.
 * Either answers the same {@link Attempt}, and a locator that matched nothing (or several) fails
 * the same way (TimeoutError with the call log and the screen, StrictModeViolationError), so
 * nothing above knows which one ran.
 */
export interface Actuator {
  /** Where the waiting runs, for messages and tests. */
  readonly where: 'device' | 'client';
  /** Wait (at most `wait.timeout` ms) for the locator's one actionable node, act on it, check the effect. */
  act(
    call: ApiCall,
    locator: LocatorRef,
    action: ActionSpec,
    wait: { timeout: number; observeBefore: boolean },
  ): Promise<Attempt>;
  /** Scroll the screen's list until the locator's node is in view (not requiring it enabled): the node and the screen it is on. */
  scrollIntoView(call: ApiCall, locator: LocatorRef): Promise<{ node: UiNode; obs: Observation }>;
  /**
   * Wait in one round trip until the locator names `count` nodes (`gone`: until it stops), for a
   * matcher; absent on the client side, where the matcher polls observations itself.
   */
  readonly waitForCount?: (call: ApiCall, locator: LocatorRef, count: number, gone: boolean) => Promise<CountWait>;
}

/** What the locator's parts need of a {@link Locator} (the class, without importing it). */
export interface LocatorRef {
  readonly driver: AppDriver;
  readonly steps: Step[];
  toString(): string;
}

/** The actions that take a selector (on the device) or a node (here). */
export type SelectorTool = 'ui_tap' | 'ui_long_press' | 'ui_set_text';

/** One action: the tool, its own arguments (`text`, `duration_ms`), and what counts as its effect. */
export interface ActionSpec {
  tool: SelectorTool;
  args: Record<string, unknown>;
  took: Took;
}

/** One attempt at an action: what was acted on, the snapshots around it, and whether it showed an effect. */
export interface Attempt {
  /** The node acted on (the device may act on the clickable ancestor of the one named). */
  node: UiNode | null;
  /** What the locator named and the look it was found in: healing's fingerprint, when known. */
  named: { node: UiNode; obs: Observation } | null;
  /** The snapshot acted on. */
  before: string | null;
  /** The screen after the action, when seen. */
  after: Observation | null;
  /** The screen showed an effect (or the device says it did). */
  effect: boolean;
  /** How many times the action was sent (the device repeats a dropped one itself). */
  attempts: number;
}

/** What a device-side count wait answers: whether it held, the last look, the matches in it. */
export interface CountWait {
  matched: boolean;
  obs: Observation | null;
  matches: UiNode[];
}

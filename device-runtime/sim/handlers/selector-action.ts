import {
  fieldHolds,
  fromWireSteps,
  screenChanged,
  settle,
  toolError,
  waitForActionable,
  type Actionable,
  type ActionResult,
  type ActionabilityIO,
  type Observation,
  type ObserveSince,
  type Step,
  type Took,
  type ToolError,
  type UiNode,
  type WireStep,
} from '../../protocol/index.js';
import type { CallContext } from '../core/call-context.js';
import { SimError } from '../core/sim-error.js';
import { pressKey, scroll } from '../ui/gestures.js';
import type { DeviceSpace, SpaceLookup } from './types.js';
import { syncWeb } from './web-sync.js';

/** How the extension brings the app acted on to the front: a space_launch through the runtime (leases, audit). */
export interface LaunchHost {
  call(name: 'space_launch', args: unknown, ctx: CallContext): Promise<{ ok: true } | { ok: false; error: ToolError }>;
}

/** The `selector_actions` arguments of ui_tap, ui_long_press and ui_set_text. */
export interface SelectorArgs {
  space_id: string;
  selector?: WireStep[];
  wait?: { timeout_ms: number; enabled: boolean; scroll: boolean };
  app?: { package: string; instance?: string };
  max_nodes: number;
  observe_before?: boolean;
  /** Extension observe_diff: the observation after is answered as what changed since this one. */
  since?: ObserveSince;
}

/** How many times an action that shows no effect is performed (a device may drop input). */
const ATTEMPTS = 3;
/** How long (ms) a repeat may wait for its node when the action's deadline has passed. */
const REPEAT_WAIT_MS = 1000;

/**
 * The `selector_actions` extension: wait for the target with the loop the framework runs
 * (protocol/actionability.ts), act on the node from that very snapshot, verify, and answer with
 * the observation after — one round trip for the caller.
 *
 * Latency, as a runtime beside the screen pays it: the call pays the channel's latency once (in
 * the handler); the first look reads the tree the accessibility service already holds, and
 * every later look (a wait, the check after the action) pays one tree dump, the channel latency
 * again. The runtime knows whether anything is moving (transitions, animations), so a node found
 * on a still screen is stable at the first look. An action on a node that is already there so
 * costs a bare action plus one observation (the check after it).
 */
export async function actOnSelector(
  rt: SpaceLookup & LaunchHost,
  ctx: CallContext,
  args: SelectorArgs,
  tool: 'ui_tap' | 'ui_long_press' | 'ui_set_text',
  act: (target: { node_id: string; snapshot_id: string }) => { method: 'node' | 'gesture'; node: UiNode | null },
  text?: string,
): Promise<ActionResult> {
  const space = rt.space(args.space_id);
  const screen = space.screen;
  const steps: Step[] = fromWireSteps(args.selector!);
  const wait = args.wait ?? { timeout_ms: 5_000, enabled: true, scroll: true };
  const io = deviceIO(rt, ctx, space, args.app, tool);
  const log: string[] = [];
  const deadline = screen.env.clock.now() + wait.timeout_ms;
  const took: Took = tool === 'ui_set_text' ? fieldHolds(steps, text ?? '') : screenChanged;
  let before: Observation | undefined;
  for (let attempts = 0; ;) {
    // A repeat of an action that showed no effect still gets a short wait when the deadline has passed.
    const floor = attempts > 0 ? REPEAT_WAIT_MS * screen.env.faults.timeoutScale : 1;
    const found = await waitForActionable(
      io,
      steps,
      { timeoutMs: Math.max(floor, deadline - screen.env.clock.now()), enabled: wait.enabled, scroll: wait.scroll },
      log,
    );
    if (found.status !== 'ok')
      throw unresolved(
        tool,
        found,
        wait.timeout_ms,
        args.max_nodes,
        log,
        "waiting for the selector's node",
        'Narrow the selector (a filter, nth) or act on one of details.matches by node_id.',
      );
    before ??= found.obs;
    let outcome;
    try {
      // Acted on in the very snapshot it was found in (nothing has run since): no second render.
      screen.pin(found.obs.snapshot_id);
      outcome = act({ node_id: found.node.id, snapshot_id: found.obs.snapshot_id });
    } catch (e) {
      // The screen changed between the look and the action: look again.
      if (
        e instanceof SimError &&
        (e.envelope.code === 'SNAPSHOT_STALE' || e.envelope.code === 'NODE_NOT_FOUND') &&
        screen.env.clock.now() < deadline
      ) {
        log.push(`  the screen changed before the action (${e.envelope.code}); resolving again`);
        continue;
      }
      throw e;
    }
    attempts++;
    const after = await settle(io.observe, found.obs, found.node, took, screen.env.clock);
    // A dropped input gets its repeats even when the wait before it took the whole timeout.
    if (after.effect || attempts >= ATTEMPTS) {
      return {
        ok: true,
        method: outcome.method,
        node: outcome.node ?? found.node,
        matched: found.node,
        snapshot_id: before.snapshot_id,
        observation: afterAction(screen, ctx, args, trim(after.obs, args.max_nodes)),
        ...(args.observe_before ? { observation_before: trim(before, args.max_nodes) } : {}),
        effect: after.effect,
        attempts,
        log,
      };
    }
    log.push('  no effect on screen after the action; repeating it (the device may have dropped the input)');
  }
}

/**
 * The observation after an action as the caller asked for it: whole, or (extension observe_diff,
 * given `since`) what changed since the session's last observation taken with the same
 * max_nodes, which becomes its base; a `since` that does not name it gets the whole.
 */
function afterAction(
  screen: DeviceSpace['screen'],
  ctx: CallContext,
  args: SelectorArgs,
  obs: Observation,
): Observation {
  if (args.since === undefined) return obs;
  return screen.diffBases.answer(ctx.sessionId, args.since, `compact/${args.max_nodes}`, obs, 'whole');
}

/**
 * What the shared wait loop needs, next to the screen: looks at the app named (brought to the
 * front first; the first look reads the tree the service holds, every later one pays a dump),
 * scrolls, the back key, and whether anything is moving.
 */
export function deviceIO(
  rt: SpaceLookup & LaunchHost,
  ctx: CallContext,
  space: DeviceSpace,
  app: { package: string; instance?: string } | undefined,
  tool: string,
): ActionabilityIO {
  const screen = space.screen;
  let looks = 0;
  return {
    observe: async () => {
      if (ctx.signal?.aborted) throw new SimError(toolError('CANCELLED', `${tool}: cancelled by the caller`));
      if (looks++ > 0) await screen.latency();
      if (app) await bringToFront(rt, ctx, space, app, tool);
      await syncWeb(space);
      return screen.observe({ max_nodes: Infinity, detail: 'compact' });
    },
    scroll: async (direction) => scroll(screen, { direction, amount: 1 }),
    hideKeyboard: async () => pressKey(screen, 'back', () => space.sendToBack()),
    still: () => screen.still(),
    clock: screen.env.clock,
  };
}

/** The error of a wait that found several nodes (AMBIGUOUS_TARGET) or none in time (TIMEOUT), with its log and last screen. */
export function unresolved(
  tool: string,
  found: Exclude<Actionable, { status: 'ok' }>,
  timeoutMs: number,
  maxNodes: number,
  log: string[],
  waitingFor: string,
  narrow: string,
): SimError {
  if (found.status === 'ambiguous') {
    return new SimError(
      toolError('AMBIGUOUS_TARGET', `${tool}: the selector matches ${found.nodes.length} nodes; it must name one`, {
        hint: narrow,
        details: { matches: found.nodes.slice(0, 10), observation: trim(found.obs, maxNodes), log },
      }),
    );
  }
  return new SimError(
    toolError('TIMEOUT', `${tool}: timeout ${timeoutMs}ms exceeded ${waitingFor}`, {
      hint: 'details.log says what was waited for; details.observation is the last screen.',
      details: { log, observation: found.obs ? trim(found.obs, maxNodes) : null },
    }),
  );
}

/** Bring the app instance acted on to the front, as space_launch does; a crashed one is APP_CRASHED. */
export async function bringToFront(
  rt: LaunchHost,
  ctx: CallContext,
  space: DeviceSpace,
  app: { package: string; instance?: string },
  tool: string,
): Promise<void> {
  const inst = space.instance(app.package, app.instance ?? '0');
  // In front with an activity on screen (a window of another package over it is part of its screen); in front with none left (its last activity finished) shows no app: launch it again.
  if (space.foreground === inst && inst.top) return;
  if (inst.status === 'crashed') {
    throw new SimError(
      toolError('APP_CRASHED', `${tool}: ${inst.key} crashed: ${inst.crashReason ?? 'the process died'}`, {
        details: { crash_reason: inst.crashReason },
      }),
    );
  }
  const out = await rt.call(
    'space_launch',
    { space_id: space.id, package: app.package, ...(app.instance ? { instance: app.instance } : {}) },
    ctx,
  );
  if (!out.ok) throw new SimError(out.error);
}

export function trim(obs: Observation, max: number): Observation {
  return obs.nodes.length <= max ? obs : { ...obs, nodes: obs.nodes.slice(0, max), truncated: true };
}

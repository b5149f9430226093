import {
  fromWireSteps,
  poll,
  resolveSteps,
  toolError,
  waitForActionable,
  formatSteps,
  type ActionabilityIO,
  type Observation,
  type Step,
  type ToolArgs,
  type ToolResult,
  type UiNode,
} from '../../protocol/index.js';
import type { CallContext } from '../core/call-context.js';
import { SimError } from '../core/sim-error.js';
import { pressKey, scroll } from '../ui/gestures.js';
import { bringToFront, trim, type LaunchHost } from './selector-action.js';
import type { DeviceSpace, SpaceLookup } from './types.js';

/**
 * The `selector_actions` forms of ui_scroll and ui_wait_for: the waits the framework runs for
 * `locator.scrollIntoView()` and for `expect(locator).toBeVisible()`/`toBeHidden()`/`toHaveCount()`,
 * run here next to the screen with the protocol's engine (protocol/selector.ts, protocol/actionability.ts),
 * so each is one round trip for the caller.
 *
 * Latency, as in selector-action.ts: the call pays the channel once (in the handler); the first
 * look reads the tree the accessibility service holds; every later look pays a tree dump.
 */

type Host = SpaceLookup & LaunchHost;

/** Looks at the screen of the app named (brought to the front first, a crash raised), as the framework's observe does. */
function looker(rt: Host, ctx: CallContext, space: DeviceSpace, app: { package: string; instance?: string } | undefined, tool: string): () => Promise<Observation> {
  let looks = 0;
  return async () => {
    if (ctx.signal?.aborted) throw new SimError(toolError('CANCELLED', `${tool}: cancelled by the caller`));
    if (looks++ > 0) await space.screen.latency();
    if (app) await bringToFront(rt, ctx, space, app, tool);
    return space.screen.observe({ max_nodes: 5000, detail: 'compact' });
  };
}

/** ui_scroll with a selector: scroll the list until the selector names one visible, stable node. */
export async function scrollToSelector(rt: Host, ctx: CallContext, args: ToolArgs<'ui_scroll'>): Promise<ToolResult<'ui_scroll'>> {
  const space = rt.space(args.space_id);
  const screen = space.screen;
  const steps: Step[] = fromWireSteps(args.selector!);
  const wait = args.wait ?? { timeout_ms: 5_000, enabled: false, scroll: true };
  let moved = false;
  const io: ActionabilityIO = {
    observe: looker(rt, ctx, space, args.app, 'ui_scroll'),
    scroll: async (direction) => {
      const m = scroll(screen, { direction, amount: 1 });
      moved ||= m;
      return m;
    },
    hideKeyboard: async () => pressKey(screen, 'back', () => space.sendToBack()),
    still: () => screen.still(),
    clock: screen.env.clock,
  };
  const log: string[] = [];
  const found = await waitForActionable(io, steps, { timeoutMs: wait.timeout_ms, enabled: wait.enabled, scroll: wait.scroll }, log);
  if (found.status === 'ambiguous') {
    throw new SimError(
      toolError('AMBIGUOUS_TARGET', `ui_scroll: the selector matches ${found.nodes.length} nodes; it must name one`, {
        hint: 'Narrow the selector (a filter, nth).',
        details: { matches: found.nodes.slice(0, 10), observation: trim(found.obs, args.max_nodes), log },
      }),
    );
  }
  if (found.status === 'timeout') {
    throw new SimError(
      toolError('TIMEOUT', `ui_scroll: timeout ${wait.timeout_ms}ms exceeded scrolling to the selector's node`, {
        hint: 'details.log says what was waited for; details.observation is the last screen.',
        details: { log, observation: found.obs ? trim(found.obs, args.max_nodes) : null },
      }),
    );
  }
  return { ok: true, moved, node: found.node, snapshot_id: found.obs.snapshot_id, observation: trim(found.obs, args.max_nodes), log };
}

/**
 * ui_wait_for with a selector: look until the selector names exactly `count` nodes (or, with
 * `gone`, until it no longer does) and the other conditions given hold. Not an error at the
 * timeout: `matched: false` with the last look, as every ui_wait_for answers.
 */
export async function waitForSelector(rt: Host, ctx: CallContext, args: ToolArgs<'ui_wait_for'>, idle: () => boolean): Promise<ToolResult<'ui_wait_for'>> {
  const space = rt.space(args.space_id);
  const clock = space.screen.env.clock;
  const steps: Step[] = fromWireSteps(args.selector!);
  const want = args.count ?? 1;
  const observe = looker(rt, ctx, space, args.app, 'ui_wait_for');
  const start = clock.now();
  const log = [`waiting for ${formatSteps(steps)} ${args.gone ? 'not ' : ''}to name ${want === 1 ? 'one node' : `${want} nodes`}`];
  let last: { obs: Observation; nodes: UiNode[] } | null = null;
  const holds = (obs: Observation, nodes: UiNode[]) =>
    !obs.tree_missing &&
    (nodes.length === want) !== args.gone &&
    (args.package === undefined || obs.package === args.package) &&
    (args.activity === undefined || obs.activity === args.activity) &&
    (!args.idle || idle());
  const r = await poll(
    args.timeout_ms,
    async () => {
      const obs = await observe();
      const nodes = obs.tree_missing ? [] : resolveSteps(obs.nodes, steps);
      last = { obs, nodes };
      const line = `  ${obs.tree_missing ? 'accessibility tree missing (a transition)' : `${nodes.length} match${nodes.length === 1 ? '' : 'es'}`}`;
      if (log[log.length - 1] !== line) log.push(line);
      return holds(obs, nodes) ? { done: true, value: true } : { done: false };
    },
    clock,
  );
  const seen = last as { obs: Observation; nodes: UiNode[] } | null;
  return {
    matched: 'value' in r,
    elapsed_ms: Math.round(clock.now() - start),
    snapshot_id: seen?.obs.snapshot_id ?? null,
    count: seen?.nodes.length ?? 0,
    matches: seen?.nodes ?? [],
    ...(seen ? { observation: trim(seen.obs, args.max_nodes) } : {}),
    log,
  };
}

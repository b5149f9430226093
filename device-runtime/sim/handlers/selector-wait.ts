import {
  fromWireSteps,
  poll,
  resolveSteps,
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
import { deviceIO, trim, unresolved, type LaunchHost } from './selector-action.js';
import type { SpaceLookup } from './types.js';

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

/** ui_scroll with a selector: scroll the list until the selector names one visible, stable node. */
export async function scrollToSelector(
  rt: Host,
  ctx: CallContext,
  args: ToolArgs<'ui_scroll'>,
): Promise<ToolResult<'ui_scroll'>> {
  const space = rt.space(args.space_id);
  const steps: Step[] = fromWireSteps(args.selector!);
  const wait = args.wait ?? { timeout_ms: 5_000, enabled: false, scroll: true };
  let moved = false;
  const base = deviceIO(rt, ctx, space, args.app, 'ui_scroll');
  const io: ActionabilityIO = {
    ...base,
    scroll: async (direction) => {
      const m = await base.scroll(direction);
      moved ||= m;
      return m;
    },
  };
  const log: string[] = [];
  const found = await waitForActionable(
    io,
    steps,
    { timeoutMs: wait.timeout_ms, enabled: wait.enabled, scroll: wait.scroll },
    log,
  );
  if (found.status !== 'ok')
    throw unresolved(
      'ui_scroll',
      found,
      wait.timeout_ms,
      args.max_nodes,
      log,
      "scrolling to the selector's node",
      'Narrow the selector (a filter, nth).',
    );
  return {
    ok: true,
    moved,
    node: found.node,
    snapshot_id: found.obs.snapshot_id,
    observation: trim(found.obs, args.max_nodes),
    log,
  };
}

/**
 * ui_wait_for with a selector: look until the selector names exactly `count` nodes (or, with
 * `gone`, until it no longer does) and the other conditions given hold. Not an error at the
 * timeout: `matched: false` with the last look, as every ui_wait_for answers.
 */
export async function waitForSelector(
  rt: Host,
  ctx: CallContext,
  args: ToolArgs<'ui_wait_for'>,
  idle: () => boolean,
): Promise<ToolResult<'ui_wait_for'>> {
  const space = rt.space(args.space_id);
  const clock = space.screen.env.clock;
  const steps: Step[] = fromWireSteps(args.selector!);
  const want = args.count ?? 1;
  const observe = deviceIO(rt, ctx, space, args.app, 'ui_wait_for').observe;
  const start = clock.now();
  const log = [
    `waiting for ${formatSteps(steps)} ${args.gone ? 'not ' : ''}to name ${want === 1 ? 'one node' : `${want} nodes`}`,
  ];
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

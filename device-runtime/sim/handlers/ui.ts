import { toolError } from '../../protocol/index.js';
import { SimError } from '../core/sim-error.js';
import { longPress, pressKey, scroll, setText, swipe, tap } from '../ui/gestures.js';
import { findNodes, textOnScreen } from '../ui/query.js';
import { screenshotFor, SYSTEM_BARS } from '../ui/screenshot.js';
import { actOnSelector, type LaunchHost } from './selector-action.js';
import { scrollToSelector, waitForSelector } from './selector-wait.js';
import type { DeviceSpace, HandlerGroup, SpaceLookup } from './types.js';
import { syncWeb } from './web-sync.js';

/**
 * The UI tools need the space they act in (everything else is on its screen), and, for the
 * selector_actions extension, a way to bring the app acted on to the front (space_launch).
 */
export type UiHost = SpaceLookup & LaunchHost & { readonly options: { readonly withoutExtensions: readonly string[] } };

type UiTools =
  | 'ui_observe'
  | 'ui_screenshot'
  | 'ui_tap'
  | 'ui_long_press'
  | 'ui_swipe'
  | 'ui_scroll'
  | 'ui_set_text'
  | 'ui_key'
  | 'ui_wait_for'
  | 'ui_find';

/** How often ui_wait_for looks again, in clock ms (a real runtime polls the tree at ~10–20 Hz). */
const WAIT_POLL_MS = 50;

function leaveScreen(space: DeviceSpace): void {
  space.sendToBack();
}

/**
 * Every UI call pays the latency of the space's control channel first (docs/protocol.md#channels),
 * and sees its WebViews' pages as they are now (`pictures`: drawn again for a screenshot).
 */
async function channelFor(space: DeviceSpace, pictures = false): Promise<DeviceSpace['screen']> {
  await space.screen.latency();
  await syncWeb(space, pictures);
  return space.screen;
}

/** An action's arguments as this runtime reads them: without observe_diff, `since` is ignored (as an older runtime does). */
function diffable<A extends { since?: unknown }>(args: A, rt: UiHost): A {
  return rt.options.withoutExtensions.includes('observe_diff') ? { ...args, since: undefined } : args;
}

export const uiHandlers: HandlerGroup<UiTools, UiHost> = {
  ui_observe: async (args, rt, ctx) => {
    const screen = await channelFor(rt.space(args.space_id), args.include_screenshot);
    const obs = screen.observe({ max_nodes: args.max_nodes, detail: args.detail });
    if (args.include_screenshot) obs.screenshot = `sha256:${screenshotFor(screen, 1).sha256}`;
    // Extension observe_diff: a runtime without it ignores `since`, as an older one does.
    if (args.since === undefined || rt.options.withoutExtensions.includes('observe_diff')) return obs;
    return screen.diffBases.answer(ctx.sessionId, args.since, `${args.detail}/${args.max_nodes}`, obs);
  },

  ui_screenshot: async (args, rt) => {
    const screen = await channelFor(rt.space(args.space_id), true);
    const shot = screenshotFor(screen, args.scale);
    return {
      mime: 'image/png' as const,
      data: shot.png.toString('base64'),
      width: shot.width,
      height: shot.height,
      sha256: shot.sha256,
      snapshot_id: shot.snapshotId,
      regions: SYSTEM_BARS,
    };
  },

  ui_tap: async (args, rt, ctx) => {
    const screen = await channelFor(rt.space(args.space_id));
    if (args.selector) return actOnSelector(rt, ctx, diffable(args, rt), 'ui_tap', (target) => tap(screen, target));
    return { ok: true as const, ...tap(screen, args) };
  },

  ui_long_press: async (args, rt, ctx) => {
    const screen = await channelFor(rt.space(args.space_id));
    if (args.selector)
      return actOnSelector(rt, ctx, diffable(args, rt), 'ui_long_press', (target) => longPress(screen, target));
    return { ok: true as const, ...longPress(screen, args) };
  },

  ui_swipe: async (args, rt) => {
    const screen = await channelFor(rt.space(args.space_id));
    swipe(screen, args.from, args.to, args.duration_ms);
    return { ok: true as const };
  },

  ui_scroll: async (args, rt, ctx) => {
    const screen = await channelFor(rt.space(args.space_id));
    if (args.selector) return scrollToSelector(rt, ctx, args);
    return { ok: true as const, moved: scroll(screen, { ...args, direction: args.direction! }) };
  },

  ui_set_text: async (args, rt, ctx) => {
    const screen = await channelFor(rt.space(args.space_id));
    if (args.selector)
      return actOnSelector(
        rt,
        ctx,
        diffable(args, rt),
        'ui_set_text',
        (target) => setText(screen, target, args.text, args.submit),
        args.text,
      );
    const target =
      args.node_id !== undefined
        ? { node_id: args.node_id, ...(args.snapshot_id ? { snapshot_id: args.snapshot_id } : {}) }
        : { bounds: args.bounds! };
    return { ok: true as const, ...setText(screen, target, args.text, args.submit) };
  },

  ui_key: async (args, rt) => {
    const space = rt.space(args.space_id);
    const screen = await channelFor(space);
    pressKey(screen, args.key, () => leaveScreen(space));
    return { ok: true as const };
  },

  ui_wait_for: async (args, rt, ctx) => {
    const space = rt.space(args.space_id);
    const screen = await channelFor(space);
    if (args.selector) return waitForSelector(rt, ctx, args, () => screen.idle());
    const clock = screen.env.clock;
    const start = clock.now();
    for (;;) {
      // The caller cancelled (notifications/cancelled) or its connection dropped: stop polling
      // within one poll interval instead of observing for the rest of the timeout.
      if (ctx.signal?.aborted) {
        throw new SimError(
          toolError('CANCELLED', `ui_wait_for: cancelled by the caller after ${Math.round(clock.now() - start)} ms`),
        );
      }
      await syncWeb(space);
      const obs = screen.observe({ max_nodes: Infinity, detail: 'compact' });
      const textHit = args.text === undefined || textOnScreen(obs.nodes, args.text);
      const matched =
        !obs.tree_missing &&
        (args.text === undefined || textHit !== args.gone) &&
        (args.package === undefined || obs.package === args.package) &&
        (args.activity === undefined || obs.activity === args.activity) &&
        (!args.idle || screen.idle());
      const elapsed = clock.now() - start;
      if (matched || elapsed >= args.timeout_ms) {
        return { matched, elapsed_ms: Math.round(elapsed), snapshot_id: obs.snapshot_id };
      }
      await clock.sleep(Math.min(WAIT_POLL_MS, args.timeout_ms - elapsed));
    }
  },

  ui_find: async (args, rt) => {
    const screen = await channelFor(rt.space(args.space_id));
    const obs = screen.observe({ max_nodes: Infinity, detail: 'compact' });
    const nodes = findNodes(obs.nodes, args);
    return { snapshot_id: obs.snapshot_id, nodes };
  },
};

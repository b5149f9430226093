import { toolError } from '../../protocol/index.js';
import { SimError } from '../core/sim-error.js';
import type { SimSpace } from '../core/space.js';
import type { HandlerGroup } from './types.js';

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

function leaveScreen(space: SimSpace): void {
  space.sendToBack();
}

export const uiHandlers: HandlerGroup<UiTools> = {
  ui_observe: (args, rt) => {
    const space = rt.space(args.space_id);
    const obs = space.screen.observe({ max_nodes: args.max_nodes, detail: args.detail });
    space.screen.remember(obs);
    return obs;
  },

  ui_screenshot: () => {
    throw new SimError(toolError('NOT_SUPPORTED', 'ui_screenshot is not offered by this runtime yet', { hint: 'Use ui_observe.' }));
  },

  ui_tap: (args, rt) => {
    const space = rt.space(args.space_id);
    return { ok: true as const, ...space.screen.tap(args) };
  },

  ui_long_press: (args, rt) => {
    const space = rt.space(args.space_id);
    const hit = space.screen.resolve(args);
    if (hit?.view.onLongClick && hit.node.enabled) hit.view.onLongClick();
    return { ok: true as const, method: 'node' as const, node: hit?.node ?? null };
  },

  ui_swipe: (args, rt) => {
    rt.space(args.space_id);
    return { ok: true as const };
  },

  ui_scroll: (args, rt) => {
    rt.space(args.space_id);
    return { ok: true as const, moved: false };
  },

  ui_set_text: (args, rt) => {
    const space = rt.space(args.space_id);
    const node = space.screen.setText(args, args.text);
    return { ok: true as const, method: 'node' as const, node };
  },

  ui_key: (args, rt) => {
    const space = rt.space(args.space_id);
    space.screen.key(args.key, () => leaveScreen(space));
    return { ok: true as const };
  },

  ui_wait_for: async (args, rt) => {
    const space = rt.space(args.space_id);
    const start = Date.now();
    for (;;) {
      const obs = space.screen.observe({ max_nodes: 5000, detail: 'compact' });
      const textHit = args.text === undefined || obs.nodes.some((n) => n.text?.includes(args.text!) || n.desc?.includes(args.text!));
      const matched =
        (args.text === undefined || textHit !== args.gone) &&
        (args.package === undefined || obs.package === args.package) &&
        (args.activity === undefined || obs.activity === args.activity);
      const elapsed = Date.now() - start;
      if (matched || elapsed >= args.timeout_ms) {
        space.screen.remember(obs);
        return { matched, elapsed_ms: elapsed, snapshot_id: obs.snapshot_id };
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  },

  ui_find: (args, rt) => {
    const space = rt.space(args.space_id);
    const obs = space.screen.observe({ max_nodes: 5000, detail: 'compact' });
    const nodes = obs.nodes.filter(
      (n) =>
        (args.text === undefined || n.text === args.text) &&
        (args.desc === undefined || n.desc === args.desc) &&
        (args.res_id === undefined || n.res_id === args.res_id || n.res_id?.endsWith(`:id/${args.res_id}`)) &&
        (args.role === undefined || n.role === args.role),
    );
    return { snapshot_id: obs.snapshot_id, nodes };
  },
};

import { toolError } from '../../protocol/index.js';
import { SimError } from '../core/sim-error.js';
import type { HandlerGroup, SpaceLookup } from './types.js';
import { syncWeb } from './web-sync.js';

/** webview_list needs the space and its instance; the WebViews' pages are on the screen's engine. */
export type WebViewHost = SpaceLookup;

/**
 * The `webview` extension: an instance's WebViews, as the pages the simulator renders them with
 * in Chromium (sim/web/). Their DevTools endpoint is the browser's, reachable on loopback;
 * `target_id` names the page among its targets.
 */
export const webviewHandlers: HandlerGroup<'webview_list', WebViewHost> = {
  webview_list: async (args, rt) => {
    const space = rt.space(args.space_id);
    space.app(args.package);
    const inst = space.instance(args.package, args.instance ?? '0');
    // A WebView exists once its activity is laid out, as on a device: compose the screen as it is
    // now (its WebViews' pages are made as a frame is composed), not only when something looked.
    space.screen.frame();
    await syncWeb(space);
    if (inst.status === 'crashed') {
      throw new SimError(
        toolError('APP_CRASHED', `webview_list: ${inst.key} crashed: ${inst.crashReason ?? 'the process died'}`, {
          details: { crash_reason: inst.crashReason },
        }),
      );
    }
    const web = space.screen.env.web;
    return { webviews: web.list(space.id, inst.key, await web.endpoint()) };
  },
};

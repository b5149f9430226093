import { describeIssues, TOOLS } from '../../../device-runtime/protocol/index.js';
import { expectThat, type Check } from '../check.js';
import { SHOP } from '../fixtures.js';
import { describeAnswer } from '../session.js';

/** How long the check waits for the Shop's help WebView to be listed, ms. */
const WAIT_MS = 15_000;

/**
 * Extension `webview`: webview_list answers the instance's WebViews in the protocol's shape, each
 * either with a DevTools endpoint or socket, or with the reason it has none; an endpoint given
 * answers the DevTools protocol's `/json/version` and lists the page's target. Not advertised:
 * NOT_SUPPORTED (or UNKNOWN_TOOL), so a client fails `app.webview()` naming the extension.
 */
export const webviewCheck: Check = {
  id: 'extensions.webview',
  group: 'extensions',
  title: "webview: webview_list answers the instance's WebViews and where each serves DevTools",
  section: 'extension webview (not in the design): docs/protocol.md#webview_list',
  expects:
    'advertised: webview_list {package: shop} on its help screen answers webviews[] (schema-valid), each with devtools or an `unavailable` reason, and a devtools endpoint answers GET /json/version and /json/list with the target; not advertised: NOT_SUPPORTED',
  fix: "List the instance's WebViews with their bounds and DevTools endpoint (or the device's webview_devtools_remote_<pid> socket), say in `unavailable` why one cannot be driven, or leave webview out of runtime_info.extensions and answer NOT_SUPPORTED.",
  required: true,
  async run(ctx) {
    const space_id = await ctx.space();
    const advertised = ((ctx.info?.extensions as string[] | undefined) ?? []).includes('webview');
    if (!advertised) {
      const a = await ctx.main.call('webview_list', { space_id, package: SHOP });
      expectThat(
        !a.ok && (a.error.code === 'NOT_SUPPORTED' || a.error.code === 'UNKNOWN_TOOL'),
        `not advertised, yet webview_list answered ${describeAnswer(a)}`,
      );
      return { status: 'pass', sent: [], received: describeAnswer(a) };
    }
    await ctx.main.ok('space_stop', { space_id, package: SHOP });
    // The Shop's help screen holds a WebView on the simulator; a device's fixture may have none.
    const launched = await ctx.main.call('space_launch', { space_id, package: SHOP, activity: '.HelpActivity' });
    const deadline = Date.now() + WAIT_MS;
    let listed: ReturnType<typeof TOOLS.webview_list.result.parse>['webviews'] = [];
    for (;;) {
      const a = await ctx.main.call('webview_list', { space_id, package: SHOP });
      expectThat(a.ok, `advertised, yet webview_list answered ${describeAnswer(a)}`);
      const r = TOOLS.webview_list.result.safeParse(a.body);
      expectThat(r.success, r.success ? '' : describeIssues(r.error, 'result'));
      listed = r.data.webviews;
      for (const w of listed)
        expectThat(
          w.devtools !== null || !!w.unavailable,
          `WebView ${w.id} has neither devtools nor an \`unavailable\` reason`,
        );
      const ready = listed.some((w) => w.devtools?.endpoint || w.devtools?.socket);
      const settled = listed.length > 0 && listed.every((w) => w.devtools || !/still/.test(w.unavailable ?? ''));
      if (ready || settled || !launched.ok || Date.now() >= deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const served = listed.filter((w) => w.devtools?.endpoint && w.devtools.target_id);
    for (const w of served) {
      const base = w.devtools!.endpoint!.replace(/^ws:/, 'http:').replace(/\/devtools\/.*$/, '');
      const version = (await (await fetch(`${base}/json/version`)).json()) as Record<string, unknown>;
      expectThat(
        typeof version.webSocketDebuggerUrl === 'string' || typeof version.Browser === 'string',
        `${base}/json/version answered no DevTools version: ${JSON.stringify(version).slice(0, 200)}`,
      );
      const targets = (await (await fetch(`${base}/json/list`)).json()) as Array<{ id?: string }>;
      expectThat(
        targets.some((t) => t.id === w.devtools!.target_id),
        `${base}/json/list does not list the WebView's target ${w.devtools!.target_id}`,
      );
    }
    await ctx.main.call('space_stop', { space_id, package: SHOP });
    const summary = listed.map((w) => `${w.url || w.id}: ${w.devtools ? 'devtools' : w.unavailable}`).join('; ');
    return { status: 'pass', sent: [], received: `${listed.length} WebView(s)${summary ? `: ${summary}` : ''}` };
  },
};

import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ChannelSchema } from '../common.js';

/** The protocol version this package speaks (`runtime_info.protocol_version`). */
export const PROTOCOL_VERSION = '1.0';

/**
 * Names of extensions beyond the NestSpace design. A client checks `runtime_info.extensions`
 * before relying on one, so it still works with a real device that lacks it.
 */
export const ExtensionSchema = z.enum([
  'instance', // `instance` on space_launch/space_stop/app_intent: many copies of one app
  'clear_data', // `clear_data` on space_stop
  'snapshot_check', // actions with snapshot_id answer SNAPSHOT_STALE
  'keyboard', // `keyboard` on observations: the soft keyboard's window, or null
  'timing', // `timing` in runtime_info: how much slower than a phone this runtime runs
  'skill_evidence', // skill_run answers each step's evidence (node, snapshots before and after)
  'local_agent', // task_run runs the shared act loop (device-runtime/protocol/agent); task_status answers its record
  'selector_actions', // `selector` on ui_tap/ui_long_press/ui_set_text/ui_scroll/ui_wait_for: wait, act and verify on the device
  'screen_regions', // `regions` on ui_screenshot: where the status bar, navigation bar, caret and scrollbars are
  'observe_diff', // `since` on ui_observe: the runtime answers with the nodes changed since the session's last observation
  'allow_downgrade', // `allow_downgrade` on space_install_apk (adb install -d)
  'split_selection', // space_install_apk of a bundle installs the device's splits and lists them
  'space_rename',
  'space_permissions',
  'audit_query',
  'approval_decide',
  'runtime_info',
  'world',
  'webview',
  'net_proxy',
  'screen_record',
]);
export type Extension = z.infer<typeof ExtensionSchema>;

/** What each extension adds, for docs/protocol.md (a table typed by Extension: none is left out). */
export const EXTENSION_DOCS: { readonly [E in Extension]: string } = {
  instance:
    '`instance` on space_launch, space_stop, app_intent, sys_logcat (and `instance: "new"` on space_launch): many copies of one app in a space, each with its own data',
  clear_data: "`clear_data` (and `remove_instance`) on space_stop: wipe an instance's data when stopping it",
  snapshot_check: 'actions given a `snapshot_id` answer SNAPSHOT_STALE when the screen no longer matches that snapshot',
  split_selection: 'space_install_apk of a bundle installs the splits that fit the device and lists them',
  allow_downgrade: '`allow_downgrade` on space_install_apk: install an older version over a newer one (adb install -d)',
  keyboard: "`keyboard` on observations: the soft keyboard's window bounds while it is up, null when it is down",
  timing:
    "`timing` in runtime_info: how much slower than a phone the runtime runs (`timeout_scale`), for clients' timeouts",
  skill_evidence: "skill_run answers each step's evidence: the node it acted on and the snapshots before and after",
  local_agent:
    "task_run runs the same act loop, tools, prompts, grounding and budgets as a test's `app.ai.act` (device-runtime/protocol/agent), with the model the runtime is configured with; task_status answers the task's record in the shape of an act step's (`record`), and a pending approval; task_run takes a `budget`",
  selector_actions:
    "`selector` (a locator's steps), `wait`, `app` and `max_nodes` on ui_tap, ui_long_press and ui_set_text: the runtime waits for the target, acts and verifies next to the screen and answers with the observation after, in one round trip (device-runtime/protocol/actionability.ts); on ui_scroll (`selector` instead of `direction`): scrolls the list until the node is in view; on ui_wait_for (`selector`, `count`, `gone`): waits until the selector names `count` nodes (1: visible, 0: hidden) and answers with the matches and the last observation",
  screen_regions:
    '`regions` on ui_screenshot: where the picture shows system UI (status bar, navigation bar, a caret, a scrollbar), so a visual comparison can leave it out',
  observe_diff:
    "`since` on ui_observe (the snapshot id and nodesHash of the client's last observation of the space, or null): the runtime keeps the last snapshot each session saw of each space and answers with `nodes: []` and a `diff` (nodes removed, changed and added since, by id; the hash and count of the whole) the client applies to its copy (device-runtime/protocol/observe-diff.ts). A `since` it no longer holds gets a full observation; one whose hash differs from the base's is refused with DIFF_BASE_MISMATCH. With selector_actions, `since` on ui_tap, ui_long_press and ui_set_text with a selector answers their `observation` (the screen after) the same way against the base taken with that max_nodes; there a hash that differs gets the whole observation (the action is done, not refused)",
  space_rename: 'the space_rename tool',
  space_permissions: "the space_permissions tool: list, grant and revoke an app's runtime permissions in a space",
  audit_query: 'the audit_query tool: read the audit log',
  approval_decide: "the approval_decide tool: answer an approval request (the phone's dialog, relayed)",
  runtime_info: 'the runtime_info tool: protocol version, device, capabilities, extensions',
  world:
    "the world_* tools: each instance's location, clock, locale, time zone and colour scheme, notifications, push messages, biometrics and camera image, set per instance and gone with it (docs/app-world.md)",
  webview:
    "the webview_list tool: an instance's WebViews (id, URL, title, bounds on screen) and where each serves the DevTools protocol — an endpoint the client reaches, or the device's `webview_devtools_remote_<pid>` socket to forward — so a client drives the page with Playwright's connectOverCDP (docs/webviews.md)",
  net_proxy:
    "the net_* tools: send one instance's HTTP(S) traffic through a proxy (HTTP CONNECT for https) with a CA it trusts besides its system store (net_proxy_set, net_proxy_clear), take it offline (net_offline_set), read what is set (net_state_get), and learn the names the runtime resolves itself and its system CA (net_info); per instance, gone with it (docs/network.md)",
  screen_record:
    "the screen_record_* tools: record one instance's own display as timestamped PNG frames, a frame when its picture changes (screen_record_start, screen_record_stop, screen_record_frames), for a test's video; the client encodes them (docs/video.md)",
};

export const RuntimeInfoSchema = z.object({
  protocol_version: z.string(),
  runtime: z.object({ name: z.string(), version: z.string(), kind: z.enum(['simulated', 'device']) }),
  device: z.object({
    model: z.string(),
    sdk_int: z.number().int(),
    abis: z.array(z.string()),
    page_size: z.union([z.literal(4096), z.literal(16384)]),
    screen: z.object({ width: z.number().int(), height: z.number().int(), density: z.number().int() }),
  }),
  capabilities: z.object({
    virtual_displays: z
      .boolean()
      .describe('Each space has its own display; false means spaces take turns on the main one'),
    process_slots: z.number().int(),
    channels: z.array(ChannelSchema),
    shell_enabled: z.boolean(),
    local_agent: z
      .object({ provider: z.string(), model: z.string() })
      .nullable()
      .optional()
      .describe('Extension (local_agent): the model task_run uses; null when none is configured'),
  }),
  timing: z
    .object({
      profile: z.string().describe('Name of the pace, e.g. the simulator fault profile: instant, realistic, hostile'),
      timeout_scale: z.number().positive().describe('Multiply client timeouts by this (1 = a mid-range phone)'),
    })
    .optional()
    .describe('Extension (timing): how much slower than a phone this runtime runs'),
  extensions: z.array(z.string()).describe('Extension names (see ExtensionSchema); unknown names are ignored'),
  tools: z.array(z.string()),
});
export type RuntimeInfo = z.infer<typeof RuntimeInfoSchema>;

export const runtime_info = defineTool({
  name: 'runtime_info',
  title: 'Runtime info',
  description: 'Protocol version, device traits, capabilities and extensions of this runtime.',
  extension: true,
  input: z.object({}),
  result: RuntimeInfoSchema,
});

export const runtimeTools = [runtime_info] as const;

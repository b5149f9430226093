import type { ErrorCode } from './errors.js';
import { PreflightRejectCodeSchema } from './preflight.js';
import { getTool, type ToolName } from './registry.js';

const INSTALL: ErrorCode[] = PreflightRejectCodeSchema.options;
const ACTION: ErrorCode[] = [
  'NODE_NOT_FOUND',
  'AMBIGUOUS_TARGET',
  'SNAPSHOT_STALE',
  'CHANNEL_UNAVAILABLE',
  'APP_CRASHED',
  'TIMEOUT',
  'NOT_SUPPORTED',
];
/** A world tool names an instance of an installed app; a runtime without the `world` extension answers NOT_SUPPORTED. */
const WORLD: ErrorCode[] = ['APP_NOT_INSTALLED', 'INSTANCE_NOT_FOUND', 'NOT_SUPPORTED'];
/** A network tool names an instance of an installed app; a runtime without the `net_proxy` extension answers NOT_SUPPORTED. */
const NET: ErrorCode[] = ['APP_NOT_INSTALLED', 'INSTANCE_NOT_FOUND', 'NOT_SUPPORTED'];
const LAUNCH: ErrorCode[] = [
  'APP_NOT_INSTALLED',
  'INSTANCE_NOT_FOUND',
  'ABI_MISMATCH',
  'NO_PROCESS_SLOT',
  'APP_CRASHED',
];

/**
 * The codes each tool may answer with beyond those every call of its kind may get (see
 * {@link errorCodesOf}). A table typed by ToolName: a new tool without an entry does not compile.
 */
export const TOOL_ERRORS = {
  space_list: [],
  space_create: [],
  space_delete: [],
  space_rename: [],
  space_install_apk: INSTALL,
  space_uninstall: ['APP_NOT_INSTALLED'],
  space_list_apps: [],
  space_launch: LAUNCH,
  space_stop: ['APP_NOT_INSTALLED', 'INSTANCE_NOT_FOUND'],
  space_status: [],
  ui_observe: ['CHANNEL_UNAVAILABLE', 'TIMEOUT', 'DIFF_BASE_MISMATCH'],
  ui_screenshot: ['CHANNEL_UNAVAILABLE', 'NOT_SUPPORTED'],
  ui_tap: ACTION,
  ui_long_press: ACTION,
  ui_swipe: ACTION,
  ui_scroll: ACTION,
  ui_set_text: ACTION,
  ui_key: ['CHANNEL_UNAVAILABLE', 'APP_CRASHED'],
  ui_wait_for: ['CHANNEL_UNAVAILABLE', 'APP_CRASHED', 'TIMEOUT', 'CANCELLED'],
  ui_find: ['SNAPSHOT_STALE', 'CHANNEL_UNAVAILABLE'],
  app_intent: [...LAUNCH, 'NOT_SUPPORTED'],
  sys_shell: ['TOOL_DISABLED', 'TIMEOUT'],
  sys_logcat: [],
  sys_clipboard_get: [],
  sys_clipboard_set: [],
  space_permissions: ['APP_NOT_INSTALLED'],
  appfn_status: [],
  appfn_list: ['APP_NOT_INSTALLED', 'INSTANCE_NOT_FOUND', 'NOT_SUPPORTED'],
  /** A function marked dangerous needs an approval, though the tool itself does not. */
  appfn_execute: [
    'APP_NOT_INSTALLED',
    'INSTANCE_NOT_FOUND',
    'NOT_SUPPORTED',
    'TIMEOUT',
    'APP_CRASHED',
    'APPROVAL_REQUIRED',
    'APPROVAL_DENIED',
  ],
  session_acquire: ['SPACE_BUSY', 'CANCELLED'],
  session_release: [],
  session_status: [],
  approval_request: [],
  approval_wait: ['APPROVAL_NOT_FOUND'],
  approval_decide: ['APPROVAL_NOT_FOUND'],
  task_run: ['NOT_SUPPORTED', 'TOOL_DISABLED'],
  task_status: ['TASK_NOT_FOUND', 'NOT_SUPPORTED'],
  task_cancel: ['TASK_NOT_FOUND', 'NOT_SUPPORTED'],
  skill_list: [],
  skill_run: ['SKILL_NOT_FOUND', 'NOT_SUPPORTED', 'APP_NOT_INSTALLED', 'APP_CRASHED'],
  trajectory_get: ['TASK_NOT_FOUND', 'NOT_SUPPORTED'],
  runtime_info: [],
  audit_query: [],
  world_get: WORLD,
  world_location_set: WORLD,
  world_clock_set: WORLD,
  world_locale_set: WORLD,
  world_notifications_list: WORLD,
  world_notification_tap: [...WORLD, 'NOTIFICATION_NOT_FOUND', 'NO_PROCESS_SLOT'],
  world_notification_dismiss: [...WORLD, 'NOTIFICATION_NOT_FOUND'],
  world_push: [...WORLD, 'APP_CRASHED'],
  world_biometrics_set: WORLD,
  world_camera_set: WORLD,
  webview_list: ['APP_NOT_INSTALLED', 'INSTANCE_NOT_FOUND', 'APP_CRASHED', 'NOT_SUPPORTED'],
  net_proxy_set: NET,
  net_proxy_clear: NET,
  net_offline_set: NET,
  net_state_get: NET,
  net_info: ['NOT_SUPPORTED'],
  screen_record_start: ['APP_NOT_INSTALLED', 'INSTANCE_NOT_FOUND', 'NOT_SUPPORTED'],
  screen_record_stop: ['NOT_SUPPORTED'],
  screen_record_frames: ['NOT_SUPPORTED'],
} as const satisfies { readonly [N in ToolName]: readonly ErrorCode[] };

/** Any call may get these: bad arguments, an unknown tool, a runtime fault, a transport failure. */
const EVERY_CALL: ErrorCode[] = [
  'INVALID_ARGUMENT',
  'UNKNOWN_TOOL',
  'INTERNAL',
  'UNAUTHORIZED',
  'RATE_LIMITED',
  'DEVICE_DISCONNECTED',
  'PROTOCOL_ERROR',
];

/**
 * Every code a call of `tool` may answer with: its own, those every call may get, SPACE_NOT_FOUND
 * when it names a space, the lease codes and STORAGE_UNAVAILABLE when it mutates
 * (docs/protocol.md#leases), the approval codes when it is dangerous (docs/protocol.md#approvals).
 */
export function errorCodesOf(tool: ToolName): ErrorCode[] {
  const def = getTool(tool)!;
  const codes = new Set<ErrorCode>([...EVERY_CALL, ...TOOL_ERRORS[tool]]);
  if ('space_id' in def.input.shape) codes.add('SPACE_NOT_FOUND');
  if (def.mutating) for (const c of ['LEASE_REQUIRED', 'SPACE_BUSY', 'STORAGE_UNAVAILABLE'] as const) codes.add(c);
  if (def.dangerous) for (const c of ['APPROVAL_REQUIRED', 'APPROVAL_DENIED'] as const) codes.add(c);
  return [...codes];
}

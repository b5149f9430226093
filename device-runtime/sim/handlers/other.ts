import { PROTOCOL_VERSION, TOOL_NAMES } from '../../protocol/index.js';
import { SCREEN } from '../ui/layout.js';
import type { HandlerGroup } from './types.js';
import { notSupported } from './space.js';

type OtherTools =
  | 'app_intent'
  | 'sys_shell'
  | 'sys_logcat'
  | 'sys_clipboard_get'
  | 'sys_clipboard_set'
  | 'space_permissions'
  | 'appfn_status'
  | 'appfn_list'
  | 'appfn_execute'
  | 'task_run'
  | 'task_status'
  | 'task_cancel'
  | 'skill_list'
  | 'skill_run'
  | 'trajectory_get'
  | 'runtime_info';

export const otherHandlers: HandlerGroup<OtherTools> = {
  app_intent: () => notSupported('app_intent'),
  sys_shell: () => notSupported('sys_shell'),
  sys_logcat: (args, rt) => {
    const space = rt.space(args.space_id);
    const lines = space.logcat.filter(
      (l) =>
        (args.package === undefined || l.package === args.package) &&
        (args.instance === undefined || l.instance === args.instance) &&
        (args.since_ms === undefined || l.ts >= args.since_ms),
    );
    return { lines: lines.slice(-args.max_lines) };
  },
  sys_clipboard_get: () => notSupported('sys_clipboard_get'),
  sys_clipboard_set: () => notSupported('sys_clipboard_set'),
  space_permissions: () => notSupported('space_permissions'),
  appfn_status: (args, rt) => {
    rt.space(args.space_id);
    return { available: false, api_level: rt.options.sdkInt, reason: 'AppFunctions need API 36 and EXECUTE_APP_FUNCTIONS' };
  },
  appfn_list: () => notSupported('appfn_list'),
  appfn_execute: () => notSupported('appfn_execute'),
  task_run: () => notSupported('task_run'),
  task_status: () => notSupported('task_status'),
  task_cancel: () => notSupported('task_cancel'),
  skill_list: () => ({ skills: [] }),
  skill_run: () => notSupported('skill_run'),
  trajectory_get: () => notSupported('trajectory_get'),
  runtime_info: (_, rt) => ({
    protocol_version: PROTOCOL_VERSION,
    runtime: { name: 'nestwright-sim', version: '0.1.0', kind: 'simulated' as const },
    device: {
      model: 'nestwright simulated device',
      sdk_int: rt.options.sdkInt,
      abis: rt.options.abis,
      page_size: rt.options.pageSize,
      screen: { width: SCREEN.width, height: SCREEN.height, density: SCREEN.density },
    },
    capabilities: { virtual_displays: true, process_slots: rt.options.slots, channels: ['accessibility' as const], shell_enabled: false },
    extensions: ['instance', 'clear_data', 'snapshot_check', 'space_rename', 'runtime_info'],
    tools: TOOL_NAMES,
  }),
};

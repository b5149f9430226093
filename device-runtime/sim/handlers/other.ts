import { PROTOCOL_VERSION, TOOL_LIST, TOOL_NAMES } from '../../protocol/index.js';
import { SCREEN } from '../ui/layout.js';
import { availableChannels } from '../channels/channel.js';
import type { HandlerGroup } from './types.js';
import { notSupported } from './space.js';
import { skillHandlers } from '../skills/handlers.js';

type OtherTools =
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

/** Argument-level extensions (no tool of their own); tool-level ones come from the `extension` flag. */
const ARGUMENT_EXTENSIONS = ['instance', 'clear_data', 'snapshot_check', 'allow_downgrade', 'split_selection', 'skill_evidence'];
const EXTENSIONS = [...ARGUMENT_EXTENSIONS, ...TOOL_LIST.filter((t) => t.extension).map((t) => t.name)];

export const otherHandlers: HandlerGroup<OtherTools> = {
  appfn_status: (args, rt) => {
    rt.space(args.space_id);
    return { available: false, api_level: rt.options.sdkInt, reason: 'AppFunctions need API 36 and EXECUTE_APP_FUNCTIONS' };
  },
  appfn_list: () => notSupported('appfn_list'),
  appfn_execute: () => notSupported('appfn_execute'),
  task_run: () => notSupported('task_run'),
  task_status: () => notSupported('task_status'),
  task_cancel: () => notSupported('task_cancel'),
  ...skillHandlers,
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
    capabilities: {
      virtual_displays: rt.options.virtualDisplays,
      process_slots: rt.options.slots,
      channels: availableChannels(rt.env.channels),
      shell_enabled: rt.options.policy.shell.enabled,
    },
    extensions: EXTENSIONS,
    tools: TOOL_NAMES,
  }),
};

import { PROTOCOL_VERSION, TOOL_LIST } from '../../protocol/index.js';
import { availableChannels } from '../channels/channel.js';
import type { SimSettings } from '../core/options.js';
import type { SimEnv } from '../faults/env.js';
import { SCREEN } from '../ui/layout.js';
import type { HandlerGroup } from './types.js';

/** Argument-level extensions (no tool of their own); tool-level ones come from the `extension` flag. */
const ARGUMENT_EXTENSIONS = [
  'instance',
  'clear_data',
  'snapshot_check',
  'keyboard',
  'timing',
  'allow_downgrade',
  'split_selection',
  'skill_evidence',
  'local_agent',
  'selector_actions',
  'screen_regions',
  'observe_diff',
];
const EXTENSIONS = [
  ...new Set([...ARGUMENT_EXTENSIONS, ...TOOL_LIST.filter((t) => t.extension).map((t) => t.group ?? t.name)]),
];

/** runtime_info describes the device: its settings and its environment (faults, channels). */
export interface RuntimeInfoHost {
  readonly options: Pick<
    SimSettings,
    'model' | 'sdkInt' | 'abis' | 'pageSize' | 'virtualDisplays' | 'slots' | 'policy' | 'withoutExtensions'
  >;
  readonly env: SimEnv;
  /** The model of the runtime's own agent, if any. */
  readonly tasks: { readonly settings: { provider: string; model: string } | null };
}

export const runtimeHandlers: HandlerGroup<'runtime_info', RuntimeInfoHost> = {
  runtime_info: (_, rt) => ({
    protocol_version: PROTOCOL_VERSION,
    runtime: { name: 'nestwright-sim', version: '0.1.0', kind: 'simulated' as const },
    device: {
      model: rt.options.model,
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
      local_agent: rt.tasks.settings ? { provider: rt.tasks.settings.provider, model: rt.tasks.settings.model } : null,
    },
    timing: { profile: rt.env.faults.name, timeout_scale: rt.env.faults.timeoutScale },
    extensions: EXTENSIONS.filter((e) => !rt.options.withoutExtensions.includes(e)),
    tools: TOOL_LIST.filter((t) => !(t.extension && rt.options.withoutExtensions.includes(t.group ?? t.name))).map(
      (t) => t.name,
    ),
  }),
};

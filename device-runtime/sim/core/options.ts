import type { SimEnvOptions } from '../faults/env.js';
import type { SimPolicy } from './policy.js';
import type { DeviceAgentOptions } from './agent-config.js';

export interface SimOptions extends SimEnvOptions {
  /** Process slots of the device (docs/protocol.md#processes: 2–4). Default 4. */
  slots?: number;
  abis?: string[];
  pageSize?: 4096 | 16384;
  sdkInt?: number;
  /**
   * The device model runtime_info reports (default `nestwright simulated device`): a simulator
   * standing in for a given phone names it, and gets baselines of its own in visual comparisons.
   */
  model?: string;
  /** Where state.json lives. Absent: ephemeral, nothing touches the disk (the default for test runs). */
  stateDir?: string | null;
  /** Pre-approvals and shell; default TEST_RUN_POLICY (a test run is a pre-approved context). */
  policy?: SimPolicy;
  /** Each space gets its own display (default). false: spaces take turns on the main display. */
  virtualDisplays?: boolean;
  /** Audit entries kept in memory (a ring; default 20 000). */
  auditCapacity?: number;
  /** A directory of skills (`*.yaml`) served by skill_list / skill_run to spaces that have their app. */
  skills?: string | null;
  /**
   * Extensions this runtime leaves out (`['world']`): not in runtime_info, their tools answer
   * NOT_SUPPORTED — a device that lacks them, for testing how clients cope.
   */
  withoutExtensions?: string[];
  /**
   * The model of the runtime's own agent (task_run): provider, model id, base URL, key, prices.
   * Default: from NESTWRIGHT_SIM_MODEL* (none when unset: task_run answers TOOL_DISABLED).
   */
  agent?: DeviceAgentOptions | null;
  /**
   * Whether apps' declared functions are served (`appfn_*`; default true, through the runtime's
   * local bridge whatever the API level). False: a device without AppFunctions — appfn_status says
   * so and appfn_list / appfn_execute answer NOT_SUPPORTED.
   */
  appFunctions?: boolean;
}

/** The options with their defaults filled in: the device's fixed traits, as handlers read them. */
export type SimSettings = Required<Omit<SimOptions, 'stateDir' | 'auditCapacity' | 'agent' | keyof SimEnvOptions>> & {
  stateDir: string | null;
};

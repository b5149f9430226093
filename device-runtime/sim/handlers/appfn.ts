import type { SimSettings } from '../core/options.js';
import { notSupported } from '../core/sim-error.js';
import type { HandlerGroup, SpaceLookup } from './types.js';

/** AppFunctions need API 36: the status names the device's API level. */
export interface AppfnHost extends SpaceLookup {
  readonly options: Pick<SimSettings, 'sdkInt'>;
}

export const appfnHandlers: HandlerGroup<'appfn_status' | 'appfn_list' | 'appfn_execute', AppfnHost> = {
  appfn_status: (args, rt) => {
    rt.space(args.space_id);
    return {
      available: false,
      api_level: rt.options.sdkInt,
      reason: 'AppFunctions need API 36 and EXECUTE_APP_FUNCTIONS',
    };
  },
  appfn_list: () => notSupported('appfn_list'),
  appfn_execute: () => notSupported('appfn_execute'),
};

import { z } from 'zod';
import { describeIssues, toolError, type AppFunction } from '../../protocol/index.js';
import { AppFunctionError, type AppFunctionModel } from '../apps/define-app.js';
import { requireApproval, type ApprovalGate } from '../core/approvals.js';
import type { SimSettings } from '../core/options.js';
import { functionPreapproved } from '../core/policy.js';
import { SimError } from '../core/sim-error.js';
import { serviceContext } from '../world/app-world.js';
import type { DeviceSpace, HandlerGroup, SpaceLookup } from './types.js';

/**
 * AppFunctions (design §5.7): the functions an app declares (`functions` of its model,
 * apps/define-app.ts), listed with the JSON Schema of their parameters and results and run on
 * the instance's data. The simulator serves them through its local bridge whatever the API level
 * (design §0.1: container apps' functions go through one); `appFunctions: false` makes a device
 * without them. A function marked dangerous needs an approval for appfn_execute naming its
 * function_id, unless the policy pre-approves it (`preapprove_functions`).
 */
export interface AppfnHost extends SpaceLookup {
  readonly options: Pick<SimSettings, 'sdkInt' | 'appFunctions' | 'policy'>;
  readonly approvals: ApprovalGate;
}

const UNAVAILABLE = 'this device offers no AppFunctions (no AppFunctionManager and no local bridge)';

function requireAvailable(rt: AppfnHost, tool: string): void {
  if (rt.options.appFunctions) return;
  throw new SimError(
    toolError('NOT_SUPPORTED', `${tool}: ${UNAVAILABLE}`, {
      hint: 'appfn_status says whether AppFunctions are available; drive the app through its UI instead.',
    }),
  );
}

function declared(space: DeviceSpace, pkg: string): Record<string, AppFunctionModel<unknown>> {
  return space.app(pkg).model.functions ?? {};
}

function describe(pkg: string, id: string, f: AppFunctionModel<unknown>): AppFunction {
  const schema = (t: z.ZodType) =>
    z.toJSONSchema(t, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    id,
    package: pkg,
    description: f.description,
    parameters: schema(f.params),
    result: z.toJSONSchema(f.result, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>,
    dangerous: f.dangerous === true,
  };
}

export const appfnHandlers: HandlerGroup<'appfn_status' | 'appfn_list' | 'appfn_execute', AppfnHost> = {
  appfn_status: (args, rt) => {
    rt.space(args.space_id);
    return {
      available: rt.options.appFunctions,
      api_level: rt.options.sdkInt,
      reason: rt.options.appFunctions ? null : UNAVAILABLE,
    };
  },

  appfn_list: (args, rt) => {
    requireAvailable(rt, 'appfn_list');
    const space = rt.space(args.space_id);
    const fns = declared(space, args.package);
    if (args.instance !== undefined) space.instance(args.package, args.instance);
    return { functions: Object.entries(fns).map(([id, f]) => describe(args.package, id, f)) };
  },

  appfn_execute: (args, rt, ctx) => {
    requireAvailable(rt, 'appfn_execute');
    const space = rt.space(args.space_id);
    const fns = declared(space, args.package);
    const f = Object.hasOwn(fns, args.function_id) ? fns[args.function_id] : undefined;
    if (!f) {
      const ids = Object.keys(fns);
      throw new SimError(
        toolError(
          'INVALID_ARGUMENT',
          `appfn_execute: ${args.package} declares no function ${JSON.stringify(args.function_id)}`,
          {
            hint: ids.length
              ? `Its functions: ${ids.join(', ')} (appfn_list describes them).`
              : `${args.package} declares no functions; drive it through its UI.`,
            details: { function_id: args.function_id, functions: ids },
          },
        ),
      );
    }
    const parsed = f.params.safeParse(args.params);
    if (!parsed.success) {
      throw new SimError(
        toolError('INVALID_ARGUMENT', `appfn_execute ${args.function_id}: ${describeIssues(parsed.error, 'params')}`, {
          hint: `Check the params against the parameters schema of ${args.function_id} (appfn_list).`,
          details: { function_id: args.function_id, param: String(parsed.error.issues[0]?.path[0] ?? '') },
        }),
      );
    }
    const inst =
      args.instance === undefined ? space.instanceFor(args.package, '0') : space.instance(args.package, args.instance);
    if (f.dangerous && !functionPreapproved(rt.options.policy, args.package, args.function_id)) {
      const ask = { package: args.package, function_id: args.function_id };
      requireApproval(
        rt.approvals,
        {
          tool: 'appfn_execute',
          spaceId: args.space_id,
          args: args as Record<string, unknown>,
          sessionId: ctx.sessionId,
        },
        `${args.package} function ${args.function_id}`,
        ask,
      );
    }
    // Run as app code: an exception the app throws kills its process (APP_CRASHED below); a
    // refused argument is the function's answer, not a crash.
    const crashedBefore = inst.status === 'crashed';
    let out: unknown;
    let refused: AppFunctionError | null = null;
    inst.runApp(() => {
      try {
        out = f.run(parsed.data, serviceContext(inst));
      } catch (e) {
        if (!(e instanceof AppFunctionError)) throw e;
        refused = e;
      }
    });
    const r = refused as AppFunctionError | null;
    if (r) {
      throw new SimError(
        toolError('INVALID_ARGUMENT', `appfn_execute ${args.function_id}: params.${r.param}: ${r.message}`, {
          hint: `Check the value of ${r.param} (appfn_list describes the parameters).`,
          details: { function_id: args.function_id, param: r.param },
        }),
      );
    }
    space.invalidate();
    if (!crashedBefore && inst.status === 'crashed') {
      throw new SimError(
        toolError('APP_CRASHED', `appfn_execute ${args.function_id}: ${inst.key} crashed running it`, {
          hint: 'space_list_apps shows the crash; sys_logcat has its stack.',
          details: { crash_reason: inst.crashReason },
        }),
      );
    }
    const checked = f.result.safeParse(out);
    if (!checked.success)
      throw new SimError(
        toolError(
          'INTERNAL',
          `appfn_execute ${args.function_id}: the app returned ${describeIssues(checked.error, 'result')}`,
        ),
      );
    return { result: checked.data };
  },
};

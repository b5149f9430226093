import { toolError } from '../../protocol/index.js';
import { openDeepLink, resolveDeepLink } from '../core/intents.js';
import type { SimSettings } from '../core/options.js';
import { shellAllows } from '../core/policy.js';
import { simulateShell } from '../core/shell.js';
import { SimError } from '../core/sim-error.js';
import type { HandlerGroup, SlotHost, SpaceLookup } from './types.js';

type SystemTools =
  'app_intent' | 'sys_shell' | 'sys_logcat' | 'sys_clipboard_get' | 'sys_clipboard_set' | 'space_permissions';

/** Intents start instances (a slot each); the shell is governed by the policy and reports the device's traits. */
export interface SystemHost extends SpaceLookup, SlotHost {
  readonly options: Pick<SimSettings, 'policy' | 'sdkInt' | 'abis'>;
}

export const systemHandlers: HandlerGroup<SystemTools, SystemHost> = {
  app_intent: (args, rt) => {
    const space = rt.space(args.space_id);
    // A URI without a component resolves like PackageManager.resolveActivity (sim/core/intents.ts).
    if (args.data !== undefined && args.component === undefined && resolveDeepLink(space, args.data, args.package)) {
      return { resolved: openDeepLink((inst, sp) => rt.assignSlot(inst, sp), space, { ...args, data: args.data }) };
    }
    const pkg = args.package ?? args.component?.split('/')[0];
    if (!pkg) {
      throw new SimError(
        toolError('NOT_SUPPORTED', 'app_intent: resolving a bare URI to an app is not simulated', {
          hint: 'Pass package (or component "pkg/.Activity") along with data.',
        }),
      );
    }
    const app = space.app(pkg);
    const activity = args.component?.split('/')[1] ?? app.model.launcher;
    if (!(activity in app.model.activities)) {
      throw new SimError(
        toolError('INVALID_ARGUMENT', `app_intent: ${pkg} has no activity ${activity}`, {
          hint: `Its activities: ${Object.keys(app.model.activities).join(', ')}.`,
        }),
      );
    }
    const inst = space.instanceFor(pkg, args.instance);
    const { pid } = rt.assignSlot(inst, space);
    inst.start(undefined, pid);
    inst.push(activity, { ...(args.extras ?? {}), ...(args.data ? { data: args.data } : {}), action: args.action });
    space.bringToFront(inst);
    return { resolved: { package: pkg, activity, instance: inst.id } };
  },

  sys_shell: (args, rt) => {
    if (!shellAllows(rt.options.policy, args.command)) {
      throw new SimError(
        toolError('TOOL_DISABLED', `sys_shell: ${JSON.stringify(args.command)} is not on the shell allowlist`, {
          hint: `Allowed: ${rt.options.policy.shell.allow.join('; ') || '(nothing)'}. Add it to "shell.allow" in the policy file.`,
          details: { allow: rt.options.policy.shell.allow },
        }),
      );
    }
    const o = rt.options;
    return simulateShell(args.command, rt.space(args.space_id), {
      sdkInt: o.sdkInt,
      abis: o.abis,
      model: 'nestwright simulated device',
    });
  },

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

  sys_clipboard_get: (args, rt) => ({ text: rt.space(args.space_id).clipboard }),

  sys_clipboard_set: (args, rt) => {
    rt.space(args.space_id).clipboard = args.text;
    return { ok: true as const };
  },

  space_permissions: (args, rt) => {
    const space = rt.space(args.space_id);
    const app = space.app(args.package);
    if (args.action !== 'list') {
      if (!args.permission) {
        throw new SimError(
          toolError('INVALID_ARGUMENT', `space_permissions: ${args.action} needs a permission`, {
            hint: `Requested: ${app.requestedPermissions.join(', ') || '(none)'}.`,
          }),
        );
      }
      if (!app.requestedPermissions.includes(args.permission)) {
        throw new SimError(
          toolError('INVALID_ARGUMENT', `space_permissions: ${args.package} does not request ${args.permission}`, {
            hint: `Only runtime permissions in its manifest can be granted: ${app.requestedPermissions.join(', ') || '(none)'}.`,
          }),
        );
      }
      app.granted =
        args.action === 'grant'
          ? [...new Set([...app.granted, args.permission])]
          : app.granted.filter((p) => p !== args.permission);
      // A revoke also takes back what each instance's own prompt granted.
      if (args.action === 'revoke')
        for (const inst of space.instances.values())
          if (inst.model.package === args.package) inst.granted.delete(args.permission);
    }
    return { granted: app.granted, requested: app.requestedPermissions };
  },
};

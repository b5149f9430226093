import { toolError } from '../../protocol/index.js';
import { appModelFor } from '../apps/index.js';
import { blankApp } from '../apps/blank.js';
import { installApk } from '../core/install.js';
import { syncWeb } from './web-sync.js';
import type { LeaseManager } from '../core/leases.js';
import type { SimSettings } from '../core/options.js';
import { SimError } from '../core/sim-error.js';
import { SCREEN } from '../ui/layout.js';
import type { DeviceSpace, HandlerGroup, SlotHost, SpaceLookup } from './types.js';

/** What the space tools need of the runtime: its spaces, slots, who leases what, the device's traits. */
export interface SpaceHost extends SpaceLookup, SlotHost {
  readonly spaces: ReadonlyMap<string, DeviceSpace>;
  createSpace(name: string | undefined): DeviceSpace;
  /** Remove a space with everything in it (its instances' slots, its leases). */
  deleteSpace(space: DeviceSpace): void;
  readonly leases: Pick<LeaseManager, 'exclusiveHolder'>;
  readonly options: Pick<SimSettings, 'abis' | 'pageSize' | 'sdkInt'>;
}

type SpaceTools =
  | 'space_list'
  | 'space_create'
  | 'space_delete'
  | 'space_rename'
  | 'space_install_apk'
  | 'space_uninstall'
  | 'space_list_apps'
  | 'space_launch'
  | 'space_stop'
  | 'space_status';

export const spaceHandlers: HandlerGroup<SpaceTools, SpaceHost> = {
  space_list: (_, rt) => ({ spaces: [...rt.spaces.values()].map((s) => s.summary()) }),

  space_create: (args, rt) => rt.createSpace(args.name).summary(),

  space_delete: async (args, rt) => {
    const space = rt.space(args.space_id);
    rt.deleteSpace(space);
    await space.screen.env.web.sync(space.id, () => false);
    return { ok: true as const };
  },

  space_rename: (args, rt) => {
    const space = rt.space(args.space_id);
    space.name = args.name;
    return space.summary();
  },

  space_install_apk: async (args, rt) => {
    const space = rt.space(args.space_id);
    const o = rt.options;
    const device = {
      abis: o.abis,
      page_size: o.pageSize,
      sdk_int: o.sdkInt,
      min_target_sdk: 24,
      density: SCREEN.density,
      locales: ['en-US'],
    };
    const { info, report } = await installApk(args.apk_paths, device, space, {
      allowDowngrade: args.allow_downgrade ?? false,
    });
    const previous = space.apps.get(info.package);
    const model = appModelFor(info.package, info.versionCode) ?? blankApp(info.package, info.label);
    const unchanged = previous !== undefined && previous.versionCode === info.versionCode;
    // An update replaces the code of the app's instances (stopped, as Android kills an updated
    // app's processes); their data stays.
    if (previous && !unchanged && previous.model !== model)
      space.replaceModel(info.package, model, (inst) => rt.releaseSlot(inst));
    // An update keeps the app's instances and their data (docs/protocol.md#install); only the code changes.
    const granted = args.grant_runtime_permissions
      ? info.permissions
      : (previous?.granted ?? []).filter((p) => info.permissions.includes(p));
    space.apps.set(info.package, {
      model,
      label: info.label,
      versionCode: info.versionCode,
      versionName: info.versionName,
      certSha256: info.certSha256,
      apkPaths: args.apk_paths,
      system: false,
      abis: info.abis,
      requestedPermissions: info.permissions,
      granted,
    });
    return {
      package: info.package,
      label: info.label,
      version_code: info.versionCode,
      version_name: info.versionName,
      outcome: previous === undefined ? 'installed' : unchanged ? 'unchanged' : 'updated',
      preflight: report,
      installed_apks: info.apks,
      ...(info.splits.length ? { splits: info.splits } : {}),
    };
  },

  space_uninstall: (args, rt) => {
    const space = rt.space(args.space_id);
    space.app(args.package);
    for (const inst of [...space.instances.values()]) {
      if (inst.model.package !== args.package) continue;
      rt.releaseSlot(inst);
      space.forget(inst);
    }
    space.apps.delete(args.package);
    return { ok: true as const };
  },

  space_list_apps: (args, rt) => ({ apps: rt.space(args.space_id).listApps() }),

  space_launch: (args, rt) => {
    const space = rt.space(args.space_id);
    const app = space.app(args.package);
    if (app.abis.length > 0 && !app.abis.some((a) => rt.options.abis.includes(a))) {
      throw new SimError(
        toolError(
          'ABI_MISMATCH',
          `space_launch: ${args.package} ships native libraries only for ${app.abis.join(', ')}; this device supports ${rt.options.abis.join(', ')}`,
          {
            hint: 'Use a device or emulator with a matching ABI, or a build of the app that includes one.',
            details: { app_abis: app.abis, device_abis: rt.options.abis },
          },
        ),
      );
    }
    const inst = space.instanceFor(args.package, args.instance);
    const restarted = inst.status === 'crashed';
    const crashReason = inst.crashReason;
    if (restarted) inst.stop();
    const { slot, pid, evicted, evictedSpace, cleaned } = rt.assignSlot(inst, space);
    if (cleaned)
      space.log(
        { level: 'W', tag: 'ActivityManager', message: `Slot :c${slot} was dirty after a crash; cleaned before reuse` },
        inst,
      );
    if (evicted && evictedSpace) {
      rt.spaces.get(evictedSpace)?.log(
        {
          level: 'I',
          tag: 'ActivityManager',
          message: `Killing ${evicted.pid}:${evicted.key}: evicted from slot :c${slot} (LRU)`,
        },
        evicted,
      );
    }
    const { cold } = inst.start(args.activity, pid);
    inst.crashReason = null;
    if (cold)
      space.log(
        {
          level: 'I',
          tag: 'ActivityManager',
          message: `Start proc ${pid}:${inst.key} in slot :c${slot}${restarted ? ' (restarted after crash)' : ''}`,
        },
        inst,
      );
    space.bringToFront(inst);
    // The launched activity draws its first frame now, as Android's does before `am start -W`
    // returns: what its first render starts (the Shop's catalog request) starts with the launch,
    // not when something first looks at the screen.
    const activity = inst.top!.name;
    inst.render();
    return {
      package: args.package,
      instance: inst.id,
      activity,
      slot,
      cold_start: cold,
      restarted_after_crash: restarted,
      crash_reason: restarted ? crashReason : null,
      evicted: evicted?.key ?? null,
    };
  },

  space_stop: async (args, rt) => {
    const space = rt.space(args.space_id);
    space.app(args.package);
    const targets = args.instance
      ? [space.instance(args.package, args.instance)]
      : [...space.instances.values()].filter((i) => i.model.package === args.package);
    for (const inst of targets) {
      rt.releaseSlot(inst);
      inst.stop();
      if (args.clear_data) inst.clearData();
      if (args.remove_instance) space.forget(inst);
    }
    space.invalidate();
    // The stopped instances' WebView pages close with their process.
    await syncWeb(space);
    return { stopped: targets.map((i) => i.key) };
  },

  space_status: (args, rt) => {
    const space = rt.space(args.space_id);
    const fg = space.foreground;
    return {
      space: space.summary(),
      foreground: fg ? { package: fg.model.package, instance: fg.id, activity: fg.top?.name ?? null } : null,
      running: [...space.instances.values()]
        .filter((i) => i.slot !== null)
        .map((i) => ({ package: i.model.package, instance: i.id, slot: i.slot! })),
      channel: space.screen.channel.name,
      lease: rt.leases.exclusiveHolder(space.id) ?? null,
    };
  },
};

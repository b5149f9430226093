import type { AppInfo, LogLine, SpaceSummary } from '../../protocol/index.js';
import { toolError } from '../../protocol/index.js';
import type { AppModel } from '../apps/define-app.js';
import { systemApps } from '../apps/index.js';
import type { SimEnv } from '../faults/env.js';
import { SimInstance, type InstanceHost } from './instance.js';
import { SimError } from './sim-error.js';

export interface InstalledApp {
  model: AppModel<any>;
  label: string;
  versionCode: number;
  versionName: string | null;
  certSha256: string[];
  apkPaths: string[];
  system: boolean;
  /** ABIs the app ships native libraries for; checked at launch (docs/protocol.md#install), not at install. */
  abis: string[];
  /** Runtime permissions the manifest asks for, and those granted in this space. */
  requestedPermissions: string[];
  granted: string[];
}

/** What survives a restart of the simulator (state.json), per space. */
export interface PersistedSpace {
  id: string;
  name: string;
  displayId: number | null;
  createdAt: number;
  instanceCounter: number;
  clipboard: string | null;
  apps: Array<Omit<InstalledApp, 'model'> & { package: string }>;
  instances: Array<{ package: string; id: string; data: unknown }>;
}

/**
 * What a space needs of its display: the clock and faults its apps run on, and to be told that
 * something may have changed. The screen (sim/ui's SimScreen) is above this layer: the runtime
 * makes it and hands it in, so core never imports ui.
 */
export interface SpaceDisplay {
  readonly env: SimEnv;
  invalidate(): void;
  toast(text: string): void;
}

/** Makes a space's display; it shows whatever `foreground` returns. */
export type DisplayFactory<D extends SpaceDisplay> = (spaceId: string, foreground: () => SimInstance | null) => D;

/** A virtual space: its apps, their instances, and its own virtual display (`screen`). */
export class SimSpace<D extends SpaceDisplay = SpaceDisplay> implements InstanceHost {
  readonly apps = new Map<string, InstalledApp>();
  readonly instances = new Map<string, SimInstance>();
  /** Foreground first, then most recently used. */
  private recent: string[] = [];
  readonly screen: D;
  readonly logcat: LogLine[] = [];
  private instanceCounter = 0;
  clipboard: string | null = null;

  constructor(
    readonly id: string,
    public name: string,
    /** Its own virtual display, or null when spaces take turns on the main display. */
    readonly displayId: number | null,
    display: DisplayFactory<D>,
    readonly createdAt = Date.now(),
  ) {
    this.screen = display(id, () => this.foreground);
    // System apps (Settings) are part of every space, installed with the image, not by the user.
    for (const model of systemApps()) {
      const { package: pkg, label, versionCode = 1, versionName = null } = model;
      this.apps.set(pkg, {
        model,
        label,
        versionCode,
        versionName,
        certSha256: [],
        apkPaths: [],
        system: true,
        abis: [],
        requestedPermissions: [],
        granted: [],
      });
    }
  }

  get foreground(): SimInstance | null {
    const key = this.recent[0];
    const inst = key ? this.instances.get(key) : undefined;
    return inst && inst.status === 'foreground' ? inst : null;
  }

  summary(): SpaceSummary {
    return {
      space_id: this.id,
      name: this.name,
      display_id: this.displayId,
      app_count: this.apps.size,
      foreground: this.foreground?.key ?? null,
      created_at: this.createdAt,
    };
  }

  app(pkg: string): InstalledApp {
    const app = this.apps.get(pkg);
    if (!app) {
      throw new SimError(
        toolError('APP_NOT_INSTALLED', `${pkg} is not installed in space ${this.id}`, {
          hint: 'Install it with space_install_apk first (space_list_apps lists what is installed).',
        }),
      );
    }
    return app;
  }

  instance(pkg: string, id: string): SimInstance {
    const inst = this.instances.get(`${pkg}@${id}`);
    if (!inst) {
      throw new SimError(
        toolError('INSTANCE_NOT_FOUND', `${pkg} has no instance ${id} in space ${this.id}`, {
          hint: "Launch with instance 'new' to create one; space_list_apps lists instances.",
        }),
      );
    }
    return inst;
  }

  /** Get or create an instance; `new` always creates a fresh one. */
  instanceFor(pkg: string, id: string | undefined): SimInstance {
    const app = this.app(pkg);
    if (id === undefined) id = '0';
    if (id === 'new') {
      do id = `i${++this.instanceCounter}`;
      while (this.instances.has(`${pkg}@${id}`));
    }
    const key = `${pkg}@${id}`;
    let inst = this.instances.get(key);
    if (!inst) {
      inst = new SimInstance(app.model, id, this);
      this.instances.set(key, inst);
    }
    return inst;
  }

  bringToFront(inst: SimInstance): void {
    const current = this.foreground;
    if (current && current !== inst) current.status = 'background';
    inst.status = 'foreground';
    this.recent = [inst.key, ...this.recent.filter((k) => k !== inst.key)];
    this.invalidate();
  }

  /** The foreground instance left the screen (back on its last activity, or home). */
  sendToBack(): void {
    const fg = this.foreground;
    if (fg) fg.status = fg.stack.length ? 'background' : fg.status;
    this.invalidate();
  }

  forget(inst: SimInstance): void {
    this.instances.delete(inst.key);
    this.recent = this.recent.filter((k) => k !== inst.key);
  }

  listApps(): AppInfo[] {
    return [...this.apps.entries()].map(([pkg, app]) => ({
      package: pkg,
      label: app.label,
      version_code: app.versionCode,
      version_name: app.versionName,
      system: app.system,
      instances: [...this.instances.values()]
        .filter((i) => i.model.package === pkg)
        .map((i) => ({ instance: i.id, state: i.status, slot: i.slot, activity: i.top?.name ?? null })),
    }));
  }

  toJSON(): PersistedSpace {
    return {
      id: this.id,
      name: this.name,
      displayId: this.displayId,
      createdAt: this.createdAt,
      instanceCounter: this.instanceCounter,
      clipboard: this.clipboard,
      apps: [...this.apps.entries()].map(([pkg, { model: _, ...app }]) => ({ ...app, package: pkg })),
      instances: [...this.instances.values()].map((i) => ({ package: i.model.package, id: i.id, data: i.data })),
    };
  }

  /** An app was updated to a new model: its instances keep their ids and data and run the new code next time. */
  replaceModel(pkg: string, model: AppModel<any>, stop: (inst: SimInstance) => void): void {
    for (const [key, inst] of [...this.instances]) {
      if (inst.model.package !== pkg) continue;
      stop(inst);
      this.instances.set(key, new SimInstance(model, inst.id, this, inst.data));
    }
    this.invalidate();
  }

  /** Rebuild a space from state.json; `model` binds each package to its app model again. */
  static restore<D extends SpaceDisplay>(
    p: PersistedSpace,
    model: (pkg: string, label: string, versionCode: number) => AppModel<any>,
    display: DisplayFactory<D>,
  ): SimSpace<D> {
    const space = new SimSpace(p.id, p.name, p.displayId, display, p.createdAt);
    space.instanceCounter = p.instanceCounter;
    space.clipboard = p.clipboard;
    for (const { package: pkg, ...app } of p.apps)
      space.apps.set(pkg, { ...app, model: model(pkg, app.label, app.versionCode) });
    for (const i of p.instances) {
      const app = space.apps.get(i.package);
      if (app) space.instances.set(`${i.package}@${i.id}`, new SimInstance(app.model, i.id, space, i.data));
    }
    return space;
  }

  /** Set by the runtime: frees the process slot of a crashed instance. */
  onCrash: (inst: SimInstance) => void = () => {};

  // InstanceHost
  invalidate(): void {
    this.screen.invalidate();
  }
  crashed(inst: SimInstance): void {
    this.onCrash(inst);
    this.invalidate();
  }
  toast(text: string): void {
    this.screen.toast(text);
  }
  log(line: Omit<LogLine, 'ts' | 'pid' | 'package' | 'instance'>, from: SimInstance): void {
    this.logcat.push({ ...line, ts: Date.now(), pid: from.pid, package: from.model.package, instance: from.id });
    if (this.logcat.length > 5000) this.logcat.splice(0, this.logcat.length - 5000);
  }
}

import type { LogLine } from '../../protocol/index.js';
import type { ActivityContext, DialogSpec } from '../apps/define-app.js';
import type { View } from '../apps/view.js';
import type { SimEnv } from '../faults/env.js';
import { bindWorld, type WorldOwner } from '../world/app-world.js';
import type { AppRequest, AppResponse } from '../net/http-client.js';

/** One activity on the back stack, with the UI state Android keeps for it. */
export interface ActivityRecord {
  name: string;
  state: unknown;
  extras: Record<string, unknown>;
  /** Unique per start: a new record on top is a transition even when the name repeats. */
  seq: number;
  /** Scroll offset per list id (RecyclerView state survives while the activity lives). */
  scroll: Map<string, number>;
  /** Key of the focused editable field (its res id, else its tree position). */
  focus: string | null;
  dialog: DialogSpec | null;
  snackbar: { text: string; until: number; action?: { label: string; onClick: () => void } } | null;
  /** Start time of named animations. */
  anims: Map<string, number>;
  /** Views kept by `ctx.memo`, with their deps and the render that last used them. */
  memo: Map<string, { deps: readonly unknown[]; view: View; render: number }>;
  /** Renders of this activity so far: memo entries a render did not use are dropped after it. */
  renders: number;
}

/** What an activity's context reaches in its space: the screen to redraw, toasts, clipboard, grants. */
export interface ContextHost {
  /** Called whenever something on screen may have changed. */
  invalidate(): void;
  toast(text: string): void;
  /** The space's clipboard. */
  clipboard?: string | null;
  /** The space's installed apps: runtime permissions are granted per app per space. */
  readonly apps?: ReadonlyMap<string, { granted: string[]; requestedPermissions?: string[] }>;
}

/**
 * What a context reaches in the instance it belongs to (SimInstance implements it): declared
 * here so that the context does not import the instance that makes it.
 */
export interface ContextOwner extends WorldOwner {
  data: unknown;
  readonly stack: ActivityRecord[];
  readonly env: SimEnv;
  /** The clock as app code reads it (the screen learns that a render depends on the time). */
  now(): number;
  readonly model: { readonly package: string; readonly label: string };
  readonly granted: Set<string>;
  readonly denials: Map<string, number>;
  readonly host: ContextHost;
  push(name: string, extras: Record<string, unknown>): void;
  schedule(record: ActivityRecord, ms: number, fn: () => void): void;
  /** An HTTP request of the app for `record`; `then` runs as app code when the answer is in. */
  fetch(record: ActivityRecord, req: AppRequest, then: (res: AppResponse) => void): void;
  readonly net: { readonly offline: boolean };
  crash(reason: string): void;
  /** A logcat line from this instance's process. */
  log(line: Omit<LogLine, 'ts' | 'pid' | 'package' | 'instance'>): void;
}

/** The permission prompt is an activity of the permission controller, not of the app. */
export const PERMISSION_PACKAGE = 'com.google.android.permissioncontroller';
export const PERMISSION_ACTIVITY = '.permission.ui.GrantPermissionsActivity';

/** How long a snackbar stays (Snackbar.LENGTH_LONG ≈ 2.75 s; apps here use 4 s). */
export const SNACKBAR_MS = 4000;

/** Backends shared by the instances of one space (keyed by the space itself). */
const sharedBySpace = new WeakMap<ContextHost, Map<string, unknown>>();

function permissionLabel(permission: string): string {
  const short = permission.replace(/^android\.permission\./, '');
  if (short.includes('LOCATION')) return "access this device's location";
  if (short === 'CAMERA') return 'take pictures and record video';
  if (short === 'POST_NOTIFICATIONS') return 'send you notifications';
  return `use ${short.toLowerCase().replace(/_/g, ' ')}`;
}

/** The context an activity's render and handlers see: closures over its instance and record. */
export function bindContext(inst: ContextOwner, record: ActivityRecord): ActivityContext<any, any> {
  const host = inst.host;
  const now = () => inst.now();
  const setDialog = (d: DialogSpec | null) => {
    record.dialog = d;
    host.invalidate();
  };
  return {
    get data() {
      return inst.data;
    },
    get state() {
      return record.state;
    },
    extras: record.extras,
    set(patch) {
      record.state = { ...(record.state as object), ...patch };
      host.invalidate();
    },
    update(fn) {
      fn(inst.data);
      host.invalidate();
    },
    start(name, extras = {}) {
      inst.push(name, extras);
    },
    finish() {
      const i = inst.stack.indexOf(record);
      if (i >= 0) inst.stack.splice(i, 1);
      host.invalidate();
    },
    toast(text) {
      host.toast(text);
    },
    snackbar(text, action) {
      record.snackbar = { text, until: now() + SNACKBAR_MS, ...(action ? { action } : {}) };
      host.invalidate();
    },
    log(level, tag, message) {
      inst.log({ level, tag, message });
    },
    now,
    after(ms, fn, opts) {
      const scaled = opts?.fixed ? ms : ms * inst.env.faults.loadScale;
      inst.schedule(record, scaled, () => {
        fn();
        host.invalidate();
      });
    },
    fetch(req, then) {
      inst.fetch(record, req, then);
    },
    online() {
      return !inst.net.offline;
    },
    animate(key) {
      record.anims.set(key, now());
      host.invalidate();
    },
    progress(key) {
      const start = record.anims.get(key);
      const length = inst.env.faults.animationMs;
      if (start === undefined || length <= 0) return 1;
      return Math.min(1, Math.max(0, (now() - start) / length));
    },
    showDialog(dialog) {
      setDialog(dialog);
    },
    dismissDialog() {
      setDialog(null);
    },
    requestPermission(permission, then) {
      const app = host.apps?.get(inst.model.package);
      if (inst.granted.has(permission) || app?.granted.includes(permission)) return then(true);
      if (app?.requestedPermissions && !app.requestedPermissions.includes(permission)) {
        // Android denies, without a prompt, a permission the manifest does not declare.
        inst.log({
          level: 'W',
          tag: 'PermissionController',
          message: `${permission} not declared by ${inst.model.package}: denied`,
        });
        return then(false);
      }
      if ((inst.denials.get(permission) ?? 0) >= 2) {
        // Denied twice: the system no longer shows the prompt and answers "denied" at once.
        return then(false);
      }
      const answer = (granted: boolean) => () => {
        if (!granted) inst.denials.set(permission, (inst.denials.get(permission) ?? 0) + 1);
        if (granted) {
          inst.granted.add(permission);
          if (app && !app.granted.includes(permission)) app.granted.push(permission);
        }
        inst.log({
          level: 'I',
          tag: 'PermissionController',
          message: `${permission} ${granted ? 'granted' : 'denied'}`,
        });
        then(granted);
      };
      setDialog({
        title: `Allow ${inst.model.label} to ${permissionLabel(permission)}?`,
        buttons: [
          { label: 'While using the app', id: 'permission_allow_foreground_only_button', onClick: answer(true) },
          { label: 'Only this time', id: 'permission_allow_one_time_button', onClick: answer(true) },
          { label: "Don't allow", id: 'permission_deny_button', onClick: answer(false) },
        ],
        cancelable: false,
        onCancel: answer(false),
        package: PERMISSION_PACKAGE,
        activity: PERMISSION_ACTIVITY,
      });
    },
    scaled(ms) {
      return ms * inst.env.faults.loadScale;
    },
    scrollTo(id, px) {
      record.scroll.set(id, px);
      host.invalidate();
    },
    scrollOf(id) {
      return record.scroll.get(id) ?? 0;
    },
    memo(key, deps, build) {
      const kept = record.memo.get(key);
      if (kept && kept.deps.length === deps.length && kept.deps.every((d, i) => d === deps[i])) {
        kept.render = record.renders;
        return kept.view;
      }
      const view = build();
      record.memo.set(key, { deps, view, render: record.renders });
      return view;
    },
    crash(reason) {
      inst.crash(reason);
    },
    shared<T>(key: string, init: () => T): T {
      let map = sharedBySpace.get(host);
      if (!map) sharedBySpace.set(host, (map = new Map()));
      if (!map.has(key)) map.set(key, init());
      return map.get(key) as T;
    },
    clipboard() {
      return host.clipboard ?? null;
    },
    setClipboard(text) {
      host.clipboard = text;
    },
    world: bindWorld(inst, { show: setDialog, dismiss: () => setDialog(null) }),
  };
}

import type { z } from 'zod';
import type { AppWorld, ServiceContext } from '../world/app-world.js';
import type { View } from './view.js';
import type { AppRequest, AppResponse } from '../net/http-client.js';

/** A dialog window over the activity (AlertDialog, popup menu, or the permission prompt). */
export interface DialogSpec {
  title?: string;
  message?: string;
  /** Menu items (a long-press menu); each dismisses the dialog, then runs. */
  items?: Array<{ label: string; onClick: () => void }>;
  /** Buttons along the bottom; each dismisses the dialog, then runs. */
  buttons?: Array<{ label: string; onClick?: () => void; id?: string }>;
  /** Back and taps outside dismiss it (AlertDialog's default). */
  cancelable?: boolean;
  onCancel?: () => void;
  /** Shown by another package (the permission controller), as the real prompt is. */
  package?: string;
  activity?: string;
}

/**
 * What an activity's render and handlers may do. `data` is the instance's persistent data (its
 * files, prefs and databases: kept across stop/launch, wiped by clear_data); `state` belongs to
 * this activity on the back stack and is lost when it finishes.
 */
export interface ActivityContext<D, S> {
  readonly data: D;
  readonly state: S;
  readonly extras: Readonly<Record<string, unknown>>;
  /** Shallow-merge into this activity's state. */
  set(patch: Partial<S>): void;
  /** Change persistent data; it is saved with the instance. */
  update(fn: (data: D) => void): void;
  start(activity: string, extras?: Record<string, unknown>): void;
  finish(): void;
  toast(text: string): void;
  /** A snackbar at the bottom of the activity, gone after 4 s (or when its action is tapped). */
  snackbar(text: string, action?: { label: string; onClick: () => void }): void;
  log(level: 'V' | 'D' | 'I' | 'W' | 'E' | 'F', tag: string, message: string): void;
  /** The simulated clock, ms. */
  now(): number;
  /**
   * Run `fn` after `ms` of background work (a server call, a page load). The fault profile scales
   * the delay (0 under `instant`) unless `fixed`; the UI is not idle while work is pending.
   */
  after(ms: number, fn: () => void, opts?: { fixed?: boolean }): void;
  /**
   * Make an HTTP request, as the app's process would (sim/net/http-client.ts: the device's hosts
   * table, the instance's proxy and trust store, offline). `then` runs on the main thread with the
   * answer or the failure once it is in, if this activity still lives; meanwhile the UI is busy
   * (not idle) unless the request is `background` (polling).
   */
  fetch(req: AppRequest, then: (res: AppResponse) => void): void;
  /** Whether the device reports connectivity to the app (ConnectivityManager): false while net_offline_set holds it offline. */
  online(): boolean;
  /** Start an animation named `key` now. */
  animate(key: string): void;
  /** Progress of animation `key` in [0, 1]; 1 when it never started or has finished. */
  progress(key: string): number;
  showDialog(dialog: DialogSpec): void;
  dismissDialog(): void;
  /** Ask for a runtime permission: the system prompt covers the app until answered. */
  requestPermission(permission: string, then: (granted: boolean) => void): void;
  /** A loading delay as this run's fault profile scales it (0 under `instant`), ms. */
  scaled(ms: number): number;
  /** Scroll offset of list `id` in this activity, px. */
  scrollOf(id: string): number;
  /**
   * The view `build` makes, kept from the last render while `deps` are the same (each by ===), as
   * Compose's `remember(keys)` or a RecyclerView's unchanged item: the screen lays out and
   * flattens a kept subtree as before, not again. `build` must depend on nothing but `deps` (its
   * handlers may read state: they run later, against the state then).
   */
  memo(key: string, deps: readonly unknown[], build: () => View): View;
  /** Scroll list `id` (clamped by the next layout; Infinity = to the end). */
  scrollTo(id: string, px: number): void;
  /** The app throws: its process dies with this Java-like stack trace as the reason. */
  crash(reason: string): void;
  /** State shared by every instance in the space (a simulated backend), created on first use. */
  shared<T>(key: string, init: () => T): T;
  /** The space's clipboard. */
  clipboard(): string | null;
  setClipboard(text: string): void;
  /** The instance's world: location, wall clock, locale, notifications, camera, biometric prompt (sim/world/app-world.ts). */
  readonly world: AppWorld;
}

export type { ServiceContext } from '../world/app-world.js';

export interface ActivityModel<D, S> {
  /**
   * windowSoftInputMode: `pan` (default, adjustPan) moves the window up so the focused field
   * clears the keyboard; `resize` shrinks the activity above it; `nothing` lets it cover fields.
   */
  softInput?: 'pan' | 'resize' | 'nothing';
  initialState(extras: Readonly<Record<string, unknown>>, data: D): S;
  render(ctx: ActivityContext<D, S>): View;
  /** OnBackPressedCallback: return true when the activity handled back (closing a search, a mode). */
  onBack?(ctx: ActivityContext<D, S>): boolean;
}

/** A deep link the app handles: `nwshop://product/42` with pattern `product/:id`. */
export interface DeepLink {
  scheme: string;
  /** `host/segment/:param` — `:name` captures into extras as a string. */
  pattern: string;
  activity: string;
}

/**
 * A function the app declares for agents (an Android app's `@AppFunction`): typed parameters and
 * result (zod; `appfn_list` derives their JSON Schema), run outside any activity with the
 * instance's data, as AppFunctionService runs it. A change to the data shows in the UI at once.
 * `run` throws {@link AppFunctionError} for a bad argument the schema cannot see (no such note).
 */
export interface AppFunctionModel<D, P extends z.ZodObject = z.ZodObject, R extends z.ZodType = z.ZodType> {
  description: string;
  params: P;
  result: R;
  /** Deletes or spends: a call needs a human approval unless the policy pre-approves it. */
  dangerous?: boolean;
  run(params: z.output<P>, ctx: ServiceContext<D>): z.input<R>;
}

/** A function's refusal of an argument: `param` is the parameter it names (`id`). */
export class AppFunctionError extends Error {
  override readonly name = 'AppFunctionError';
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

/** Typed by its schemas: `defineFunction<NotesData>()({ params: z.object({…}), … })`. */
export function defineFunction<D>() {
  return <P extends z.ZodObject, R extends z.ZodType>(f: AppFunctionModel<D, P, R>): AppFunctionModel<D, P, R> => f;
}

export interface AppModel<D = unknown> {
  package: string;
  label: string;
  /** Launcher activity, short form (`.MainActivity`). */
  launcher: string;
  initialData(): D;
  activities: Record<string, ActivityModel<D, any>>;
  deepLinks?: DeepLink[];
  /** A push message from the app's server, as FirebaseMessagingService.onMessageReceived gets it (the `world` extension's world_push). */
  onPush?(data: Record<string, string>, ctx: ServiceContext<D>): void;
  /** The functions it declares (AppFunctions), by id: `appfn_list` / `appfn_execute`. */
  functions?: Record<string, AppFunctionModel<D, any, any>>;
  system?: boolean;
  versionName?: string;
  versionCode?: number;
}

export function defineActivity<D, S>(model: ActivityModel<D, S>): ActivityModel<D, S> {
  return model;
}

export function defineApp<D>(model: AppModel<D>): AppModel<D> {
  if (!(model.launcher in model.activities)) {
    throw new Error(`defineApp(${model.package}): launcher ${model.launcher} is not one of its activities`);
  }
  for (const link of model.deepLinks ?? []) {
    if (!(link.activity in model.activities)) {
      throw new Error(
        `defineApp(${model.package}): deep link ${link.scheme}://${link.pattern} targets unknown activity ${link.activity}`,
      );
    }
  }
  return model;
}

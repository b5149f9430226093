import type { View } from '../ui/view.js';

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
  log(level: 'V' | 'D' | 'I' | 'W' | 'E' | 'F', tag: string, message: string): void;
}

export interface ActivityModel<D, S> {
  initialState(extras: Readonly<Record<string, unknown>>, data: D): S;
  render(ctx: ActivityContext<D, S>): View;
}

export interface AppModel<D = unknown> {
  package: string;
  label: string;
  /** Launcher activity, short form (`.MainActivity`). */
  launcher: string;
  initialData(): D;
  activities: Record<string, ActivityModel<D, any>>;
  system?: boolean;
}

export function defineActivity<D, S>(model: ActivityModel<D, S>): ActivityModel<D, S> {
  return model;
}

export function defineApp<D>(model: AppModel<D>): AppModel<D> {
  if (!(model.launcher in model.activities)) {
    throw new Error(`defineApp(${model.package}): launcher ${model.launcher} is not one of its activities`);
  }
  return model;
}

import type { AppModel } from './define-app.js';
import { chatApp } from './chat.js';
import { notesApp, notesAppV2 } from './notes.js';
import { settingsApp } from './settings.js';
import { shopApp, shopAppV2 } from './shop/index.js';

/** App models bound to real APKs by package name, and by versionCode where an app has several. */
const MODELS: AppModel<any>[] = [notesApp, notesAppV2, shopApp, shopAppV2, chatApp, settingsApp];

/**
 * The model of `pkg` at `versionCode`: the newest model whose versionCode is not above it (an
 * APK newer than every model runs the newest one); without a versionCode, the first version.
 */
export function appModelFor(pkg: string, versionCode?: number): AppModel<any> | undefined {
  const versions = MODELS.filter((m) => m.package === pkg).sort((a, b) => (a.versionCode ?? 1) - (b.versionCode ?? 1));
  if (versionCode === undefined) return versions[0];
  return versions.filter((m) => (m.versionCode ?? 1) <= versionCode).pop() ?? versions[0];
}

/** System apps present in every space without install (listed with `system: true`). */
export function systemApps(): AppModel<any>[] {
  return MODELS.filter((m) => m.system);
}

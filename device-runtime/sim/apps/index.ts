import type { AppModel } from './define-app.js';
import { chatApp } from './chat.js';
import { notesApp } from './notes.js';
import { settingsApp } from './settings.js';
import { shopApp } from './shop/index.js';

/** App models bound to real APKs by package name. */
const MODELS: AppModel<any>[] = [notesApp, shopApp, chatApp, settingsApp];

export function appModelFor(pkg: string): AppModel<any> | undefined {
  return MODELS.find((m) => m.package === pkg);
}

/** System apps present in every space without install (listed with `system: true`). */
export function systemApps(): AppModel<any>[] {
  return MODELS.filter((m) => m.system);
}

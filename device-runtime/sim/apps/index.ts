import type { AppModel } from './define-app.js';
import { notesApp } from './notes.js';

/** App models bound to real APKs by package name. */
const MODELS: AppModel<any>[] = [notesApp];

export function appModelFor(pkg: string): AppModel<any> | undefined {
  return MODELS.find((m) => m.package === pkg);
}

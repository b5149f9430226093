import { defineActivity, defineApp, type AppModel } from './define-app.js';
import { column, text, toolbar } from './view.js';

/**
 * The model for an installed APK that has no app model: it launches and shows its label, as an
 * app with one empty activity would.
 */
export function blankApp(pkg: string, label: string): AppModel<Record<string, never>> {
  return defineApp({
    package: pkg,
    label,
    launcher: '.MainActivity',
    initialData: () => ({}),
    activities: {
      '.MainActivity': defineActivity({
        initialState: () => ({}),
        render: () => column([toolbar(label), text(`${label} has no simulated screens`)]),
      }),
    },
  });
}

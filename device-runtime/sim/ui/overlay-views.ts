import type { DialogSpec } from '../apps/define-app.js';
import type { ActivityRecord } from '../core/activity-context.js';
import { button, column, row, text } from '../apps/view.js';
import type { View } from '../apps/view.js';

/**
 * Views of the windows Android draws over an activity: AlertDialog / popup menu / permission
 * prompt, the snackbar, toasts. Every dialog button dismisses the dialog first, as
 * DialogInterface buttons do, then runs its handler.
 */
export function dialogView(spec: DialogSpec, dismiss: () => void): View {
  const run = (fn?: () => void) => () => {
    dismiss();
    fn?.();
  };
  const parts: View[] = [];
  if (spec.title) parts.push(text(spec.title, { id: spec.package ? 'permission_message' : 'alertTitle', height: 132 }));
  if (spec.message) parts.push(text(spec.message, { id: 'message', height: 120 }));
  for (const item of spec.items ?? []) {
    parts.push(text(item.label, { id: 'title', height: 132, onClick: run(item.onClick) }));
  }
  const buttons = spec.buttons ?? [];
  if (spec.package) {
    // The permission prompt stacks its buttons vertically.
    for (const b of buttons) parts.push(button(b.label, run(b.onClick), { id: b.id ?? 'button', tone: 'primary' }));
  } else if (buttons.length) {
    parts.push(
      row(
        buttons.map((b, i) =>
          button(b.label, run(b.onClick), {
            id: b.id ?? `button${i + 1}`,
            tone: i === buttons.length - 1 ? 'primary' : 'muted',
          }),
        ),
        { height: 144 },
      ),
    );
  }
  return column(parts, { id: spec.package ? 'grant_dialog' : 'parentPanel' });
}

export function snackbarView(bar: NonNullable<ActivityRecord['snackbar']>, dismiss: () => void): View {
  const parts: View[] = [text(bar.text, { id: 'snackbar_text' })];
  if (bar.action) {
    const action = bar.action;
    parts.push(
      button(
        action.label,
        () => {
          dismiss();
          action.onClick();
        },
        { id: 'snackbar_action', width: 360 },
      ),
    );
  }
  return row(parts, { id: 'snackbar', height: 144, tone: 'badge' });
}

export const toastView = (message: string): View => text(message, { id: 'toast', height: 120, tone: 'badge' });

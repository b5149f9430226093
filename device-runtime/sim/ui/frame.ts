import type { Bounds } from '../../protocol/index.js';
import { PERMISSION_ACTIVITY, PERMISSION_PACKAGE, SNACKBAR_MS, type ActivityRecord } from '../core/activity-context.js';
import type { SimInstance } from '../core/instance.js';
import { KEYBOARD_TOP, layout, natural, SCREEN, VIEWPORT, type LaidOut } from './layout.js';
import { fieldKey } from './observe.js';
import { dialogView, snackbarView, toastView } from './overlay-views.js';

/** One window of the display, bottom to top. Only `observed` windows reach the node tree. */
export interface SimWindow {
  kind: 'activity' | 'snackbar' | 'dialog' | 'toast';
  root: LaidOut;
  /** Visible region of this window (the keyboard cuts the activity's). */
  clip: Bounds;
  pkg: string;
  observed: boolean;
}

/** Everything on the display at one instant: what observation, hit tests and screenshots read. */
export interface Frame {
  fg: SimInstance | null;
  record: ActivityRecord | null;
  pkg: string | null;
  activity: string | null;
  windows: SimWindow[];
  keyboard: boolean;
  /** A dialog dims what is behind it. */
  dim: boolean;
  /** Bounds of the dialog window; taps outside it never reach the activity. */
  dialogBox: Bounds | null;
  /** Progress of the running activity/task transition, 1 when none. */
  transition: number;
}

export interface FrameInput {
  fg: SimInstance | null;
  now: number;
  keyboard: boolean;
  transition: { progress: number; kind: 'activity' | 'task' };
  toasts: string[];
  /** The fault profile's animation length: snackbars slide up over it. */
  animationMs: number;
}

/**
 * Compose the display: the foreground activity (slid by a running transition), its snackbar, a
 * dialog dimming everything behind it, toasts, and the keyboard's cut of the visible region.
 */
export function composeFrame(input: FrameInput): Frame {
  const { fg, now } = input;
  const record = fg?.top ?? null;
  const windows: SimWindow[] = [];
  const pkg = fg?.model.package ?? null;
  const dialog = record?.dialog ?? null;
  const keyboard = input.keyboard && !dialog && !!record;
  let dialogBox: Bounds | null = null;
  if (fg && record) {
    const content = fg.render();
    // render() may have finished the activity or crashed the app
    if (content && fg.top === record) {
      const p = input.transition.progress;
      const ease = (1 - p) * (1 - p);
      const dx = input.transition.kind === 'activity' ? Math.round(ease * 360) : 0;
      const dy = input.transition.kind === 'task' ? Math.round(ease * 600) : 0;
      const mode = fg.model.activities[record.name]?.softInput ?? 'pan';
      const resize = keyboard && mode === 'resize';
      const bottom = resize ? KEYBOARD_TOP : VIEWPORT[3];
      const box: Bounds = [VIEWPORT[0] + dx, VIEWPORT[1] + dy, VIEWPORT[2] + dx, bottom + dy];
      const clip: Bounds = keyboard ? [VIEWPORT[0], VIEWPORT[1], VIEWPORT[2], KEYBOARD_TOP] : VIEWPORT;
      let root = layout(content, box, record.scroll);
      // adjustPan: the window moves up just enough for the focused field to clear the keyboard.
      const pan = keyboard && mode === 'pan' ? panFor(root, record.focus) : 0;
      if (pan > 0) root = layout(content, [box[0], box[1] - pan, box[2], box[3] - pan], record.scroll);
      windows.push({ kind: 'activity', root, clip, pkg: pkg!, observed: !dialog });
      if (record.snackbar && record.snackbar.until <= now) record.snackbar = null;
      if (record.snackbar) {
        const view = snackbarView(record.snackbar, () => (record.snackbar = null));
        const shown = now - (record.snackbar.until - SNACKBAR_MS);
        const slide = input.animationMs > 0 ? Math.round(Math.max(0, 1 - shown / input.animationMs) * 168) : 0;
        const bottom = (keyboard ? KEYBOARD_TOP : VIEWPORT[3]) + slide;
        windows.push({
          kind: 'snackbar',
          root: layout(view, [24, bottom - 168, SCREEN.width - 24, bottom - 24], record.scroll),
          clip,
          pkg: pkg!,
          observed: !dialog,
        });
      }
      if (dialog) {
        const view = dialogView(dialog, () => {
          if (record.dialog === dialog) record.dialog = null;
          fg.host.invalidate();
        });
        const h = natural(view);
        const top = Math.round((VIEWPORT[1] + VIEWPORT[3] - h) / 2);
        dialogBox = [72, top, SCREEN.width - 72, top + h];
        windows.push({
          kind: 'dialog',
          root: layout(view, dialogBox, record.scroll),
          clip: dialogBox,
          pkg: dialog.package ?? pkg!,
          observed: true,
        });
      }
    }
  }
  for (const [i, message] of input.toasts.entries()) {
    const y = VIEWPORT[3] - 300 - i * 140;
    windows.push({
      kind: 'toast',
      root: layout(toastView(message), [140, y, SCREEN.width - 140, y + 120], new Map()),
      clip: VIEWPORT,
      pkg: 'android',
      observed: true,
    });
  }
  const front = fg && fg.top === record ? record : null;
  return {
    fg,
    record: front,
    pkg: dialog?.package ?? (front ? pkg : null),
    activity: dialog?.package === PERMISSION_PACKAGE ? PERMISSION_ACTIVITY : (dialog?.activity ?? front?.name ?? null),
    windows,
    keyboard: keyboard && !!front,
    dim: !!dialog && !!front,
    dialogBox,
    transition: input.transition.progress,
  };
}

/** The laid-out view whose field key is `focus` (the focused field), wherever it is. */
export function findField(root: LaidOut, focus: string | null): LaidOut | null {
  if (focus === null) return null;
  if (root.view.kind === 'edit-text' && fieldKey(root) === focus) return root;
  for (const c of root.children) {
    const hit = findField(c, focus);
    if (hit) return hit;
  }
  return null;
}

/** Gap Android's adjustPan leaves between the focused field and the keyboard, px. */
const PAN_MARGIN = 24;

/**
 * How far adjustPan moves the window up: enough for the focused field's bottom (plus a margin) to
 * clear the keyboard, never more than the keyboard is tall; 0 when the field is already visible.
 */
function panFor(root: LaidOut, focus: string | null): number {
  const field = findField(root, focus);
  if (!field) return 0;
  const overlap = field.bounds[3] + PAN_MARGIN - KEYBOARD_TOP;
  return overlap > 0 ? Math.min(overlap, VIEWPORT[3] - KEYBOARD_TOP) : 0;
}

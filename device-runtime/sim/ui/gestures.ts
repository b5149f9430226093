import type { Key, UiNode } from '../../protocol/index.js';
import { toolError } from '../../protocol/index.js';
import { SimError } from '../core/sim-error.js';
import { findField, type Frame } from './frame.js';
import { KEYBOARD_TOP, listsOf, VIEWPORT, type LaidOut } from './layout.js';
import { fieldKey, type FlatNode } from './observe.js';
import type { SimScreen, Snapshot, Target } from './screen.js';

export interface ActionOutcome {
  method: 'node' | 'gesture';
  node: UiNode | null;
}

const inside = (b: readonly number[], x: number, y: number) => x >= b[0]! && x < b[2]! && y >= b[1]! && y < b[3]!;
const touchable = (n: FlatNode) =>
  !!(n.view.onClick || n.view.onTapAt || n.view.onLongClick || n.view.kind === 'edit-text');

/** Run an app callback for the app in front: its exceptions crash it, as on a device. */
function app(snap: Snapshot, fn: () => void): void {
  const fg = snap.frame.fg;
  if (fg) fg.runApp(fn);
  else fn();
}

function requireInjection(screen: SimScreen, tool: string): void {
  if (!screen.channel.inject) {
    throw new SimError(
      toolError(
        'CHANNEL_UNAVAILABLE',
        `${tool}: no channel can inject input in space ${screen.spaceId} (only vision is available)`,
        {
          hint: 'Enable the accessibility service or start Shizuku for this space.',
        },
      ),
    );
  }
}

/** What a finger at (x, y) lands on: the keyboard, outside a dialog, or the topmost touchable node. */
function hitTest(
  snap: Snapshot,
  x: number,
  y: number,
): { kind: 'keyboard' | 'outside' | 'none' } | { kind: 'node'; hit: FlatNode } {
  const f = snap.frame;
  if (f.keyboard && y >= KEYBOARD_TOP && y < VIEWPORT[3]) return { kind: 'keyboard' };
  if (f.dialogBox && !inside(f.dialogBox, x, y)) return { kind: 'outside' };
  let best: FlatNode | null = null;
  for (const n of snap.nodes) if (inside(n.node.bounds, x, y) && touchable(n)) best = n;
  return best ? { kind: 'node', hit: best } : { kind: 'none' };
}

function focusField(screen: SimScreen, frame: Frame, laid: LaidOut): void {
  if (!frame.record) return;
  frame.record.focus = fieldKey(laid);
  screen.showKeyboard();
}

/** ACTION_CLICK on a node, as the accessibility service performs it. */
function click(screen: SimScreen, snap: Snapshot, n: FlatNode, x: number, y: number): void {
  if (!n.node.enabled) return;
  const v = n.view;
  const { onTapAt, onClick } = v;
  if (v.kind === 'edit-text') {
    focusField(screen, snap.frame, n.laid);
    // A field of a WebView's page: the touch reaches the page too, which focuses it there.
    if (onTapAt) app(snap, () => onTapAt(x - n.laid.bounds[0], y - n.laid.bounds[1]));
    return;
  }
  if (onTapAt) return app(snap, () => onTapAt(x - n.laid.bounds[0], y - n.laid.bounds[1]));
  if (onClick) app(snap, onClick);
}

function gestureTap(screen: SimScreen, snap: Snapshot, x: number, y: number): UiNode | null {
  const h = hitTest(snap, x, y);
  if (h.kind === 'outside') {
    const record = snap.frame.record;
    const dialog = record?.dialog;
    if (record && dialog?.cancelable) {
      record.dialog = null;
      if (dialog.onCancel) app(snap, dialog.onCancel);
    }
    return null;
  }
  if (h.kind !== 'node') return null;
  click(screen, snap, h.hit, x, y);
  return h.hit.node;
}

/**
 * Node first, gesture as fallback (companion GestureExecutor): a clickable node gets ACTION_CLICK
 * when the channel can act on nodes; anything else (a text inside a clickable row, a WebView, a
 * point, Shizuku's `input tap`) is a tap at coordinates that lands on whatever is on top there.
 */
function tapNow(screen: SimScreen, target: Target): ActionOutcome {
  requireInjection(screen, 'ui_tap');
  const { snap, hit, point } = screen.resolve(target, 'ui_tap');
  if (screen.dropsAction()) return { method: hit ? 'node' : 'gesture', node: hit?.node ?? null };
  const [x, y] = point;
  if (hit && screen.channel.nodeActions && (hit.view.onClick || hit.view.kind === 'edit-text') && !hit.view.onTapAt) {
    click(screen, snap, hit, x, y);
    return { method: 'node', node: hit.node };
  }
  const landed = gestureTap(screen, snap, x, y);
  return { method: 'gesture', node: hit?.node ?? landed };
}

function longPressNow(screen: SimScreen, target: Target): ActionOutcome {
  requireInjection(screen, 'ui_long_press');
  const { snap, hit, point } = screen.resolve(target, 'ui_long_press');
  if (screen.dropsAction()) return { method: hit ? 'node' : 'gesture', node: hit?.node ?? null };
  if (hit?.view.onLongClick && screen.channel.nodeActions) {
    if (hit.node.enabled) app(snap, hit.view.onLongClick);
    return { method: 'node', node: hit.node };
  }
  const h = hitTest(snap, point[0], point[1]);
  if (h.kind !== 'node') return { method: 'gesture', node: null };
  const onLong = h.hit.view.onLongClick;
  if (h.hit.node.enabled && onLong) app(snap, onLong);
  return { method: 'gesture', node: h.hit.node };
}

function setTextNow(screen: SimScreen, target: Target, value: string, submit: boolean): ActionOutcome {
  requireInjection(screen, 'ui_set_text');
  const { snap, hit, point } = screen.resolve(target, 'ui_set_text');
  const field =
    hit ??
    (() => {
      const h = hitTest(snap, point[0], point[1]);
      return h.kind === 'node' ? h.hit : null;
    })();
  if (!field || field.view.kind !== 'edit-text' || !field.view.onTextChange) {
    throw new SimError(
      toolError(
        'INVALID_ARGUMENT',
        `ui_set_text: the target ${field ? `${field.node.id} (${field.node.role})` : 'point'} is not an editable field`,
        {
          hint: 'Target a node with editable=true (observe to find one).',
        },
      ),
    );
  }
  const method = screen.channel.nodeActions ? 'node' : 'gesture';
  if (screen.dropsAction()) return { method, node: field.node };
  if (!field.node.enabled) return { method, node: field.node };
  focusField(screen, snap.frame, field.laid);
  const { onTextChange, onSubmit } = field.view;
  app(snap, () => onTextChange(value));
  if (submit && onSubmit) app(snap, onSubmit);
  return { method, node: field.node };
}

/**
 * The activity's focused field, wherever it is: a key event goes to the focused view even when
 * the keyboard covers it or was hidden, as KEYCODE_ENTER does on a device.
 */
function focusedField(snap: Snapshot): LaidOut | null {
  const w = snap.frame.windows.find((x) => x.kind === 'activity');
  return w && !snap.frame.dialogBox ? findField(w.root, snap.frame.record?.focus ?? null) : null;
}

/**
 * Keys as a real device handles them: back first closes a dialog, then the keyboard, and only
 * then finishes the activity; enter is the field's IME action; home leaves the app.
 */
function pressKeyNow(screen: SimScreen, key: Key, leave: () => void): void {
  requireInjection(screen, 'ui_key');
  if (screen.dropsAction()) return;
  const snap = screen.snapshot(false);
  const { fg, record } = snap.frame;
  if (key === 'back') {
    if (record?.dialog) {
      const dialog = record.dialog;
      if (dialog.cancelable || dialog.package) {
        record.dialog = null;
        if (dialog.onCancel) app(snap, dialog.onCancel);
      }
      return;
    }
    if (screen.hideKeyboard() && snap.frame.keyboard) return;
    if (fg && snap.frame.record && fg.handleBack()) return;
    if (fg && !fg.back()) leave();
  } else if (key === 'home') {
    screen.hideKeyboard();
    if (fg) leave();
  } else if (key === 'enter') {
    const field = focusedField(snap);
    const onSubmit = field?.view.onSubmit;
    if (onSubmit) {
      screen.hideKeyboard();
      app(snap, onSubmit);
    }
  } else if (key === 'delete') {
    const field = focusedField(snap);
    const onTextChange = field?.view.onTextChange;
    const current = field?.view.text;
    if (onTextChange && current) app(snap, () => onTextChange(current.slice(0, -1)));
  }
  screen.invalidate();
}

/** Move a list by `dy` px; at the end of a paged list, ask for the next page. */
function moveList(screen: SimScreen, snap: Snapshot, list: LaidOut, dy: number): boolean {
  const s = list.scroll!;
  const record = snap.frame.record;
  if (!record) return false;
  const next = Math.min(s.max, Math.max(0, s.offset + Math.round(dy)));
  record.scroll.set(s.key, next);
  const moved = next !== s.offset;
  if (moved) {
    screen.changed();
    const after = screen.snapshot(false);
    for (const w of after.frame.windows) {
      for (const l of listsOf(w.root)) {
        const onEnd = l.scroll!.onEndReached;
        if (l.scroll!.key === s.key && l.scroll!.atEnd && onEnd) app(after, onEnd);
      }
    }
    screen.invalidate();
  }
  return moved;
}

function activityLists(snap: Snapshot): LaidOut[] {
  const w = snap.frame.windows.find((x) => x.kind === 'activity' && x.observed);
  return w ? listsOf(w.root).filter((l) => l.scroll!.max > 0) : [];
}

/**
 * A drag moves a list under the finger by the distance dragged; a quick one (under 200 ms) flings
 * it further, as RecyclerView's fling does (up to ~3× at 10 ms).
 */
function swipeNow(screen: SimScreen, from: [number, number], to: [number, number], durationMs = 300): void {
  requireInjection(screen, 'ui_swipe');
  const snap = screen.snapshot(false);
  if (screen.dropsAction()) return;
  const h = hitTest(snap, from[0], from[1]);
  if (h.kind === 'keyboard' || h.kind === 'outside' || snap.frame.dialogBox) return;
  // A drag on a WebView scrolls its page, in any direction.
  const web = [...snap.nodes].reverse().find((n) => n.view.onSwipe && inside(n.node.bounds, from[0], from[1]));
  const onSwipe = web?.view.onSwipe;
  if (web && onSwipe) {
    const [l, t] = web.laid.bounds;
    return app(snap, () => onSwipe([from[0] - l, from[1] - t], [to[0] - l, to[1] - t], durationMs));
  }
  const dy = from[1] - to[1];
  if (Math.abs(dy) < Math.abs(from[0] - to[0])) return;
  const lists = activityLists(snap).filter((l) => inside(l.bounds, from[0], from[1]));
  const list = lists[lists.length - 1];
  const fling = durationMs < 200 ? 1 + (200 - durationMs) / 100 : 1;
  if (list) moveList(screen, snap, list, dy * fling);
}

/** ACTION_SCROLL_FORWARD/BACKWARD: a page (less a little overlap) per unit of `amount`. */
function scrollNow(
  screen: SimScreen,
  args: { direction: 'up' | 'down' | 'left' | 'right'; node_id?: string; snapshot_id?: string; amount: number },
): boolean {
  requireInjection(screen, 'ui_scroll');
  let snap: Snapshot;
  let list: LaidOut | undefined;
  if (args.node_id !== undefined) {
    const r = screen.resolve(
      { node_id: args.node_id, ...(args.snapshot_id ? { snapshot_id: args.snapshot_id } : {}) },
      'ui_scroll',
    );
    snap = r.snap;
    list = r.hit?.laid.scroll && r.hit.laid.scroll.max > 0 ? r.hit.laid : undefined;
    if (!list) {
      throw new SimError(
        toolError('INVALID_ARGUMENT', `ui_scroll: node ${args.node_id} is not scrollable`, {
          hint: 'Give a node with scrollable=true, or omit node_id to scroll the largest list.',
        }),
      );
    }
  } else {
    snap = screen.snapshot(false);
    const area = (l: LaidOut) => (l.bounds[2] - l.bounds[0]) * (l.bounds[3] - l.bounds[1]);
    list = activityLists(snap).sort((a, b) => area(b) - area(a))[0];
  }
  if (!list || args.direction === 'left' || args.direction === 'right') return false;
  if (screen.dropsAction()) return true;
  const sign = args.direction === 'down' ? 1 : -1;
  return moveList(screen, snap, list, sign * args.amount * list.scroll!.page * 0.8);
}

/**
 * The gestures as tools call them. Each tells the screen it may have changed once it is done
 * (whatever app code ran, and a dialog closed or a field focused by the gesture itself), so a
 * kept frame is never shown after an action: see SimScreen.changed.
 */
const marking =
  <A extends unknown[], R>(fn: (screen: SimScreen, ...args: A) => R) =>
  (screen: SimScreen, ...args: A): R => {
    try {
      return fn(screen, ...args);
    } finally {
      screen.changed();
    }
  };

export const tap = marking(tapNow);
export const longPress = marking(longPressNow);
export const setText = marking(setTextNow);
export const pressKey = marking(pressKeyNow);
export const swipe = marking(swipeNow);
export const scroll = marking(scrollNow);

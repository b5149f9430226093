import type { Bounds } from '../../protocol/index.js';
import type { Frame } from './frame.js';
import { KEYBOARD_TOP, SCREEN, VIEWPORT, type LaidOut } from './layout.js';
import { intersect } from './observe.js';
import { paletteOf, type Palette } from './palette.js';
import { Raster } from './raster.js';
import type { WebPicture } from '../web/web-content.js';

/** One drawing command in screen px. A frame's commands are its cache key for the PNG. */
export type PaintOp =
  | { op: 'fill'; b: Bounds; c: string; a?: number }
  | { op: 'outline'; b: Bounds; c: string }
  | { op: 'text'; x: number; y: number; t: string; px: number; c: string; maxX: number }
  /** A WebView's page picture scaled into `b`, clipped to `clip` (serialised as the picture's id). */
  | { op: 'image'; b: Bounds; clip: Bounds; pic: WebPicture };

/** A glyph for common icon buttons, so screenshots show what the icon is; else its initial. */
function iconGlyph(desc: string | undefined): string {
  const d = (desc ?? '?').toLowerCase();
  if (d.startsWith('navigate up') || d === 'collapse') return '<';
  if (d.includes('search')) return 'Q';
  if (d.includes('more options')) return ':';
  if (d.startsWith('cart')) return '$';
  if (d === 'send') return '>';
  if (d.startsWith('remove') || d.startsWith('delete')) return 'X';
  return d.slice(0, 1).toUpperCase();
}

/** Paint the commands of one frame: windows bottom to top, dim behind a dialog, keyboard, bars. */
export function paintFrame(frame: Frame): PaintOp[] {
  // The foreground instance's colour scheme (the `world` extension's dark mode) picks the colours.
  const C = paletteOf(frame.fg?.world.colorScheme);
  const ops: PaintOp[] = [{ op: 'fill', b: [0, 0, SCREEN.width, SCREEN.height], c: C.surface }];
  /** Text wrapped to the box's width (as many lines as fit), centered vertically. */
  const text = (b: Bounds, t: string, px: number, c: string, align: 'left' | 'center' = 'left') => {
    const lineH = 10 * px;
    const adv = Raster.advance(px);
    const slack = (b[2] - b[0] - t.length * adv) >> 1;
    // Full padding when there is room; less in narrow boxes (a badge); full again when wrapping.
    const pad = slack >= 40 || slack < 4 ? 40 : slack;
    const perLine = Math.max(1, Math.floor((b[2] - b[0] - 2 * pad) / adv));
    const maxLines = Math.max(0, Math.floor((b[3] - b[1] + 2 * px) / lineH));
    if (maxLines === 0) return;
    const lines: string[] = [];
    let cur = '';
    for (const word of t.split(' ')) {
      const next = cur ? `${cur} ${word}` : word;
      if (next.length <= perLine || !cur) cur = next;
      else {
        lines.push(cur);
        cur = word;
      }
    }
    lines.push(cur);
    const shown = lines.slice(0, maxLines);
    let y = ((b[1] + b[3]) >> 1) - ((shown.length * lineH - 3 * px) >> 1);
    for (const line of shown) {
      const w = line.length * adv;
      const x = align === 'center' ? Math.max(b[0] + pad, (b[0] + b[2] - w) >> 1) : b[0] + pad;
      ops.push({ op: 'text', x, y, t: line, px, c, maxX: b[2] - 4 });
      y += lineH;
    }
  };
  const paint = (n: LaidOut, clip: Bounds, dark = false) => {
    const vis = intersect(n.bounds, clip);
    if (!vis) return;
    const v = n.view;
    const b = n.bounds;
    // Text is drawn only when its whole line fits in the visible part, as a clipped line would be cut.
    const whole = vis[1] <= b[1] + 8 && vis[3] >= b[3] - 8 ? b : vis;
    const enabled = v.enabled ?? true;
    switch (v.kind) {
      case 'toolbar':
        ops.push({ op: 'fill', b: vis, c: C.toolbar });
        break;
      case 'button': {
        const color = !enabled ? C.line : v.tone === 'muted' ? C.soft : v.tone === 'danger' ? C.danger : C.primary;
        ops.push({ op: 'fill', b: intersect([b[0] + 24, b[1] + 16, b[2] - 24, b[3] - 16], vis) ?? vis, c: color });
        if (v.text) text(whole, v.text, 5, v.tone === 'muted' || !enabled ? C.ink : C.onPrimary, 'center');
        break;
      }
      case 'image-button':
        ops.push({
          op: 'fill',
          b: intersect([b[0] + 36, b[1] + 36, b[2] - 36, b[3] - 36], vis) ?? vis,
          c: v.tone === 'badge' ? C.danger : C.bar,
        });
        text(whole, iconGlyph(v.desc), 6, C.onDark, 'center');
        break;
      case 'image':
        ops.push({ op: 'fill', b: vis, c: C.soft });
        if (v.desc) text(whole, v.desc, 4, C.muted, 'center');
        break;
      case 'text': {
        const badge = v.tone === 'badge';
        if (badge) ops.push({ op: 'fill', b: vis, c: C.badge });
        const onToolbar = v.id === 'toolbar_title';
        if (v.text)
          text(
            whole,
            v.text,
            onToolbar ? 6 : 5,
            badge || onToolbar || dark ? C.onDark : v.tone === 'muted' ? C.muted : v.tone === 'faint' ? C.faint : C.ink,
          );
        if (v.onClick && !badge) ops.push({ op: 'fill', b: [vis[0] + 40, vis[3] - 2, vis[2] - 40, vis[3]], c: C.line });
        break;
      }
      case 'edit-text': {
        const focused = frame.record?.focus === (v.id ?? n.path);
        ops.push({
          op: 'fill',
          b: [vis[0] + 40, Math.max(vis[1], b[3] - 24 - (focused ? 6 : 3)), vis[2] - 40, Math.min(vis[3], b[3] - 24)],
          c: focused ? C.primary : C.muted,
        });
        const shown = v.text ? (v.password ? '*'.repeat(v.text.length) : v.text) : (v.hint ?? '');
        text(whole, shown, 5, v.text ? C.ink : C.muted);
        break;
      }
      case 'checkbox':
      case 'switch': {
        const on = !!v.checked;
        const cy = (b[1] + b[3]) >> 1;
        const box: Bounds =
          v.kind === 'checkbox' ? [b[2] - 120, cy - 30, b[2] - 60, cy + 30] : [b[2] - 180, cy - 24, b[2] - 60, cy + 24];
        ops.push({ op: on ? 'fill' : 'outline', b: box, c: on ? C.primary : C.muted });
        if (v.kind === 'switch')
          ops.push({
            op: 'fill',
            b: on ? [box[2] - 48, box[1], box[2], box[3]] : [box[0], box[1], box[0] + 48, box[3]],
            c: on ? C.surface : C.muted,
          });
        if (v.text) text([b[0], b[1], b[2] - 200, b[3]], v.text, 5, C.ink);
        break;
      }
      case 'progress': {
        const cx = (b[0] + b[2]) >> 1;
        const cy = (b[1] + b[3]) >> 1;
        ops.push({ op: 'outline', b: [cx - 36, cy - 36, cx + 36, cy + 36], c: C.primary });
        break;
      }
      case 'webview':
        if (n.picture) {
          ops.push({ op: 'image', b, clip: vis, pic: n.picture });
          break;
        }
        ops.push({ op: 'outline', b: vis, c: C.line });
        (v.pageLines ?? []).forEach((line, i) => {
          const y = b[1] + 40 + i * 64;
          if (y >= vis[1] && y + 28 <= vis[3])
            ops.push({ op: 'text', x: b[0] + 40, y, t: line, px: 4, c: C.ink, maxX: vis[2] - 16 });
        });
        break;
      case 'canvas':
        ops.push({ op: 'fill', b: vis, c: C.canvas });
        for (const s of v.shapes ?? []) {
          const r = intersect([b[0] + s.rect[0], b[1] + s.rect[1], b[0] + s.rect[2], b[1] + s.rect[3]], vis);
          if (!r) continue;
          ops.push({ op: 'fill', b: r, c: s.color });
          if (s.label) text(r, s.label, 4, C.onDark, 'center');
        }
        break;
      case 'list':
        n.children.forEach((child) =>
          ops.push({
            op: 'fill',
            b: intersect([child.bounds[0], child.bounds[3] - 2, child.bounds[2], child.bounds[3]], vis) ?? [0, 0, 0, 0],
            c: C.line,
          }),
        );
        break;
      default:
        if (v.tone === 'badge') ops.push({ op: 'fill', b: vis, c: C.badge });
    }
    if (v.kind === 'webview' || v.kind === 'canvas') return;
    const onDark = dark || v.tone === 'badge' || v.kind === 'toolbar';
    for (const c of n.children) paint(c, vis, onDark);
  };
  for (const w of frame.windows) {
    if (w.kind === 'dialog') {
      ops.push({ op: 'fill', b: [0, 0, SCREEN.width, SCREEN.height], c: '#000000', a: 0.5 });
      ops.push({ op: 'fill', b: w.clip, c: C.surface });
    }
    if (w.kind === 'snackbar' || w.kind === 'toast') ops.push({ op: 'fill', b: w.root.bounds, c: C.badge });
    paint(
      w.root,
      w.kind === 'activity' && frame.keyboard ? [w.clip[0], w.clip[1], w.clip[2], VIEWPORT[3]] : w.clip,
      w.kind !== 'activity' && w.kind !== 'dialog',
    );
  }
  if (frame.keyboard) paintKeyboard(ops, C);
  paintBars(ops, C);
  return ops.filter((o) => o.op !== 'fill' || (o.b[2] > o.b[0] && o.b[3] > o.b[1]));
}

function paintKeyboard(ops: PaintOp[], C: Palette): void {
  ops.push({ op: 'fill', b: [0, KEYBOARD_TOP, SCREEN.width, VIEWPORT[3]], c: C.keyboard });
  const rows = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
  rows.forEach((keys, r) => {
    const w = 100;
    const left = (SCREEN.width - keys.length * (w + 6)) >> 1;
    const top = KEYBOARD_TOP + 40 + r * 180;
    [...keys].forEach((k, i) => {
      const x = left + i * (w + 6);
      ops.push({ op: 'fill', b: [x, top, x + w, top + 150], c: C.surface });
      ops.push({ op: 'text', x: x + 35, y: top + 55, t: k, px: 5, c: C.ink, maxX: x + w });
    });
  });
  ops.push({ op: 'fill', b: [240, KEYBOARD_TOP + 600, 840, KEYBOARD_TOP + 750], c: C.surface });
}

function paintBars(ops: PaintOp[], C: Palette): void {
  ops.push({ op: 'fill', b: [0, 0, SCREEN.width, SCREEN.statusBar], c: C.statusBar });
  ops.push({ op: 'text', x: 40, y: 24, t: '12:00', px: 5, c: C.onDark, maxX: 400 });
  ops.push({ op: 'outline', b: [960, 24, 1040, 60], c: C.onDark });
  ops.push({ op: 'fill', b: [966, 30, 1020, 54], c: C.onDark });
  const top = SCREEN.height - SCREEN.navBar;
  ops.push({ op: 'fill', b: [0, top, SCREEN.width, SCREEN.height], c: '#000000' });
  ops.push({ op: 'text', x: 250, y: top + 42, t: '<', px: 6, c: C.onDark, maxX: 400 });
  ops.push({ op: 'outline', b: [510, top + 33, 570, top + 93], c: C.onDark });
  ops.push({ op: 'outline', b: [790, top + 36, 844, top + 90], c: C.onDark });
}

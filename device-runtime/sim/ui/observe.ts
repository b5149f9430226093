import { createHash } from 'node:crypto';
import type { Bounds, UiNode } from '../../protocol/index.js';
import type { LaidOut } from './layout.js';
import type { View, ViewKind } from '../apps/view.js';

const ROLE: Record<ViewKind, string> = {
  column: 'group',
  row: 'group',
  text: 'text',
  button: 'button',
  'image-button': 'button',
  image: 'image',
  'edit-text': 'textbox',
  checkbox: 'checkbox',
  switch: 'switch',
  list: 'list',
  toolbar: 'toolbar',
  spacer: 'view',
  webview: 'webview',
  canvas: 'canvas',
  progress: 'progressbar',
};

export interface FlatNode {
  node: UiNode;
  view: View;
  laid: LaidOut;
}

export function intersect(a: Bounds, b: Bounds): Bounds | null {
  const r: Bounds = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return r[2] > r[0] && r[3] > r[1] ? r : null;
}

/** The key that names an editable field across renders: its resource id, else its tree position. */
export const fieldKey = (n: LaidOut) => n.view.id ?? n.path;

export interface FlattenOptions {
  pkg: string;
  full: boolean;
  /** Key of the focused field (see {@link fieldKey}). */
  focus: string | null;
  /** Numbering continues from here, so several windows share one id space. */
  firstId?: number;
}

/**
 * Flatten a laid-out tree as an accessibility service sees it (docs/protocol.md#observation): nodes clipped to their
 * parents and the visible region (the app window minus what the keyboard covers) are invisible
 * and dropped; in compact detail only nodes that are clickable, editable, scrollable or carry
 * text or a description are kept. A canvas exposes no children; a WebView, its page's nodes.
 */
export function flatten(root: LaidOut, viewport: Bounds, opts: FlattenOptions): FlatNode[] {
  const out: FlatNode[] = [];
  let next = opts.firstId ?? 1;
  const walk = (n: LaidOut, clip: Bounds, parent: string | null, depth: number) => {
    const visible = intersect(n.bounds, clip);
    if (!visible) return;
    const v = n.view;
    const clickable = v.clickable ?? (!!v.onClick || !!v.onTapAt);
    const editable = v.kind === 'edit-text';
    const scrollable = v.kind === 'list' && !!n.scroll && n.scroll.max > 0;
    const keep =
      opts.full ||
      clickable ||
      editable ||
      scrollable ||
      !!v.onLongClick ||
      !!v.text ||
      !!v.desc ||
      v.kind === 'webview' ||
      v.kind === 'canvas';
    let id = parent;
    if (keep) {
      id = `n_${next++}`;
      const checkable = v.kind === 'checkbox' || v.kind === 'switch';
      out.push({
        view: v,
        laid: n,
        node: {
          id,
          role: v.role ?? ROLE[v.kind],
          text: editable && v.password ? (v.text ? '•'.repeat(v.text.length) : null) : (v.text ?? null),
          desc: v.desc ?? null,
          bounds: visible,
          clickable,
          editable,
          scrollable,
          enabled: v.enabled ?? true,
          focused: editable ? opts.focus === fieldKey(n) : (v.focused ?? false),
          selected: v.selected ?? false,
          class: v.className,
          res_id: v.id ? `${opts.pkg}:id/${v.id}` : null,
          long_clickable: !!v.onLongClick,
          checkable,
          checked: checkable ? (v.checked ?? false) : false,
          password: v.password ?? false,
          hint: v.hint ?? null,
          parent,
          depth,
        },
      });
    }
    // A WebView's children are its page's nodes (ui/web-views.ts); a canvas has none.
    if (v.kind === 'canvas') return;
    for (const c of n.children) walk(c, visible, id, depth + 1);
  };
  walk(root, viewport, null, 0);
  return out;
}

/** Hash of node ids, texts and centers (companion design): equal hashes mean the same screen. */
export function screenHash(nodes: UiNode[]): string {
  return hash16(
    nodes.map(
      (n) =>
        `${n.res_id ?? ''}|${n.role}|${n.text ?? ''}|${n.desc ?? ''}|${n.checked ? 1 : 0}|${(n.bounds[0] + n.bounds[2]) >> 1},${(n.bounds[1] + n.bounds[3]) >> 1}\n`,
    ),
  );
}

/** Hash of structure only (no text): a node id still names the same view while this is equal. */
export function structureHash(nodes: UiNode[]): string {
  return hash16(nodes.map((n) => `${n.id}|${n.class}|${n.res_id ?? ''}|${n.bounds.join(',')}\n`));
}

/** The first 16 hex digits of the SHA-256 of the lines, hashed as one text (one native call, not one per node). */
function hash16(lines: string[]): string {
  return createHash('sha256').update(lines.join('')).digest('hex').slice(0, 16);
}

import { createHash } from 'node:crypto';
import type { Bounds, UiNode } from '../../protocol/index.js';
import { fnv2 } from '../../protocol/observe-diff.js';
import { still, type LaidOut } from './layout.js';
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
  /** The node's line of {@link screenHash} and of {@link structureHash} summed, made at the first hash (a kept subtree's flat nodes are the same objects). */
  sums?: { screen?: Sum; structure?: Sum };
}

/** Two 32-bit FNV-1a sums of a hash line. */
type Sum = readonly [number, number];

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
    // A laid-out subtree kept from the last layout (ui/layout.ts), flattened under the same
    // conditions, gives the same nodes: the same objects, so what is computed per node object
    // (hash lines, the effect check's summaries) is not computed again.
    if (n.children.length === 0 || !still(n.view)) return walkNow(n, clip, parent, depth);
    const kept = keptFlat.get(n);
    if (kept && sameConditions(kept, clip, parent, depth, next, opts)) {
      for (const f of kept.nodes) out.push(f);
      next += kept.ids;
      return;
    }
    const start = out.length;
    const firstId = next;
    walkNow(n, clip, parent, depth);
    keptFlat.set(n, {
      clip,
      parent,
      depth,
      firstId,
      full: opts.full,
      focus: opts.focus,
      pkg: opts.pkg,
      nodes: out.slice(start),
      ids: next - firstId,
    });
  };
  const walkNow = (n: LaidOut, clip: Bounds, parent: string | null, depth: number) => {
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

/** The last flattening of a laid-out subtree, with the conditions it was made under. */
interface KeptFlat {
  clip: Bounds;
  parent: string | null;
  depth: number;
  firstId: number;
  full: boolean;
  focus: string | null;
  pkg: string;
  nodes: FlatNode[];
  ids: number;
}
const keptFlat = new WeakMap<LaidOut, KeptFlat>();

/** Whether a kept flattening was made under these conditions (compared field by field: no key string per subtree). */
function sameConditions(
  k: KeptFlat,
  clip: Bounds,
  parent: string | null,
  depth: number,
  firstId: number,
  opts: FlattenOptions,
): boolean {
  return (
    k.firstId === firstId &&
    k.parent === parent &&
    k.depth === depth &&
    k.clip[0] === clip[0] &&
    k.clip[1] === clip[1] &&
    k.clip[2] === clip[2] &&
    k.clip[3] === clip[3] &&
    k.full === opts.full &&
    k.focus === opts.focus &&
    k.pkg === opts.pkg
  );
}

/** Hash of node ids, texts and centers (companion design): equal hashes mean the same screen. */
export function screenHash(nodes: readonly FlatNode[]): string {
  return hashOfLines(nodes, 'screen', screenLine);
}

/** Hash of structure only (no text): a node id still names the same view while this is equal. */
export function structureHash(nodes: readonly FlatNode[]): string {
  return hashOfLines(nodes, 'structure', structureLine);
}

const screenLine = (n: UiNode) =>
  `${n.res_id ?? ''}|${n.role}|${n.text ?? ''}|${n.desc ?? ''}|${n.checked ? 1 : 0}|${(n.bounds[0] + n.bounds[2]) >> 1},${(n.bounds[1] + n.bounds[3]) >> 1}`;
const structureLine = (n: UiNode) => `${n.id}|${n.class}|${n.res_id ?? ''}|${n.bounds.join(',')}`;

/**
 * The first 16 hex digits of the SHA-256 of the nodes' lines, each line summed to 64 bits first
 * (two FNV-1a sums): one native hash over 8 bytes a node, and a flat node's sums made once (kept
 * on it), so a screen whose nodes were kept costs no pass over their texts and no lookup.
 */
function hashOfLines(nodes: readonly FlatNode[], which: 'screen' | 'structure', line: (n: UiNode) => string): string {
  const sums = new Uint32Array(nodes.length * 2);
  for (let i = 0; i < nodes.length; i++) {
    const f = nodes[i]!;
    const kept = (f.sums ??= {});
    const sum = (kept[which] ??= fnv2(line(f.node)));
    sums[2 * i] = sum[0];
    sums[2 * i + 1] = sum[1];
  }
  return createHash('sha256').update(sums).digest('hex').slice(0, 16);
}

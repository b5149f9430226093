import type { Bounds } from '../../protocol/index.js';
import type { View } from '../apps/view.js';
import type { WebPicture } from '../web/web-content.js';

/** A view with its place on screen. Produced fresh by each layout pass. */
export interface LaidOut {
  view: View;
  bounds: Bounds;
  children: LaidOut[];
  /** Position in the tree (`r.0.2`): names a view across layout passes when it has no id. */
  path: string;
  /** For lists: the scroll state this pass used, so scroll actions know the limits. */
  scroll?: ListScroll;
  /** For a WebView with a page: the page's last picture, drawn at the view's bounds. */
  picture?: WebPicture | null;
}

export interface ListScroll {
  key: string;
  offset: number;
  max: number;
  /** Height of the list's box: one page of ACTION_SCROLL_FORWARD. */
  page: number;
  onEndReached?: () => void;
  /** The last rows are on screen. */
  atEnd: boolean;
}

export const SCREEN = { width: 1080, height: 2400, density: 420, statusBar: 84, navBar: 126 } as const;
/** The app window between status and navigation bars. */
export const VIEWPORT: Bounds = [0, SCREEN.statusBar, SCREEN.width, SCREEN.height - SCREEN.navBar];
/** The soft keyboard covers the bottom ~40% of the screen, down to the navigation bar. */
export const KEYBOARD_TOP = SCREEN.height - SCREEN.navBar - 880;

const NATURAL_HEIGHT: Partial<Record<View['kind'], number>> = {
  text: 96,
  button: 144,
  'image-button': 144,
  image: 480,
  'edit-text': 160,
  checkbox: 132,
  switch: 132,
  toolbar: 168,
  progress: 120,
};

/**
 * Height a view takes when it does not grow. `memo` keeps the heights measured in one layout
 * pass: a column asks each child's height, and the child's own layout asks its children's
 * again; without it a pass costs the tree's size times its depth. A still view's height is kept
 * on the view object across passes (see {@link still}).
 */
export function natural(view: View, memo?: Map<View, number>): number {
  if (view.height !== undefined) return view.height;
  const facts = factsOf(view);
  if (facts.height !== undefined) return facts.height;
  const known = memo?.get(view);
  if (known !== undefined) return known;
  let h: number;
  if (view.kind === 'column') h = (view.children ?? []).reduce((t, c) => t + natural(c, memo), 0);
  else if (view.kind === 'row' || view.kind === 'toolbar') {
    h = NATURAL_HEIGHT[view.kind] ?? 0;
    for (const c of view.children ?? []) h = Math.max(h, natural(c, memo));
  } else if (view.kind === 'list' && !view.grow) {
    h = view.rows
      ? view.rows.count * view.rows.itemHeight
      : (view.children ?? []).reduce((t, c) => t + natural(c, memo), 0);
  } else h = NATURAL_HEIGHT[view.kind] ?? 0;
  if (facts.still) facts.height = h;
  else memo?.set(view, h);
  return h;
}

/** Where a list's scroll offset lives: per list id, per activity (the caller keys the map). */
export type ScrollStore = Map<string, number>;

const shift = (b: Bounds, dx: number, dy: number): Bounds => [b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy];

/**
 * Lay a tree out in the box [left, top, right, bottom]: columns stack children, rows split the
 * width (fixed `width`s first), views with `grow` share what is left of a column's height. Lists
 * scroll by their stored offset; virtualized lists build only the rows that intersect their box.
 */
export function layout(
  view: View,
  box: Bounds,
  scroll: ScrollStore,
  path = 'r',
  memo: Map<View, number> = new Map(),
): LaidOut {
  return layoutAt(view, box[0], box[1], box[2], box[3], scroll, path, -1, memo);
}

/**
 * {@link layout} of child `index` of the view at `parent` (-1: the root, at `parent`). A view
 * object an app kept from its last render (ActivityContext.memo) laid out in the same box at the
 * same place is laid out as it was, unless its result reads state of its own: one lookup, no path
 * or box made for it.
 */
function layoutAt(
  view: View,
  left: number,
  top: number,
  right: number,
  bottom: number,
  scroll: ScrollStore,
  parent: string,
  index: number,
  memo: Map<View, number>,
): LaidOut {
  const facts = factsOf(view);
  const kept = facts.laid;
  if (
    kept &&
    facts.parent === parent &&
    facts.index === index &&
    sameBox(kept.bounds, left, top, right, bottom, view.offset)
  )
    return kept;
  const path = index < 0 ? parent : `${parent}.${index}`;
  const laid = layoutNow(view, [left, top, right, bottom], scroll, path, memo);
  if (facts.still) {
    facts.laid = laid;
    facts.parent = parent;
    facts.index = index;
  }
  return laid;
}

/** What is known of a view object (views are never changed once built: an app builds new ones). */
interface ViewFacts {
  /** See {@link still}. */
  still: boolean;
  /** A still view's {@link natural} height. */
  height?: number;
  /** A still view's last layout, and where in the tree it was made (its parent's path and its index there). */
  laid?: LaidOut;
  parent?: string;
  index?: number;
}
const facts = new WeakMap<View, ViewFacts>();

function factsOf(view: View): ViewFacts {
  let f = facts.get(view);
  if (f === undefined) {
    f = {
      still:
        view.kind !== 'list' && view.kind !== 'webview' && !view.rows && (view.children ?? []).every((c) => still(c)),
    };
    facts.set(view, f);
  }
  return f;
}

/** Whether a view's subtree lays out the same in the same box: no list (its scroll offset is state) and no WebView (a page is attached to it). */
export function still(view: View): boolean {
  return factsOf(view).still;
}

/** Whether `laid` (shifted by the view's offset) is the layout of the box [left, top, right, bottom]. */
function sameBox(
  laid: Bounds,
  left: number,
  top: number,
  right: number,
  bottom: number,
  offset: View['offset'],
): boolean {
  const dx = offset?.[0] ?? 0;
  const dy = offset?.[1] ?? 0;
  return laid[0] === left + dx && laid[1] === top + dy && laid[2] === right + dx && laid[3] === bottom + dy;
}

function layoutNow(view: View, box: Bounds, scroll: ScrollStore, path: string, memo: Map<View, number>): LaidOut {
  if (view.offset) box = shift(box, view.offset[0], view.offset[1]);
  const [left, top, right, bottom] = box;
  const kids = view.children ?? [];
  const children: LaidOut[] = [];
  let listScroll: ListScroll | undefined;
  if (view.kind === 'row' || view.kind === 'toolbar') {
    const fixed = kids.reduce((w, c) => w + (c.width ?? 0), 0);
    const flexible = kids.filter((c) => c.width === undefined).length || 1;
    let x = left;
    kids.forEach((child, i) => {
      const w = child.width ?? Math.floor((right - left - fixed) / flexible);
      children.push(layoutAt(child, x, top, x + w, bottom, scroll, path, i, memo));
      x += w;
    });
  } else if (view.kind === 'list') {
    const key = view.id ?? path;
    const page = bottom - top;
    const content = view.rows ? view.rows.count * view.rows.itemHeight : kids.reduce((h, c) => h + natural(c, memo), 0);
    const max = Math.max(0, content - page);
    const offset = Math.min(max, Math.max(0, scroll.get(key) ?? 0));
    if (view.rows) {
      const { itemHeight, count } = view.rows;
      const first = Math.floor(offset / itemHeight);
      for (let i = first; i < count && top + i * itemHeight - offset < bottom; i++) {
        const y = top + i * itemHeight - offset;
        children.push(layoutAt(view.rows.render(i), left, y, right, y + itemHeight, scroll, path, i, memo));
      }
    } else {
      let y = top - offset;
      kids.forEach((child, i) => {
        const h = natural(child, memo);
        children.push(layoutAt(child, left, y, right, y + h, scroll, path, i, memo));
        y += h;
      });
    }
    const atEnd = offset + page >= content - (view.rows?.itemHeight ?? 0) * 2;
    listScroll = {
      key,
      offset,
      max,
      page,
      atEnd,
      ...(view.rows?.onEndReached ? { onEndReached: view.rows.onEndReached } : {}),
    };
  } else if (view.kind === 'column') {
    const growing = kids.reduce((g, c) => g + (c.grow ?? 0), 0);
    const fixed = kids.reduce((h, c) => h + (c.grow ? 0 : natural(c, memo)), 0);
    const spare = Math.max(0, bottom - top - fixed);
    let y = top;
    kids.forEach((child, i) => {
      const h = child.grow && growing ? Math.floor((spare * child.grow) / growing) : natural(child, memo);
      children.push(layoutAt(child, left, y, right, y + h, scroll, path, i, memo));
      y += h;
    });
  }
  return { view, bounds: box, children, path, ...(listScroll ? { scroll: listScroll } : {}) };
}

/** Every list of a laid-out tree, outermost first. */
export function listsOf(root: LaidOut): LaidOut[] {
  const out: LaidOut[] = [];
  const walk = (n: LaidOut) => {
    if (n.scroll) out.push(n);
    n.children.forEach(walk);
  };
  walk(root);
  return out;
}

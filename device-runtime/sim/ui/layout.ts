import type { Bounds } from '../../protocol/index.js';
import type { View } from './view.js';

/** A view with its place on screen. Produced fresh by each layout pass. */
export interface LaidOut {
  view: View;
  bounds: Bounds;
  children: LaidOut[];
}

export const SCREEN = { width: 1080, height: 2400, density: 420, statusBar: 84, navBar: 126 } as const;

const NATURAL_HEIGHT: Partial<Record<View['kind'], number>> = {
  text: 96,
  button: 144,
  'image-button': 144,
  'edit-text': 160,
  checkbox: 132,
  switch: 132,
  toolbar: 168,
  progress: 120,
};

/** Height a view takes when it does not grow. */
function natural(view: View): number {
  if (view.height !== undefined) return view.height;
  if (view.kind === 'column') return (view.children ?? []).reduce((h, c) => h + natural(c), 0);
  if (view.kind === 'row' || view.kind === 'toolbar') {
    return Math.max(NATURAL_HEIGHT[view.kind] ?? 0, ...(view.children ?? []).map(natural));
  }
  return NATURAL_HEIGHT[view.kind] ?? 0;
}

/**
 * Lay a tree out in the box [left, top, right, bottom]: columns stack children, rows and toolbars
 * split the width, views with `grow` share what is left of a column's height. Lists are laid out
 * in full; rows outside the list's box are clipped by the observer (virtualization).
 */
export function layout(view: View, box: Bounds): LaidOut {
  const [left, top, right, bottom] = box;
  const kids = view.children ?? [];
  const children: LaidOut[] = [];
  if (view.kind === 'row' || view.kind === 'toolbar') {
    const titleFirst = view.kind === 'toolbar';
    const widths: number[] = kids.map((_, i) => (titleFirst && i > 0 ? 168 : 0));
    const fixed = widths.reduce((a, b) => a + b, 0);
    const flexible = widths.filter((w) => w === 0).length || 1;
    let x = left;
    kids.forEach((child, i) => {
      const w = widths[i] || Math.floor((right - left - fixed) / flexible);
      children.push(layout(child, [x, top, x + w, bottom]));
      x += w;
    });
  } else if (view.kind === 'column' || view.kind === 'list') {
    const growing = view.kind === 'list' ? 0 : kids.reduce((g, c) => g + (c.grow ?? 0), 0);
    const fixed = kids.reduce((h, c) => h + (c.grow && view.kind !== 'list' ? 0 : natural(c)), 0);
    const spare = Math.max(0, bottom - top - fixed);
    let y = top;
    for (const child of kids) {
      const h = child.grow && growing ? Math.floor((spare * child.grow) / growing) : natural(child);
      children.push(layout(child, [left, y, right, y + h]));
      y += h;
    }
  }
  return { view, bounds: box, children };
}

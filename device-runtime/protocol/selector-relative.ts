import type { UiNode } from './observation.js';

/**
 * Where a node is relative to other nodes: the layout and tree engines of the selector syntax
 * (`below=`, `above=`, `left-of=`, `right-of=`, `child-of=`, `has=`, `has-child=`), and the
 * state engines (`enabled=`, `checked=`, `focused=`, `selected=`, `scrollable=`). They keep the matches so far
 * (the whole screen at the start of a chain) that stand in that relation to an anchor, the
 * first node (in screen order) matched by a nested selector or by any of its alternatives.
 * They are what Maestro's relative selectors mean, so an imported flow keeps its meaning: a
 * side keeps the nodes wholly on that side of the anchor, nearest first (centre to centre);
 * `child-of` the nodes inside any anchor, `has-child` the parents of one, `has` the nodes with
 * one inside.
 */

export const RELATIONS = ['below', 'above', 'left-of', 'right-of', 'child-of', 'has', 'has-child'] as const;
export type Relation = (typeof RELATIONS)[number];
export const STATES = ['enabled', 'checked', 'focused', 'selected', 'scrollable'] as const;
export type NodeState = (typeof STATES)[number];

/** Nodes of `all` below `root` (by the observation's parent links), `root` not included. */
export function descendants(all: UiNode[], root: UiNode): UiNode[] {
  const inside = new Set([root.id]);
  const out: UiNode[] = [];
  for (const n of all)
    if (n.parent && inside.has(n.parent)) {
      inside.add(n.id);
      out.push(n);
    }
  return out;
}

const center = (n: UiNode) => [(n.bounds[0] + n.bounds[2]) / 2, (n.bounds[1] + n.bounds[3]) / 2] as const;

/** The nodes of `nodes` on one side of `anchor`, nearest first. */
export function onSide(nodes: UiNode[], anchor: UiNode, where: 'below' | 'above' | 'left-of' | 'right-of'): UiNode[] {
  const [ax, ay] = center(anchor);
  const keep = nodes.filter((n) => {
    if (n.id === anchor.id) return false;
    const [l, t, r, b] = n.bounds;
    if (where === 'below') return t >= anchor.bounds[3];
    if (where === 'above') return b <= anchor.bounds[1];
    if (where === 'left-of') return r <= anchor.bounds[0];
    return l >= anchor.bounds[2];
  });
  const dist = (n: UiNode) => Math.hypot(center(n)[0] - ax, center(n)[1] - ay);
  return keep.sort((a, b) => dist(a) - dist(b));
}

/**
 * Keep the nodes of `current` in relation `rel` to what `anchors` finds: `anchors(scope)` gives
 * the anchor matches within `scope` (the whole screen, or a node's subtree for `has`), in screen
 * order.
 */
export function relate(
  all: UiNode[],
  current: UiNode[],
  rel: Relation,
  anchors: (scope: UiNode[]) => UiNode[],
): UiNode[] {
  switch (rel) {
    case 'below':
    case 'above':
    case 'left-of':
    case 'right-of': {
      const anchor = anchors(all)[0];
      return anchor ? onSide(current, anchor, rel) : [];
    }
    case 'child-of': {
      const inside = new Set(anchors(all).flatMap((a) => descendants(all, a).map((n) => n.id)));
      return current.filter((n) => inside.has(n.id));
    }
    case 'has-child': {
      const parents = new Set(anchors(all).map((n) => n.parent));
      return current.filter((n) => parents.has(n.id));
    }
    case 'has':
      return current.filter((n) => anchors(descendants(all, n)).length > 0);
    default: {
      const never: never = rel;
      throw new Error(`unknown relation ${String(never)}`);
    }
  }
}

/** Whether a node is in a state (`checked=true`); an unchecked box has `checked` false or absent. */
export function inState(n: UiNode, state: NodeState, value: boolean): boolean {
  if (state === 'checked') return (n.checked ?? false) === value;
  return n[state] === value;
}

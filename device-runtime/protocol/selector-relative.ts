import type { UiNode } from './observation.js';

/**
 * Where a node is relative to other nodes: the layout and tree engines of the selector syntax
 * (`below=`, `above=`, `left-of=`, `right-of=`, `child-of=`, `has=`, `has-child=`), and the
 * state engines (`enabled=`, `checked=`, `focused=`, `selected=`, `scrollable=`). They keep the matches so far
 * (the whole screen at the start of a chain) that stand in that relation to an anchor, the
 * nodes (in screen order) matched by a nested selector or by any of its alternatives.
 * They are what Maestro's relative selectors mean (maestro-client's `Filters`, Orchestra's
 * `buildFilter`), so an imported flow keeps its meaning: a side keeps the nodes whose top (or
 * left) edge is past any anchor's, nearest first when nothing came before it; `child-of` the
 * nodes inside the first anchor, `has-child` its parent, `has` the nodes with an anchor inside.
 */

/** Every selector relation, in the order the selector syntax documents them. */
export const RELATIONS = ['below', 'above', 'left-of', 'right-of', 'child-of', 'has', 'has-child'] as const;
/** A selector relation (`below=`, `child-of=`, …): where a node is against the nodes its anchor selector matches. */
export type Relation = (typeof RELATIONS)[number];
/** Every node state a selector can require. */
export const STATES = ['enabled', 'checked', 'focused', 'selected', 'scrollable'] as const;
/** A node state a selector can require (`checked=true`, `enabled=false`, …). */
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
const distance = (a: UiNode, b: UiNode) => Math.hypot(center(a)[0] - center(b)[0], center(a)[1] - center(b)[1]);

/**
 * Whether `n` is on that side of `anchor`, as Maestro's `Filters` compare them: by their top
 * edges (`below`, `above`) or their left edges (`left-of`, `right-of`).
 */
function onSideOf(n: UiNode, anchor: UiNode, where: Side): boolean {
  if (n.id === anchor.id) return false;
  if (where === 'below') return n.bounds[1] > anchor.bounds[1];
  if (where === 'above') return n.bounds[1] < anchor.bounds[1];
  if (where === 'left-of') return n.bounds[0] < anchor.bounds[0];
  return n.bounds[0] > anchor.bounds[0];
}

export type Side = 'below' | 'above' | 'left-of' | 'right-of';

/**
 * The nodes of `nodes` on one side of any of `anchors`. As in Maestro: when the side is the
 * first thing a selector says, nearest first (centre to centre, to the nearest anchor on that
 * side); after a text or an id, in the order those found them.
 */
export function onSide(nodes: UiNode[], anchors: UiNode[], where: Side, keepOrder: boolean): UiNode[] {
  const near = new Map<string, number>();
  for (const n of nodes)
    for (const a of anchors)
      if (onSideOf(n, a, where)) near.set(n.id, Math.min(near.get(n.id) ?? Infinity, distance(n, a)));
  const kept = nodes.filter((n) => near.has(n.id));
  return keepOrder ? kept : kept.sort((a, b) => near.get(a.id)! - near.get(b.id)!);
}

/**
 * Keep the nodes of `current` in relation `rel` to what `anchors` finds: `anchors(scope)` gives
 * the anchor matches within `scope` (the whole screen, or a node's subtree for `has`), in screen
 * order. `keepOrder`: the chain matched something before (a text, an id), whose order stays.
 * `child-of` and `has-child` take the first anchor (Maestro finds one parent, one child).
 */
export function relate(
  all: UiNode[],
  current: UiNode[],
  rel: Relation,
  anchors: (scope: UiNode[]) => UiNode[],
  keepOrder: boolean,
): UiNode[] {
  switch (rel) {
    case 'below':
    case 'above':
    case 'left-of':
    case 'right-of':
      return onSide(current, anchors(all), rel, keepOrder);
    case 'child-of': {
      const parent = anchors(all)[0];
      const inside = new Set(parent ? descendants(all, parent).map((n) => n.id) : []);
      return current.filter((n) => inside.has(n.id));
    }
    case 'has-child': {
      const child = anchors(all)[0];
      return child ? current.filter((n) => n.id === child.parent) : [];
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

import type { UiNode } from './observation.js';

/**
 * Reading an observation's flattened tree: a resource id's name, the ids below a node, and the
 * list row a node sits in. Shared by the selector namer (best-selector.ts) and the framework's
 * fingerprints, so "a row" means the same thing to both.
 */

/** The resource id's name (`save` of `com.example:id/save`); null for a node without one. */
export const idName = (resId: string | null | undefined): string | null =>
  resId ? resId.replace(/^.*:id\//, '') : null;

/** The ids of `rootId` and of every node below it (by the observation's parent links, parents first). */
export function subtreeIds(nodes: UiNode[], rootId: string): Set<string> {
  const inside = new Set([rootId]);
  for (const n of nodes) if (n.parent && inside.has(n.parent)) inside.add(n.id);
  return inside;
}

/** A list's row: a list item, or a child of a list or of a scrollable container. */
const isRow = (n: UiNode, byId: Map<string, UiNode>) => {
  const parent = n.parent ? byId.get(n.parent) : undefined;
  return n.role === 'listitem' || (!!parent && (parent.role === 'list' || parent.scrollable));
};

/** The list row `node` is in (itself when it is one), or undefined outside a list. */
export function rowOf(node: UiNode, byId: Map<string, UiNode>): UiNode | undefined {
  let row: UiNode | undefined = node;
  while (row && !isRow(row, byId)) row = row.parent ? byId.get(row.parent) : undefined;
  return row;
}

/** The ancestors of `node`, nearest first. */
export function ancestorsOf(node: UiNode, byId: Map<string, UiNode>): UiNode[] {
  const out: UiNode[] = [];
  for (let p = node.parent ? byId.get(node.parent) : undefined; p; p = p.parent ? byId.get(p.parent) : undefined)
    out.push(p);
  return out;
}

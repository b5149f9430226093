import { z } from 'zod';
import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';

/**
 * What is remembered about the node a locator resolved to, so that it can be found again after
 * the app changed: its own features, where it sat on the screen, and what was around it. Small
 * (a few hundred bytes) and JSON, because fingerprints live in files in the repository.
 */
export const FingerprintSchema = z.object({
  version: z.literal(1),
  role: z.string(),
  class: z.string().nullable(),
  /** The resource id's name only (`save` of `com.example:id/save`): packages differ across builds. */
  res_id: z.string().nullable(),
  text: z.string().nullable(),
  desc: z.string().nullable(),
  hint: z.string().nullable(),
  clickable: z.boolean(),
  editable: z.boolean(),
  checkable: z.boolean(),
  /** [left, top, right, bottom] as fractions of the screen (0..1, 3 decimals): screens differ in size. */
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  /**
   * Labels (text or description) of the nearest other labelled nodes, nearest first, at most 6.
   * They place the node, and they name nodes that are NOT it: a candidate wearing one of these
   * labels was beside the target when it was recorded.
   */
  neighbors: z.array(z.string()).max(6),
  /**
   * In a list, the labels of the node's row (its nearest list item, itself when it is one),
   * other than its own, at most 4: what tells one row's checkbox or download icon from the next
   * row's, and what names a row that has no label of its own. Absent outside lists, and in
   * fingerprints written before it existed.
   */
  row: z.array(z.string()).max(4).optional(),
  /** The kept ancestors, nearest first, as `role#id` (id when it has one), at most 3. */
  ancestors: z.array(z.string()).max(3),
  package: z.string().nullable(),
  activity: z.string().nullable(),
});
/** What a locator's node was when it last worked (id, text, role, place, neighbours…), as healing compares candidates with it. */
export type Fingerprint = z.infer<typeof FingerprintSchema>;

export const idName = (resId: string | null | undefined): string | null => (resId ? resId.replace(/^.*:id\//, '') : null);

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const center = (b: readonly number[]) => [(b[0]! + b[2]!) / 2, (b[1]! + b[3]!) / 2] as const;
const label = (n: UiNode) => n.text || n.desc || null;

/** Ids of `root` and every node below it (by parent links), in one pass over the flattened tree. */
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

/** The labels of `node`'s row other than its own (see `row` in {@link FingerprintSchema}), or null outside a row. */
function rowLabels(nodes: UiNode[], node: UiNode, byId: Map<string, UiNode>): string[] | null {
  const row = rowOf(node, byId);
  if (!row) return null;
  const inRow = subtreeIds(nodes, row.id);
  const own = label(node);
  const labels = nodes.filter((n) => inRow.has(n.id) && label(n) && label(n) !== own).map((n) => label(n)!);
  return [...new Set(labels)].slice(0, 4);
}

/**
 * The fingerprint of node `nodeId` of an observation. Pure; costs one pass over the nodes (plus
 * a sort of the labelled ones), so the framework computes it after the test, never in an action.
 */
export function fingerprintOf(observation: Observation, nodeId: string): Fingerprint {
  const node = observation.nodes.find((n) => n.id === nodeId);
  if (!node) throw new Error(`fingerprintOf: node ${JSON.stringify(nodeId)} is not in snapshot ${observation.snapshot_id} (node ids are valid in their own snapshot only)`);
  const { width, height } = observation.screen;
  const own = subtreeIds(observation.nodes, node.id);
  const [cx, cy] = center(node.bounds);
  const neighbors = observation.nodes
    .filter((n) => !own.has(n.id) && label(n) && label(n) !== label(node))
    .map((n) => {
      const [x, y] = center(n.bounds);
      return { label: label(n)!, d: Math.hypot((x - cx) / width, (y - cy) / height) };
    })
    .sort((a, b) => a.d - b.d || a.label.localeCompare(b.label))
    .filter((n, i, all) => all.findIndex((m) => m.label === n.label) === i)
    .slice(0, 6)
    .map((n) => n.label);
  const byId = new Map(observation.nodes.map((n) => [n.id, n]));
  const ancestors: string[] = [];
  for (let p = node.parent ? byId.get(node.parent) : undefined; p && ancestors.length < 3; p = p.parent ? byId.get(p.parent) : undefined) {
    ancestors.push(`${p.role}${p.res_id ? `#${idName(p.res_id)}` : ''}`);
  }
  const row = rowLabels(observation.nodes, node, byId);
  return {
    version: 1,
    role: node.role,
    class: node.class ?? null,
    res_id: idName(node.res_id),
    text: node.text,
    desc: node.desc,
    hint: node.hint ?? null,
    clickable: node.clickable,
    editable: node.editable,
    checkable: node.checkable ?? false,
    bounds: [r3(node.bounds[0] / width), r3(node.bounds[1] / height), r3(node.bounds[2] / width), r3(node.bounds[3] / height)],
    neighbors,
    ancestors,
    ...(row ? { row } : {}),
    package: observation.package,
    activity: observation.activity,
  };
}

import { z } from 'zod';
import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import { idName, rowOf, subtreeIds } from '../../device-runtime/protocol/ui-tree.js';
import { normalize } from './similarity.js';

/**
 * What named another node of the recorded screen, a control of the target's kind: its own label
 * (text or description; a field's hint) and, in a list row, the row's first other label (which
 * row's "Pay"); a control with no label of its own is named by its row (the label beside it).
 */
export const IdentitySchema = z.object({ label: z.string().optional(), row: z.string().optional() });
export type Identity = z.infer<typeof IdentitySchema>;

/**
 * What is remembered about the node a locator resolved to, so that it can be found again after
 * the app changed: its own features, where it sat on the screen, what was around it, and what
 * named the other nodes there. Small (around a kilobyte at most) and JSON, because fingerprints
 * live in files in the repository.
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
   * row's, and what names a row that has no label of its own. Outside lists, for a control with
   * no label of its own (a switch beside its title), the static labels on its line. Absent
   * otherwise, and in fingerprints written before it existed.
   */
  row: z.array(z.string()).max(4).optional(),
  /**
   * The other nodes of the recorded screen, by what named them: `ids`, the resource-id names
   * they carried (nearest first, at most 64), and `names`, the identities of the controls of the
   * target's kind (nearest first, at most 24). Neither holds what the target itself, a node
   * containing it or a node inside it carried. A node of a new screen that still carries one of
   * them is that other control, still there, not the target renamed. Absent in fingerprints
   * written before it existed (then nothing is excluded on this ground).
   */
  others: z.object({ ids: z.array(z.string()).max(64), names: z.array(IdentitySchema).max(24) }).optional(),
  /** The kept ancestors, nearest first, as `role#id` (id when it has one), at most 3. */
  ancestors: z.array(z.string()).max(3),
  package: z.string().nullable(),
  activity: z.string().nullable(),
});
/** What a locator's node was when it last worked (id, text, role, place, neighbours…), as healing compares candidates with it. */
export type Fingerprint = z.infer<typeof FingerprintSchema>;

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const center = (b: readonly number[]) => [(b[0]! + b[2]!) / 2, (b[1]! + b[3]!) / 2] as const;
const label = (n: UiNode) => n.text || n.desc || null;
/** What a user reads as the node's name: a field's hint (its text is what was typed), else its text or description. */
const ownName = (n: UiNode) => (n.editable ? n.hint : n.text || n.desc) || null;
const unlabelled = (n: UiNode) => !n.text && !n.desc && !n.hint;

/**
 * Roles one control may change between across releases (a button becomes an icon or a text
 * link; a checkbox a switch): a candidate of another family is not the target.
 */
const ROLE_FAMILY: Record<string, string> = {
  button: 'act',
  image: 'act',
  text: 'act',
  listitem: 'act',
  checkbox: 'check',
  switch: 'check',
  radio: 'check',
  textbox: 'field',
};
export const roleFamily = (role: string) => ROLE_FAMILY[role] ?? role;

/** Ids of `root` and every node below it (by parent links), in one pass over the flattened tree. */
/** The flattened tree with its links indexed once: nodes by id, children in node order. */
interface Tree {
  nodes: UiNode[];
  byId: Map<string, UiNode>;
  children: Map<string, UiNode[]>;
}
function indexTree(nodes: UiNode[]): Tree {
  const children = new Map<string, UiNode[]>();
  for (const n of nodes) if (n.parent) (children.get(n.parent) ?? children.set(n.parent, []).get(n.parent)!).push(n);
  return { nodes, byId: new Map(nodes.map((n) => [n.id, n])), children };
}
/** `root` and every node below it, in node order (what {@link subtreeIds} holds, at the cost of the subtree's size). */
function below(tree: Tree, root: UiNode): UiNode[] {
  const out: UiNode[] = [];
  const visit = (n: UiNode) => {
    out.push(n);
    for (const c of tree.children.get(n.id) ?? []) visit(c);
  };
  visit(root);
  return out;
}

/** Ids of `node`, the nodes above it and the nodes below it: what is the target, not beside it. */
function lineageOf(tree: Tree, node: UiNode): Set<string> {
  const lineage = new Set(below(tree, node).map((n) => n.id));
  for (
    let p = node.parent ? tree.byId.get(node.parent) : undefined;
    p;
    p = p.parent ? tree.byId.get(p.parent) : undefined
  )
    lineage.add(p.id);
  return lineage;
}

/**
 * The static labels on an unlabelled control's line (not clickable, not editable, vertically
 * centred within the control's height, beside it rather than over it), in tree order: the title
 * and summary of a settings row whose layout a device does not keep.
 */
function lineLabels(tree: Tree, node: UiNode): string[] {
  const lineage = lineageOf(tree, node);
  const [l, t, r, b] = node.bounds;
  return tree.nodes
    .filter((n) => !lineage.has(n.id) && !n.clickable && !n.editable && label(n))
    .filter((n) => {
      const cy = (n.bounds[1] + n.bounds[3]) / 2;
      return cy >= t && cy <= b && (n.bounds[2] <= l || n.bounds[0] >= r);
    })
    .map((n) => label(n)!);
}

/** The labels of `node`'s row other than its own (see `row` in {@link FingerprintSchema}), or null when it has none. */
function rowLabels(tree: Tree, node: UiNode): string[] | null {
  const row = rowOf(node, tree.byId);
  if (!row) {
    if (!unlabelled(node)) return null;
    const line = [...new Set(lineLabels(tree, node))].slice(0, 4);
    return line.length ? line : null;
  }
  const own = label(node);
  const labels = below(tree, row)
    .filter((n) => label(n) && label(n) !== own)
    .map((n) => label(n)!);
  return [...new Set(labels)].slice(0, 4);
}

/** A node's {@link Identity}: its own name and, in a list row (or unlabelled), its row's first other label; null when neither. */
function identityOfNode(tree: Tree, node: UiNode): Identity | null {
  return identity(ownName(node), rowLabels(tree, node));
}
const identity = (name: string | null, row: string[] | null | undefined): Identity | null => {
  const first = row?.[0];
  if (!name && !first) return null;
  return { ...(name ? { label: name } : {}), ...(first ? { row: first } : {}) };
};
/** The {@link Identity} a fingerprint gives its node (the same as when it was recorded). */
export const identityOf = (f: Fingerprint): Identity | null =>
  identity((f.editable ? f.hint : f.text || f.desc) || null, f.row);

/**
 * Whether identity `a` names the node `b` names: the same label (or both none) and the same row
 * label, a row label missing on one side counting as the same (a control moved out of a list).
 */
export function sameIdentity(a: Identity, b: Identity, norm: (s: string) => string = normalize): boolean {
  const eq = (x: string | undefined, y: string | undefined) =>
    (x === undefined) === (y === undefined) && (x === undefined || norm(x) === norm(y!));
  if (!eq(a.label, b.label)) return false;
  if (a.label === undefined) return eq(a.row, b.row);
  return a.row === undefined || b.row === undefined || norm(a.row) === norm(b.row);
}

/** Whether `n` is of a kind a heal of `target` could land on (role family, editable, clickable, checkable as `eligible` in heal.ts asks). */
const sameKind = (target: UiNode, n: UiNode) =>
  roleFamily(n.role) === roleFamily(target.role) &&
  n.editable === target.editable &&
  (!target.clickable || n.clickable) &&
  (!target.checkable || !!n.checkable);

/** The `others` of a fingerprint (see {@link FingerprintSchema}): nodes outside the target's lineage, nearest first. */
function othersOf(tree: Tree, node: UiNode, distance: (n: UiNode) => number): NonNullable<Fingerprint['others']> {
  const lineage = lineageOf(tree, node);
  const mine = new Set(tree.nodes.filter((n) => lineage.has(n.id) && n.res_id).map((n) => idName(n.res_id)!));
  const outside = tree.nodes
    .filter((n) => !lineage.has(n.id))
    .map((n) => ({ n, d: distance(n) }))
    .sort((a, b) => a.d - b.d)
    .map((x) => x.n);
  const ids = new Set<string>();
  for (const n of outside) {
    const id = idName(n.res_id);
    if (id && !mine.has(id) && ids.add(id).size >= 64) break;
  }
  const own = identityOfNode(tree, node);
  // Labels repeat (every row's "Pay"): normalize each once.
  const normalized = new Map<string, string>();
  const norm = (x: string) => normalized.get(x) ?? normalized.set(x, normalize(x)).get(x)!;
  const names: Identity[] = [];
  const seen = new Set<string>();
  for (const n of outside) {
    if (names.length >= 24) break;
    if (!sameKind(node, n)) continue;
    const id = identityOfNode(tree, n);
    if (!id) continue;
    const key = `${norm(id.label ?? '')}\u0000${norm(id.row ?? '')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if ((own && sameIdentity(id, own, norm)) || names.some((x) => sameIdentity(x, id, norm))) continue;
    names.push(id);
  }
  return { ids: [...ids], names };
}

/**
 * The fingerprint of node `nodeId` of an observation, with what named the screen's other nodes
 * (`others`). Pure; costs a few passes over the nodes (plus a sort), so the framework computes
 * it after the test, never in an action.
 */
export function fingerprintOf(observation: Observation, nodeId: string): Fingerprint {
  return fingerprint(observation, nodeId, true);
}

/** {@link fingerprintOf} without `others`: what a candidate of a new screen is compared on, one pass cheaper per candidate. */
export function candidateFingerprint(observation: Observation, nodeId: string): Fingerprint {
  return fingerprint(observation, nodeId, false);
}

function fingerprint(observation: Observation, nodeId: string, withOthers: boolean): Fingerprint {
  const node = observation.nodes.find((n) => n.id === nodeId);
  if (!node)
    throw new Error(
      `fingerprintOf: node ${JSON.stringify(nodeId)} is not in snapshot ${observation.snapshot_id} (node ids are valid in their own snapshot only)`,
    );
  const { width, height } = observation.screen;
  const own = subtreeIds(observation.nodes, node.id);
  const [cx, cy] = center(node.bounds);
  const distance = (n: UiNode) => {
    const [x, y] = center(n.bounds);
    return Math.hypot((x - cx) / width, (y - cy) / height);
  };
  const labelled = new Set<string>();
  const neighbors = observation.nodes
    .filter((n) => !own.has(n.id) && label(n) && label(n) !== label(node))
    .map((n) => ({ label: label(n)!, d: distance(n) }))
    .sort((a, b) => a.d - b.d || a.label.localeCompare(b.label))
    .filter((n) => !labelled.has(n.label) && !!labelled.add(n.label))
    .slice(0, 6)
    .map((n) => n.label);
  const tree = indexTree(observation.nodes);
  const byId = tree.byId;
  const ancestors: string[] = [];
  for (
    let p = node.parent ? byId.get(node.parent) : undefined;
    p && ancestors.length < 3;
    p = p.parent ? byId.get(p.parent) : undefined
  ) {
    ancestors.push(`${p.role}${p.res_id ? `#${idName(p.res_id)}` : ''}`);
  }
  const row = rowLabels(tree, node);
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
    bounds: [
      r3(node.bounds[0] / width),
      r3(node.bounds[1] / height),
      r3(node.bounds[2] / width),
      r3(node.bounds[3] / height),
    ],
    neighbors,
    ancestors,
    ...(row ? { row } : {}),
    ...(withOthers ? { others: othersOf(tree, node, distance) } : {}),
    package: observation.package,
    activity: observation.activity,
  };
}

/**
 * Why candidate `got` (a node of the new screen) is another control of the recorded screen
 * rather than the target's heir, or null: it still carries a resource id that another recorded
 * node carried, or still has the identity (label, or label and row) another recorded control had
 * and not the target's. That control still exists; healing onto it is the sibling mis-heal.
 * Fingerprints without `others` (written before it existed) exclude nothing.
 */
export function belongedToAnother(want: Fingerprint, got: Fingerprint): string | null {
  if (!want.others) return null;
  if (got.res_id && got.res_id !== want.res_id && want.others.ids.includes(got.res_id))
    return `its id '${got.res_id}' belonged to another node of the recorded screen: that node is still here, not the target renamed`;
  const id = identityOf(got);
  if (!id) return null;
  const mine = identityOf(want);
  if (mine && sameIdentity(id, mine)) return null;
  const other = want.others.names.find((o) => sameIdentity(o, id));
  if (!other) return null;
  const named = [other.label && `'${other.label}'`, other.row && `row '${other.row}'`].filter(Boolean).join(' in ');
  return `it is named as another control of the recorded screen was (${named}): that control is still here, not the target renamed`;
}

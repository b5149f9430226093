import { createHash } from 'node:crypto';
import { z } from 'zod';
import { UiNodeSchema, type UiNode } from './observation.js';

/**
 * Extension `observe_diff`: an observation that sends what changed. A client that holds the
 * nodes of its last observation of a space passes `since` (that snapshot's id and the
 * {@link nodesHash} of its nodes); the runtime, which keeps the last snapshot each session saw of
 * each space (with the same `detail` and `max_nodes`), answers with `nodes: []` and a `diff`:
 * the nodes removed, changed and added since, by id. The client applies it to its copy
 * ({@link applyDiff}) and checks `diff.hash` against the hash of the whole. `since: null` asks
 * for a full observation the runtime keeps as the session's base.
 *
 * - A `since` whose snapshot is not the runtime's base for this session and space (an older one,
 *   another session's, one dropped when the session ended) gets a full observation: the client
 *   lost its base, so it gets a new one.
 * - A `since` that names the base with another hash is refused with DIFF_BASE_MISMATCH: the
 *   client's copy is not what the runtime sent, and a diff would apply to the wrong base.
 * - A runtime without the extension ignores `since` (zod strips it) and answers in full, as today.
 */
export const ObserveSinceSchema = z
  .object({
    snapshot_id: z.string().describe('The snapshot the client holds whole'),
    hash: z.string().describe("nodesHash of the client's copy of its nodes"),
  })
  .nullable()
  .describe(
    'Extension (observe_diff): the last observation this client holds (null: none yet, answer in full and keep it as the base)',
  );
export type ObserveSince = z.infer<typeof ObserveSinceSchema>;

export const ObservationDiffSchema = z.object({
  base: z.string().describe('The snapshot the diff applies to (the `since` given)'),
  hash: z.string().describe('nodesHash of the whole node list after the diff is applied'),
  count: z.number().int().min(0).describe('How many nodes the list has after the diff is applied'),
  removed: z.array(z.string()).describe('Ids of the base nodes that are gone'),
  changed: z.array(UiNodeSchema).describe('Base nodes (by id) whose fields changed, whole; they keep their place'),
  added: z
    .array(z.object({ at: z.number().int().min(0), node: UiNodeSchema }))
    .describe('New nodes with their index in the new list, ascending'),
});
export type ObservationDiff = z.infer<typeof ObservationDiffSchema>;

/** The fields a node's hash line covers, in this order (UiNodeSchema's): unknown fields are left out. */
const NODE_KEYS = Object.keys(UiNodeSchema.shape) as Array<keyof UiNode>;
/** Each node's line summed to 64 bits, per node object (kept nodes are summed once, not per observation). */
const sums = new WeakMap<UiNode, readonly [number, number]>();

function sumOf(n: UiNode): readonly [number, number] {
  let sum = sums.get(n);
  if (sum === undefined) {
    sum = fnv2(JSON.stringify(NODE_KEYS.map((k) => n[k] ?? null)) + '\n');
    sums.set(n, sum);
  }
  return sum;
}

/**
 * Two 32-bit FNV-1a sums of `s`'s UTF-16 code units (the simulator's screen hashes use them too), from offset bases 0x811c9dc5 and 0xd7a38c4b (0x01000193 ^ 0x5bd1e995) with prime 0x01000193; the second also xors in its own value shifted right by 15 after each unit.
 *
 * @internal
 */
export function fnv2(s: string): readonly [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return [a >>> 0, b >>> 0];
}

/**
 * The hash of a node list, as both ends compute it: the first 16 hex digits of the SHA-256 of 8
 * bytes per node, the two 32-bit sums (little-endian, see fnv2 in this file) of its line
 * `JSON.stringify([id, role, text, …])` in UiNodeSchema's field order with a missing field as
 * null, followed by `\n`. A node object's sums are made once: a kept node costs no pass over its
 * text, and the list one native hash over 8 bytes a node.
 */
export function nodesHash(nodes: readonly UiNode[]): string {
  const bytes = new DataView(new ArrayBuffer(nodes.length * 8));
  for (let i = 0; i < nodes.length; i++) {
    const [a, b] = sumOf(nodes[i]!);
    bytes.setUint32(8 * i, a, true);
    bytes.setUint32(8 * i + 4, b, true);
  }
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

function sameNode(a: UiNode, b: UiNode): boolean {
  if (a === b) return true;
  for (const k of NODE_KEYS) {
    const x = a[k];
    const y = b[k];
    if (x === y) continue;
    if (Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((v, i) => v === y[i])) continue;
    if ((x ?? null) === (y ?? null)) continue;
    return false;
  }
  return true;
}

/**
 * What changed from `base` to `next`, by id, in one pass over each; null when the nodes both
 * hold are not in the same order (a diff cannot say that: send the whole list) or ids repeat.
 * `hash`: nodesHash of `next`, when the caller has it.
 */
export function diffNodes(
  base: readonly UiNode[],
  next: readonly UiNode[],
  baseId: string,
  hash: string = nodesHash(next),
): ObservationDiff | null {
  const before = new Map<string, number>();
  for (let i = 0; i < base.length; i++) before.set(base[i]!.id, i);
  if (before.size !== base.length) return null;
  const seen = new Set<string>();
  const changed: UiNode[] = [];
  const added: ObservationDiff['added'] = [];
  let last = -1;
  for (let at = 0; at < next.length; at++) {
    const n = next[at]!;
    if (seen.has(n.id)) return null;
    seen.add(n.id);
    const i = before.get(n.id);
    if (i === undefined) {
      added.push({ at, node: n });
      continue;
    }
    if (i < last) return null;
    last = i;
    if (!sameNode(base[i]!, n)) changed.push(n);
  }
  const removed = base.filter((n) => !seen.has(n.id)).map((n) => n.id);
  return { base: baseId, hash, count: next.length, removed, changed, added };
}

/** Why a diff does not apply to a node list. */
export class DiffMismatch extends Error {}

/**
 * `base` with `diff` applied, in one pass: removed nodes dropped, changed ones replaced in place,
 * added ones put at their index. Throws {@link DiffMismatch} when the diff does not fit the list
 * (an id it names is missing, the count or the hash of the result differ): the list is not the
 * base the runtime diffed against.
 */
export function applyDiff(base: readonly UiNode[], diff: ObservationDiff): UiNode[] {
  const removed = new Set(diff.removed);
  const changed = new Map(diff.changed.map((n) => [n.id, n]));
  const out: UiNode[] = [];
  let a = 0;
  let found = 0;
  const take = () => {
    while (a < diff.added.length && diff.added[a]!.at === out.length) out.push(diff.added[a++]!.node);
  };
  for (const n of base) {
    take();
    if (removed.has(n.id)) {
      found++;
      continue;
    }
    const c = changed.get(n.id);
    if (c) found++;
    out.push(c ?? n);
  }
  take();
  if (found !== removed.size + changed.size || a !== diff.added.length)
    throw new DiffMismatch('the diff names nodes the base does not hold');
  if (out.length !== diff.count)
    throw new DiffMismatch(`the result has ${out.length} nodes, the diff says ${diff.count}`);
  if (nodesHash(out) !== diff.hash) throw new DiffMismatch('the hash of the result differs from the diff hash');
  return out;
}

import type { Fingerprint } from './fingerprint.js';
import { idSimilarity, labelsContradict, labelSetSimilarity, normalize, textSimilarity } from './similarity.js';

/**
 * Weights of the features, Android-specific: a resource id is what a developer named the view
 * and survives rewording and translation, so it weighs most; then the visible label, the
 * content description (icons), the hint (fields), the labels around the node, and last the
 * widget type and where it sits, which many look-alike siblings share.
 */
export const WEIGHTS = {
  id: 3,
  text: 2.5,
  desc: 2,
  hint: 1.5,
  neighbors: 1.5,
  row: 2,
  position: 1,
  role: 0.75,
  class: 0.75,
  ancestors: 0.5,
  activity: 0.5,
} as const;
/** A feature candidates are compared on (`id`, `text`, `desc`, `role`, `position`…; see {@link WEIGHTS}). */
export type Feature = keyof typeof WEIGHTS;

/** One feature's contribution: similarity in [0, 1] and the weight it carried. */
export interface FeatureScore {
  feature: Feature;
  similarity: number;
  weight: number;
  /** e.g. `id 'title' → 'note_title'`. */
  detail: string;
  /** The similarity without related words, when they raised it (`'Save' → 'Done'`). */
  direct?: number;
}

/** How much a candidate resembles the fingerprint, overall and feature by feature. */
export interface CandidateScore {
  /** Weighted mean over the features present on at least one side, in [0, 1]. */
  score: number;
  /** The best of the identity features (id, text, description, hint); see {@link scoreCandidate}. */
  identity: number;
  /** {@link identity} without related words: below the identity bar, the resemblance rests on them alone. */
  directIdentity: number;
  features: FeatureScore[];
  /** The candidate's label names another thing of the target's kind (`'Freeze card' → 'Freeze payments abroad'`), and its id is not the target's. */
  contradiction?: string;
}

const q = (s: string | null) => (s === null ? '∅' : `'${s}'`);
const classTail = (c: string | null) => (c ? c.replace(/^.*\./, '') : null);
const center = (b: readonly number[]) => [(b[0]! + b[2]!) / 2, (b[1]! + b[3]!) / 2] as const;

/**
 * Score a candidate's fingerprint against the remembered one. Features absent on BOTH sides
 * count for nothing (they are left out of the mean, unlike a scorer that gives full marks when
 * both lack a feature); a feature present on one side only counts as a mismatch. `repeatedId`:
 * the candidate's id is shared by other nodes of its screen. Editable
 * fields' text is what was typed, not what the field is, so it is not compared.
 */
export function scoreCandidate(
  want: Fingerprint,
  got: Fingerprint,
  opts: { repeatedId?: boolean } = {},
): CandidateScore {
  const features: FeatureScore[] = [];
  const add = (feature: Feature, similarity: number, detail: string) =>
    features.push({ feature, similarity, weight: WEIGHTS[feature], detail });
  const pair = (
    feature: Feature,
    a: string | null,
    b: string | null,
    sim: (a: string, b: string, withRelated?: boolean) => number,
  ) => {
    if (a === null && b === null) return;
    add(feature, a !== null && b !== null ? sim(a, b) : 0, `${feature} ${q(a)} → ${q(b)}`);
    const direct = a !== null && b !== null ? sim(a, b, false) : 0;
    if (direct < features.at(-1)!.similarity) features.at(-1)!.direct = direct;
  };
  // An id that several nodes on the new screen share (list rows) says what kind of node it is,
  // not which one: it weighs as much as the class and proves nothing.
  if (want.res_id !== null || got.res_id !== null) {
    const both = want.res_id !== null && got.res_id !== null;
    const similarity = both ? idSimilarity(want.res_id!, got.res_id!) : 0;
    const direct = both ? idSimilarity(want.res_id!, got.res_id!, false) : 0;
    features.push({
      feature: 'id',
      similarity,
      weight: opts.repeatedId ? WEIGHTS.class : WEIGHTS.id,
      detail: `id ${q(want.res_id)} → ${q(got.res_id)}${opts.repeatedId ? ' (shared by several nodes)' : ''}`,
      ...(direct < similarity ? { direct } : {}),
    });
  }
  // A button's label is its text or, for an icon, its description; a redesign moves it from one
  // to the other, so a label on one side is compared with whichever the other side has.
  const wantText = want.editable ? null : want.text || null;
  const gotText = want.editable ? null : got.text || null;
  const wantDesc = want.desc || null;
  const gotDesc = got.desc || null;
  if (wantText && !gotText && gotDesc && !wantDesc) pair('text', wantText, gotDesc, textSimilarity);
  else if (wantDesc && !gotDesc && gotText && !wantText) pair('desc', wantDesc, gotText, textSimilarity);
  else {
    pair('text', wantText, gotText, textSimilarity);
    pair('desc', wantDesc, gotDesc, textSimilarity);
  }
  pair('hint', want.hint || null, got.hint || null, textSimilarity);
  if (want.neighbors.length || got.neighbors.length) {
    add(
      'neighbors',
      labelSetSimilarity(want.neighbors.slice(0, 4), got.neighbors.slice(0, 4)),
      `neighbours [${want.neighbors.slice(0, 4).join(', ')}] → [${got.neighbors.slice(0, 4).join(', ')}]`,
    );
  }
  // In a list, the row's other labels say which row; for a node with no label of its own (a
  // checkbox, the row itself) they are its name. Only when the remembered fingerprint has them.
  if (want.row && (want.row.length || got.row?.length)) {
    add(
      'row',
      labelSetSimilarity(want.row, got.row ?? []),
      `row [${want.row.join(', ')}] → [${(got.row ?? []).join(', ')}]`,
    );
  }
  const [ax, ay] = center(want.bounds);
  const [bx, by] = center(got.bounds);
  const d = Math.hypot(ax - bx, ay - by);
  add('position', Math.max(0, 1 - d / 0.35), `moved ${(d * 100).toFixed(0)}% of the screen`);
  add('role', want.role === got.role ? 1 : 0.5, `role ${want.role} → ${got.role}`);
  pair('class', classTail(want.class), classTail(got.class), (a, b) => (a === b ? 1 : 0));
  if (want.ancestors.length || got.ancestors.length) {
    const common = want.ancestors.filter((a) => got.ancestors.includes(a)).length;
    add(
      'ancestors',
      (2 * common) / (want.ancestors.length + got.ancestors.length),
      `ancestors [${want.ancestors.join(', ')}] → [${got.ancestors.join(', ')}]`,
    );
  }
  pair('activity', want.activity, got.activity, (a, b) => (a === b ? 1 : 0));
  const total = features.reduce((s, f) => s + f.weight, 0);
  const score = total === 0 ? 0 : features.reduce((s, f) => s + f.weight * f.similarity, 0) / total;
  const unlabelled = !want.text && !want.desc && !want.hint;
  const identifying = features.filter(
    (f) =>
      (f.feature === 'id' && !opts.repeatedId) ||
      f.feature === 'text' ||
      f.feature === 'desc' ||
      f.feature === 'hint' ||
      (f.feature === 'row' && unlabelled),
  );
  const identity = Math.max(0, ...identifying.map((f) => f.similarity));
  const directIdentity = Math.max(0, ...identifying.map((f) => f.direct ?? f.similarity));
  // A label that contradicts the target's (another thing of its kind, an opposite) outweighs
  // everything but the same id: "Freeze payments abroad" in the place of "Freeze card" is not it.
  const wantLabel = wantText ?? wantDesc;
  const gotLabel = gotText ?? gotDesc;
  const sameId = (features.find((f) => f.feature === 'id')?.similarity ?? 0) >= 0.95;
  const contradiction =
    wantLabel && gotLabel && !sameId && labelsContradict(wantLabel, gotLabel)
      ? `its label '${gotLabel}' names another thing than '${wantLabel}'`
      : undefined;
  return {
    score: Math.round(score * 1000) / 1000,
    identity,
    directIdentity,
    features,
    ...(contradiction ? { contradiction } : {}),
  };
}

/** Whether a candidate's own label was one of the target's neighbours: then it is not the target. */
export function wasNeighbor(want: Fingerprint, label: string | null): boolean {
  if (!label) return false;
  const n = normalize(label);
  return want.neighbors.some((x) => normalize(x) === n);
}

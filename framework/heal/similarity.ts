/**
 * String similarity for healing, in [0, 1]. Written here rather than taken from a library
 * because it is Android-specific (resource-id tokenization, widget-prefix stripping) and small;
 * the generic parts are a token Dice coefficient and a character-trigram Dice coefficient.
 */
import { OPPOSITES, PHRASES, RELATED, STOP, SYNONYMS, TYPE_TOKENS, VARIANT, VERBS } from './vocabulary.js';

/** Lower case, accents and punctuation removed, spaces collapsed. */
export function normalize(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A light English stemmer (plural and verb endings), so "Groceries" meets "Grocery list". */
export function stem(w: string): string {
  if (w.length <= 4) return w;
  if (w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.endsWith('ing') && w.length > 5) return w.slice(0, -3);
  if (w.endsWith('ed') && w.length > 5) return w.slice(0, -2);
  if (w.endsWith('es') && /(ch|sh|x|ss)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** How much two related words count for, against 1 for equal words or synonyms. */
export const RELATED_WEIGHT = 0.6;

const CANON = new Map(SYNONYMS.flatMap((g) => g.flatMap((w) => [[w, g[0]!] as const, [stem(w), g[0]!] as const])));
const canon = (w: string) => CANON.get(w) ?? w;
const phrase = (s: string) => PHRASES.reduce((t, [re, to]) => t.replace(re, to), s);

const RELATED_GROUPS = new Map<string, Set<number>>();
RELATED.forEach((g, i) => {
  for (const w of g)
    for (const k of new Set([w, stem(w)]))
      RELATED_GROUPS.set(canon(k), (RELATED_GROUPS.get(canon(k)) ?? new Set()).add(i));
});
const related = (a: string, b: string) => {
  const ga = RELATED_GROUPS.get(a);
  const gb = RELATED_GROUPS.get(b);
  return !!ga && !!gb && [...ga].some((g) => gb.has(g));
};

/** Word overlap where related words count as matches. */
const relatedDice = (a: string[], b: string[]) => dice(a, b, (x, y) => x === y || related(x, y));

const words = (s: string) =>
  phrase(normalize(s))
    .split(' ')
    .filter(Boolean)
    .map((w) => canon(stem(w)));

/** Dice coefficient: each item of `a` matched to an unused one of `b` (`same`: equality by default). */
function dice<T>(a: T[], b: T[], same: (x: T, y: T) => boolean = (x, y) => x === y): number {
  if (a.length === 0 || b.length === 0) return 0;
  const rest = [...b];
  let common = 0;
  for (const x of a) {
    const i = rest.findIndex((y) => same(x, y));
    if (i >= 0) {
      common++;
      rest.splice(i, 1);
    }
  }
  return (2 * common) / (a.length + b.length);
}

function trigrams(s: string): string[] {
  const t = ` ${s} `;
  const out: string[] = [];
  for (let i = 0; i + 3 <= t.length; i++) out.push(t.slice(i, i + 3));
  return out;
}

const content = (ws: string[]) => {
  const kept = ws.filter((w) => !STOP.has(w));
  return kept.length > 0 ? kept : ws;
};
/** Two spellings of one word ("colour" / "color", "start" / "starten"): same first letter, most letters' trigrams shared. */
const spelledAlike = (x: string, y: string) => x[0] === y[0] && dice(trigrams(x), trigrams(y)) >= 0.5;
/** Words of `a` with no equal, similarly spelled or (when `withRelated`) related word in `b`. */
const unmatched = (a: string[], b: string[], withRelated: boolean) =>
  a.filter((x) => !b.some((y) => y === x || spelledAlike(x, y) || (withRelated && related(x, y))));

const OPPOSITE = new Map<string, Set<string>>();
for (const [x, y] of OPPOSITES) {
  const [cx, cy] = [canon(stem(x)), canon(stem(y))];
  OPPOSITE.set(cx, (OPPOSITE.get(cx) ?? new Set()).add(cy));
  OPPOSITE.set(cy, (OPPOSITE.get(cy) ?? new Set()).add(cx));
}
/** One list has a word whose opposite the other has (and not the word itself): "Turn on" / "Turn off". */
const opposed = (wa: string[], wb: string[]) =>
  wa.some((x) => !wb.includes(x) && wb.some((y) => !wa.includes(y) && OPPOSITE.get(x)?.has(y)));

/**
 * Whether two word lists name different things of one kind: opposites ("Start parking" / "Stop
 * parking"), each has a word the other lacks ("First name" / "Last name", "Add to playlist" /
 * "Add to queue") other than an action word swapped over a shared object, or one adds a word
 * that makes it a variant ("Save" / "Save as copy"). Shared words then say what kind, not which one.
 */
function distinct(wa: string[], wb: string[], withRelated: boolean, all: [string[], string[]] = [wa, wb]): boolean {
  if (opposed(all[0], all[1])) return true;
  let ua = unmatched(wa, wb, withRelated);
  let ub = unmatched(wb, wa, withRelated);
  if (wa.some((w) => !VERBS.has(w) && wb.includes(w))) {
    ua = ua.filter((w) => !VERBS.has(w));
    ub = ub.filter((w) => !VERBS.has(w));
  }
  return (ua.length > 0 && ub.length > 0) || [...ua, ...ub].some((w) => VARIANT.has(w));
}

/**
 * Whether two labels name different things of one kind and say so: they share a word but are
 * {@link distinct} ("Freeze card" / "Freeze payments abroad"), or are opposites. A candidate
 * whose label contradicts the target's is not the target, whatever else it shares.
 */
export function labelsContradict(a: string, b: string): boolean {
  const all = [words(a), words(b)] as [string[], string[]];
  if (opposed(all[0], all[1])) return true;
  const [wa, wb] = [content(all[0]), content(all[1])];
  return wa.some((w) => wb.includes(w)) && distinct(wa, wb, true, all);
}

/**
 * Similarity of two labels: 1 when equal after normalizing; otherwise the better of word overlap
 * and character-trigram overlap (so "Save note" ~ "Save" and "Colour" ~ "Color"), with trigrams
 * discounted because they also match unrelated words that share letters, and related words
 * (see `RELATED`) discounted more; `withRelated: false` leaves those out. Labels that name
 * different things of one kind (see `distinct`) get half their plain word overlap and nothing
 * else: "First name" is not "Last name" however many letters they share.
 */
export function textSimilarity(a: string, b: string, withRelated = true): number {
  const na = normalize(a);
  const nb = normalize(b);
  if (!na || !nb) return 0;
  if (na === nb) return 1;
  const all = [words(a), words(b)] as [string[], string[]];
  const wa = content(all[0]);
  const wb = content(all[1]);
  if (opposed(all[0], all[1])) return 0;
  if (distinct(wa, wb, withRelated, all)) return 0.5 * dice(wa, wb);
  return Math.max(
    dice(wa, wb),
    0.8 * dice(trigrams(na), trigrams(nb)),
    withRelated ? RELATED_WEIGHT * relatedDice(wa, wb) : 0,
  );
}

/** `btnSaveNote` / `btn_save_note` / `save-note2` → `['save', 'note', '2']`. */
export function idTokens(id: string): string[] {
  const all = id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([a-zA-Z])(\d)/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const kept = all.filter((t) => !TYPE_TOKENS.has(t));
  return kept.length > 0 ? kept : all;
}

/** Similarity of two resource-id names: 1 when equal, else token overlap (type tokens dropped; related words as in {@link textSimilarity}). */
export function idSimilarity(a: string, b: string, withRelated = true): number {
  if (a === b) return 1;
  const ta = idTokens(a);
  const tb = idTokens(b);
  if (ta.join('_') === tb.join('_')) return 0.95;
  if ([...ta].sort().join('_') === [...tb].sort().join('_')) return 0.9; // `first_name` / `name_first`
  // The same phrases and synonyms as labels (`first_name` / `given_name`).
  const ca = words(ta.join(' '));
  const cb = words(tb.join(' '));
  if (distinct(ca, cb, withRelated)) return 0.5 * dice(ca, cb);
  return Math.max(
    dice(ca, cb),
    0.7 * dice(trigrams(ta.join('')), trigrams(tb.join(''))),
    withRelated ? RELATED_WEIGHT * relatedDice(ca, cb) : 0,
  );
}

/** Overlap of two label lists (neighbours): each label of `a` matched to its best in `b`. */
export function labelSetSimilarity(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const best = (x: string, ys: string[]) =>
    Math.max(...ys.map((y) => (normalize(x) === normalize(y) ? 1 : textSimilarity(x, y) >= 0.75 ? 0.75 : 0)));
  return (a.reduce((s, x) => s + best(x, b), 0) + b.reduce((s, y) => s + best(y, a), 0)) / (a.length + b.length);
}

import type { Observation, UiNode } from './observation.js';
import { parseSelector, resolveSteps, type Step } from './selector.js';
import { codeOf, selectorOf } from './selector-write.js';
import { ancestorsOf, idName, rowOf, subtreeIds } from './ui-tree.js';

/**
 * The best selector for a node: ONE ranked candidate generator, and four entry points over it.
 *
 * Candidates, most to least likely to survive a release: the node's own resource id, role and
 * name, description, text; when none of those names it alone, a chain — its list row filtered by
 * one of the row's labels (`id=task_row >> has-text="Pay rent" >> role=checkbox`), or a uniquely
 * named ancestor (`id=confirm_dialog >> role=button[name="OK"]`); and last its position among
 * equal matches (`id=add_to_cart >> nth=1`), which breaks when the screen changes. Each candidate
 * is written out, read back by `parseSelector` (a value the syntax cannot carry is dropped) and
 * resolved against the observation, so "unique" is a fact about this screen, not a guess.
 *
 * - {@link suggestLocators}: the ranked list with code and scores (inspector, `suggest_locator`).
 * - {@link bestSelector}: the best one that names the node alone (AI steps, the action cache, the
 *   device's own agent).
 * - {@link uniqueSelectorFor}: the same with the original locator's kind first, never by position
 *   (healing: the spec edit only changes the call's arguments).
 * - {@link selectorWithoutObservation}: a node recorded without its screen (skills recording).
 *
 * It lives in the protocol because both sides name nodes: the framework and the device's agent.
 */

/** How a suggested locator finds its node, from most to least likely to survive a release. */
export type LocatorStrategy = 'id' | 'role' | 'desc' | 'text' | 'chain' | 'nth';

export interface LocatorSuggestion {
  strategy: LocatorStrategy;
  /** The selector syntax of `app.locator()`: `id=title`, `role=button[name="Save"]`. */
  selector: string;
  /** The same locator as code: `app.getById('title')`. */
  code: string;
  /** How many nodes it matches on the screen it was checked against. */
  matches: number;
  /** Exactly one match, and it is the node asked about: safe for actions (strict mode). */
  strictSafe: boolean;
  /** Higher is better: stability of the strategy, and 0 when it is not strict-safe. */
  score: number;
}

const WEIGHT: Record<LocatorStrategy, number> = { id: 100, role: 90, desc: 80, text: 70, chain: 60, nth: 10 };

type OwnKind = 'id' | 'role' | 'desc' | 'text';
const ORDER: OwnKind[] = ['id', 'role', 'desc', 'text'];

/** What a caller prefers: one kind first, and its text matches exact or not (a heal keeps the original's). */
interface Preference {
  kind?: string;
  exact: boolean;
}

interface Candidate {
  strategy: LocatorStrategy;
  steps: Step[];
}

/** A candidate written out and resolved: null when its selector does not read back as its steps. */
interface Checked extends Candidate {
  selector: string;
  matches: UiNode[];
  unique: boolean;
}

/** Deep equality of two chains as plain data (keys with undefined values count as absent). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof RegExp || b instanceof RegExp) return String(a) === String(b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (!same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

/** The candidates for one node of one screen, in rank order, each checked against the screen. */
class Namer {
  private readonly byId: Map<string, UiNode>;

  constructor(
    readonly nodes: UiNode[],
    readonly node: UiNode,
    private readonly prefer: Preference = { exact: true },
  ) {
    this.byId = new Map(nodes.map((n) => [n.id, n]));
  }

  check(c: Candidate): Checked | null {
    const selector = selectorOf(c.steps);
    try {
      if (!same(parseSelector(selector), c.steps)) return null;
    } catch {
      return null;
    }
    const matches = resolveSteps(this.nodes, c.steps);
    return { ...c, selector, matches, unique: matches.length === 1 && matches[0]!.id === this.node.id };
  }

  /** The id step of `n`: the short name unless another package's node ends the same way. */
  private idStep(n: UiNode): Step | null {
    const short = idName(n.res_id);
    if (!short) return null;
    const ambiguous = this.nodes.some((o) => o.res_id && o.res_id !== n.res_id && idName(o.res_id) === short);
    return { kind: 'id', id: ambiguous ? n.res_id! : short };
  }

  /** `n`'s one-step candidates of one kind: the preferred text match first when it is not exact. */
  private own(n: UiNode, kind: OwnKind, exactFirst: boolean): Step[] {
    const variants = exactFirst ? [true] : [false, true];
    const name = n.text || n.desc;
    switch (kind) {
      case 'id': {
        const id = this.idStep(n);
        return id ? [id] : [];
      }
      case 'role':
        return name && n.role
          ? variants.map((exact) => ({ kind: 'role', role: n.role, name: { text: name, exact } }))
          : [];
      case 'desc':
        return n.desc ? variants.map((exact) => ({ kind: 'desc', text: n.desc!, exact })) : [];
      case 'text':
        return n.text ? variants.map((exact) => ({ kind: 'text', text: n.text!, exact })) : [];
    }
  }

  /** The node's one-step candidates, best first (the preferred kind ahead of the others). */
  direct(): Candidate[] {
    const { kind, exact } = this.prefer;
    const order = [...ORDER.filter((k) => k === kind), ...ORDER.filter((k) => k !== kind)];
    return order.flatMap((k) => this.own(this.node, k, exact).map((step) => ({ strategy: k, steps: [step] })));
  }

  /** The node by its role alone (or its class, when it has no role): unique only inside something. */
  private bare(n: UiNode): Step {
    return n.role ? { kind: 'role', role: n.role } : { kind: 'class', className: n.class ?? 'android.view.View' };
  }

  /** What may follow a container in a chain: the node's own exact id, role and name, then its role alone. */
  private tails(): Step[][] {
    return [...this.own(this.node, 'id', true), ...this.own(this.node, 'role', true), this.bare(this.node)].map((s) => [
      s,
    ]);
  }

  /**
   * Chains through a container, best first: the node's list row filtered by each of the row's
   * labels, then each ancestor (nearest first) named alone by its own candidates, or by its role
   * filtered by its first label.
   */
  *chains(): Generator<Candidate> {
    const node = this.node;
    const own = node.text || node.desc;
    const row = rowOf(node, this.byId);
    const hasText = (text: string): Step => ({ kind: 'filter', hasText: { text, exact: true } });
    const tails = this.tails();
    if (row) {
      const base = this.idStep(row) ?? { kind: 'role', role: row.role };
      const inside = subtreeIds(this.nodes, row.id);
      const labels = new Set<string>();
      for (const n of this.nodes) {
        const label = n.text || n.desc;
        if (label && label !== own && inside.has(n.id)) labels.add(label);
      }
      for (const label of labels)
        for (const tail of node === row ? [[]] : tails)
          yield { strategy: 'chain', steps: [base, hasText(label), ...tail] };
    }
    for (const anc of ancestorsOf(node, this.byId)) {
      for (const k of ORDER)
        for (const step of this.own(anc, k, true)) {
          const named = resolveSteps(this.nodes, [step]);
          if (named.length !== 1 || named[0]!.id !== anc.id) continue;
          for (const tail of tails) yield { strategy: 'chain', steps: [step, ...tail] };
        }
      if (anc === row || !anc.role) continue;
      const label = this.nodes.find((x) => x.parent === anc.id && x.id !== node.id && x.text)?.text ?? anc.text;
      if (label) yield { strategy: 'chain', steps: [{ kind: 'role', role: anc.role }, hasText(label), ...tails[0]!] };
    }
  }

  /** Its position among the matches of its own candidates (or of its role): the last resort. */
  *positions(): Generator<Candidate> {
    for (const base of [...ORDER.flatMap((k) => this.own(this.node, k, true)), this.bare(this.node)]) {
      const index = resolveSteps(this.nodes, [base]).findIndex((m) => m.id === this.node.id);
      if (index >= 0) yield { strategy: 'nth', steps: [base, { kind: 'nth', index }] };
    }
  }

  /** The first candidate that names the node alone: own, then chains, then (when allowed) positions. */
  first(withPosition: boolean): Checked | null {
    const all = [this.direct(), this.chains(), ...(withPosition ? [this.positions()] : [])];
    for (const group of all)
      for (const c of group) {
        const checked = this.check(c);
        if (checked?.unique) return checked;
      }
    return null;
  }
}

/** `.filter({ hasText })` in code matches whatever the case: the code's own steps, to check them too. */
const codeSteps = (steps: Step[]): Step[] =>
  steps.map((s) => (s.kind === 'filter' && s.hasText ? { ...s, hasText: { ...s.hasText, exact: false } } : s));

/**
 * Ranked locators for one node of an observation, best first: every one-step candidate (unique
 * or not, with how many nodes it matches), then — when none of those names the node alone — the
 * first chain that does, and when none does, its position. `strictSafe` holds when the selector
 * and the code each name the node alone on this screen. Empty when the node is not on it.
 */
export function suggestLocators(obs: Pick<Observation, 'nodes'>, nodeId: string): LocatorSuggestion[] {
  const node = obs.nodes.find((n) => n.id === nodeId);
  if (!node) return [];
  const namer = new Namer(obs.nodes, node);
  /** Safe for actions: the selector names the node alone, and so does the code (its filters match any case). */
  const strictSafe = (c: Checked) => {
    if (!c.unique) return false;
    const code = codeSteps(c.steps);
    if (same(code, c.steps)) return true;
    const m = resolveSteps(obs.nodes, code);
    return m.length === 1 && m[0]!.id === node.id;
  };
  const list = namer
    .direct()
    .map((c) => namer.check(c))
    .filter((c): c is Checked => c !== null)
    .map((c) => ({ c, safe: strictSafe(c) }));
  for (const group of [namer.chains(), namer.positions()]) {
    if (list.some((x) => x.safe)) break;
    for (const candidate of group) {
      const c = namer.check(candidate);
      if (c && strictSafe(c)) {
        list.push({ c, safe: true });
        break;
      }
    }
  }
  const seen = new Set<string>();
  return list
    .filter(({ c }) => (seen.has(c.selector) ? false : (seen.add(c.selector), true)))
    .map(({ c, safe }) => ({
      strategy: c.strategy,
      selector: c.selector,
      code: codeOf(c.steps),
      matches: c.matches.length,
      strictSafe: safe,
      score: safe ? WEIGHT[c.strategy] : 0,
    }))
    .sort((a, b) => b.score - a.score);
}

/**
 * The best selector that names `node` alone in `obs`: what an AI step acts through, what the
 * action cache stores and what the device's agent records. By position (`… >> nth=1`) when
 * nothing else tells it apart; {@link selectorWithoutObservation} when not even that resolves.
 */
export function bestSelector(node: UiNode, obs: Pick<Observation, 'nodes'>): string {
  return new Namer(obs.nodes, node).first(true)?.selector ?? selectorWithoutObservation(node);
}

/**
 * The simplest selector that names `node` and nothing else on this screen, the original locator's
 * kind first (so `getById` heals to another id and the spec edit only changes the call's
 * arguments) with its exactness, and a plain text view by `text=` when there is no one-step
 * original; then the ranked candidates, chains through its row or a named ancestor included.
 * Never by position (a heal must survive the next reorder): null when nothing names it alone.
 *
 * @example
 * ```ts
 * import { uniqueSelectorFor } from 'nestwright/heal';
 *
 * const obs = await app.observe();
 * const save = obs.nodes.find((n) => n.text === 'Save')!;
 * uniqueSelectorFor(obs.nodes, save, [{ kind: 'id', id: 'save' }]); // 'id=save_note'
 * ```
 */
export function uniqueSelectorFor(nodes: UiNode[], node: UiNode, original: Step[]): string | null {
  const first = original.length === 1 ? original[0]! : null;
  const exact = first && 'exact' in first ? first.exact : first?.kind === 'role' ? (first.name?.exact ?? true) : true;
  // A plain text view reads best as text=…; role=text[name=…] says the same thing longer.
  const kind = first?.kind ?? (node.role === 'text' ? 'text' : undefined);
  return new Namer(nodes, node, { kind, exact }).first(false)?.selector ?? null;
}

/**
 * A selector for a node seen without its screen (a trajectory's node whose locator has no
 * selector syntax): by its name first, since nothing can check that an id is unique and a label
 * more often tells a list's rows apart; then its id, then its role or class.
 */
export function selectorWithoutObservation(node: UiNode): string {
  const namer = new Namer([node], node);
  const steps = (['role', 'desc', 'text', 'id'] as const)
    .flatMap((kind) => namer.direct().filter((c) => c.strategy === kind))
    .map((c) => c.steps)
    .find((s) => namer.check({ strategy: 'chain', steps: s }) !== null);
  return selectorOf(
    steps ?? [
      node.role ? { kind: 'role', role: node.role } : { kind: 'class', className: node.class ?? 'android.view.View' },
    ],
  );
}

import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import { formatSteps, resolveSteps, type Step } from '../core/selector.js';

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

const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const shortId = (resId: string) => resId.replace(/^.*:id\//, '');

interface Candidate {
  strategy: LocatorStrategy;
  steps: Step[];
  code: string;
}

/** The one-step locators a node can be named by, best first. */
function direct(n: UiNode, all: UiNode[]): Candidate[] {
  const out: Candidate[] = [];
  if (n.res_id) {
    const short = shortId(n.res_id);
    // The short name unless another package's node ends the same way; then the full id.
    const ambiguous = all.some((o) => o !== n && o.res_id && o.res_id !== n.res_id && shortId(o.res_id) === short);
    const id = ambiguous ? n.res_id : short;
    out.push({ strategy: 'id', steps: [{ kind: 'id', id }], code: `getById(${q(id)})` });
  }
  const name = n.text || n.desc;
  if (name && n.role) {
    out.push({
      strategy: 'role',
      steps: [{ kind: 'role', role: n.role, name: { text: name, exact: true } }],
      code: `getByRole(${q(n.role)}, { name: ${q(name)}, exact: true })`,
    });
  }
  if (n.desc)
    out.push({
      strategy: 'desc',
      steps: [{ kind: 'desc', text: n.desc, exact: true }],
      code: `getByDesc(${q(n.desc)}, { exact: true })`,
    });
  if (n.text)
    out.push({
      strategy: 'text',
      steps: [{ kind: 'text', text: n.text, exact: true }],
      code: `getByText(${q(n.text)}, { exact: true })`,
    });
  return out;
}

/** The node by its role alone (or its class, when it has no role): unique only inside something. */
function bare(n: UiNode): Candidate {
  if (n.role) return { strategy: 'chain', steps: [{ kind: 'role', role: n.role }], code: `getByRole(${q(n.role)})` };
  const className = n.class ?? 'android.view.View';
  return { strategy: 'chain', steps: [{ kind: 'class', className }], code: `locator(${q(`class=${className}`)})` };
}

/** Ancestors of `n`, nearest first (by the observation's parent links). */
function ancestors(all: UiNode[], n: UiNode): UiNode[] {
  const byId = new Map(all.map((x) => [x.id, x]));
  const out: UiNode[] = [];
  for (let p = n.parent ? byId.get(n.parent) : undefined; p; p = p.parent ? byId.get(p.parent) : undefined) out.push(p);
  return out;
}

function codeOf(c: Candidate): string {
  return `app.${c.code}`;
}

/**
 * Ranked locators for one node of an observation: by resource id, role and name, description,
 * text; when none of those is unique, the node inside a uniquely named ancestor (a row filtered
 * by its text, a dialog), and as a last resort its position (`nth=`), which breaks when the
 * screen changes. Each is resolved against the same observation, so `strictSafe` is a fact about
 * this screen, not a guess. Pure and cheap (one pass over the nodes per candidate).
 */
export function suggestLocators(obs: Pick<Observation, 'nodes'>, nodeId: string): LocatorSuggestion[] {
  const all = obs.nodes;
  const node = all.find((n) => n.id === nodeId);
  if (!node) return [];
  const candidates = direct(node, all);
  const uniquely = (steps: Step[]) => {
    const m = resolveSteps(all, steps);
    return m.length === 1 && m[0]!.id === node.id;
  };
  if (!candidates.some((c) => uniquely(c.steps))) {
    // Inside a named ancestor: a list row that holds a unique text, or a uniquely named container.
    for (const anc of ancestors(all, node)) {
      const rowText = all.find((x) => x.parent === anc.id && x.id !== node.id && x.text)?.text ?? anc.text;
      const inner = direct(node, all).find((c) => c.strategy === 'id' || c.strategy === 'role') ?? bare(node);
      if (rowText && anc.role) {
        const steps: Step[] = [
          { kind: 'role', role: anc.role },
          { kind: 'filter', hasText: { text: rowText, exact: false } },
          ...inner.steps,
        ];
        candidates.push({
          strategy: 'chain',
          steps,
          code: `getByRole(${q(anc.role)}).filter({ hasText: ${q(rowText)} }).${inner.code}`,
        });
        if (uniquely(steps)) break;
      }
    }
  }
  if (!candidates.some((c) => uniquely(c.steps))) {
    const base: Step[] = node.role
      ? [{ kind: 'role', role: node.role }]
      : [{ kind: 'class', className: node.class ?? 'View' }];
    const index = resolveSteps(all, base).findIndex((m) => m.id === node.id);
    if (index >= 0) {
      candidates.push({
        strategy: 'nth',
        steps: [...base, { kind: 'nth', index }],
        code: `${node.role ? `getByRole(${q(node.role)})` : `locator(${q(formatSteps(base))})`}.nth(${index})`,
      });
    }
  }
  const seen = new Set<string>();
  return candidates
    .map((c) => {
      const matches = resolveSteps(all, c.steps);
      const strictSafe = matches.length === 1 && matches[0]!.id === node.id;
      return {
        strategy: c.strategy,
        selector: selectorOf(c.steps),
        code: codeOf(c),
        matches: matches.length,
        strictSafe,
        score: strictSafe ? WEIGHT[c.strategy] : 0,
      };
    })
    .filter((s) => (seen.has(s.selector) ? false : (seen.add(s.selector), true)))
    .sort((a, b) => b.score - a.score);
}

/** A text as `parseSelector` reads it back: bare for a substring, quoted for an exact match. */
function textValue(m: { text: string | RegExp; exact: boolean }): string {
  if (m.text instanceof RegExp) return String(m.text);
  if (!m.exact) return m.text;
  return m.text.includes('"') ? `'${m.text}'` : `"${m.text}"`;
}

/** The selector syntax of a chain, written so that `parseSelector` reads back the same steps. */
export function selectorOf(steps: Step[]): string {
  return steps
    .map((s): string => {
      switch (s.kind) {
        case 'text':
          return `text=${textValue(s)}`;
        case 'desc':
          return `desc=${textValue(s)}`;
        case 'id':
          return `id=${s.id}`;
        case 'class':
          return `class=${s.className}`;
        case 'nth':
          return `nth=${s.index}`;
        case 'role': {
          const attrs = [
            s.name ? `[name=${textValue(s.name)}]` : '',
            ...(['checked', 'disabled', 'selected', 'focused'] as const)
              .filter((k) => s[k] !== undefined)
              .map((k) => `[${k}=${s[k]}]`),
          ];
          return `role=${s.role}${attrs.join('')}`;
        }
        case 'filter':
          if (s.hasText && !s.has && !s.hasNotText) return `has-text=${textValue(s.hasText)}`;
          return formatSteps([s]);
        case 'or':
        case 'and':
          return formatSteps([s]);
        case 'relative': {
          const list = s.anchor.map(selectorOf);
          return `${s.rel}=${JSON.stringify(list.length === 1 ? list[0] : list)}`;
        }
        case 'state':
          return `${s.state}=${s.value}`;
      }
    })
    .join(' >> ');
}

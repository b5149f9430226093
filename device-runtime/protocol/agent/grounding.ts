import type { Observation, UiNode } from '../observation.js';
import { normalize, screenTexts } from './screen.js';
import type { Verdict } from './tools.js';

/**
 * Grounding: a verdict or an extraction is accepted only when what it cites is on the screen it
 * was given. Node ids must be in that snapshot; text quoted in the reason ("…" or “…”) must
 * appear in some node's text, description or hint; an extracted value's strings and numbers must
 * appear in its evidence nodes. A pass verdict must cite at least one node: "true" with nothing
 * on screen to show it is how a wrong screen passes.
 */
export type Grounding = { ok: true; evidence: UiNode[] } | { ok: false; problems: string[] };

function evidenceOf(ids: readonly string[], obs: Observation, problems: string[]): UiNode[] {
  const byId = new Map(obs.nodes.map((n) => [n.id, n]));
  const out: UiNode[] = [];
  for (const id of ids) {
    const n = byId.get(id);
    if (n) out.push(n);
    else problems.push(`node ${JSON.stringify(id)} is not on the screen (snapshot ${obs.snapshot_id})`);
  }
  return out;
}

/** Strings the reason quotes: "…", “…”. */
export function quotedTexts(reason: string): string[] {
  return [...reason.matchAll(/"([^"]+)"|\u201c([^\u201d]+)\u201d/g)]
    .map((m) => (m[1] ?? m[2])!)
    .filter((q) => q.trim().length > 0);
}

export function groundVerdict(v: Verdict, obs: Observation): Grounding {
  const problems: string[] = [];
  const evidence = evidenceOf(v.evidence_node_ids, obs, problems);
  if (v.pass && v.evidence_node_ids.length === 0) problems.push('a pass verdict cites no node that shows it');
  const texts = screenTexts(obs.nodes);
  for (const q of quotedTexts(v.reason)) {
    const n = normalize(q);
    if (!texts.some((t) => t.includes(n)))
      problems.push(`the reason quotes ${JSON.stringify(q)}, which is not on the screen`);
  }
  return problems.length ? { ok: false, problems } : { ok: true, evidence };
}

/** Leaves of a JSON value that can be checked against text: strings and finite numbers. */
function leaves(value: unknown, out: Array<string | number> = []): Array<string | number> {
  if (typeof value === 'string') {
    if (value.trim()) out.push(value);
  } else if (typeof value === 'number' && Number.isFinite(value)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) leaves(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) leaves(v, out);
  return out;
}

export function groundExtraction(value: unknown, ids: readonly string[], obs: Observation): Grounding {
  const problems: string[] = [];
  const evidence = evidenceOf(ids, obs, problems);
  const texts = screenTexts(evidence);
  // Numbers are compared as numbers: "$1,299.50" shows 1299.5 (and not 99).
  const numbers = texts.flatMap((t) =>
    [...t.matchAll(/\d[\d,\u00a0]*(?:\.\d+)?/g)].map((m) => Number(m[0].replace(/[,\u00a0]/g, ''))),
  );
  for (const leaf of leaves(value)) {
    if (typeof leaf === 'string') {
      const n = normalize(leaf);
      if (!texts.some((t) => t.includes(n)))
        problems.push(`the value ${JSON.stringify(leaf)} is not in the text of its evidence nodes`);
    } else {
      if (!numbers.some((n) => Math.abs(n - Math.abs(leaf)) < 1e-9))
        problems.push(`the value ${leaf} is not in the text of its evidence nodes`);
    }
  }
  return problems.length ? { ok: false, problems } : { ok: true, evidence };
}

import type { Observation, UiNode } from '../observation.js';
import { parseSelector, resolveSteps } from '../selector.js';

/**
 * A selector string (the framework's own syntax) that resolves to exactly `node` in `obs`: what
 * an AI step acts through, what the action cache stores, and what the device's agent records. Tries the most durable forms first —
 * resource id, role and name, exact text, description — then the same under a uniquely named
 * ancestor (a row's button), then an index among equal matches as the last resort.
 */
export function selectorFor(node: UiNode, obs: Observation): string {
  const unique = (sel: string) => {
    const found = safeResolve(obs, sel);
    return found.length === 1 && found[0]!.id === node.id;
  };
  const own = candidates(node);
  for (const c of own) if (unique(c)) return c;
  const byId = new Map(obs.nodes.map((n) => [n.id, n]));
  for (let p = node.parent ? byId.get(node.parent) : undefined; p; p = p.parent ? byId.get(p.parent) : undefined) {
    for (const pc of candidates(p)) {
      if (count(obs, pc) !== 1) continue;
      for (const c of own) if (unique(`${pc} >> ${c}`)) return `${pc} >> ${c}`;
    }
  }
  for (const c of [...own, `role=${node.role}`]) {
    const all = safeResolve(obs, c);
    const i = all.findIndex((n) => n.id === node.id);
    if (i >= 0 && unique(`${c} >> nth=${i}`)) return `${c} >> nth=${i}`;
  }
  return `role=${node.role} >> nth=${obs.nodes.filter((n) => n.role === node.role).findIndex((n) => n.id === node.id)}`;
}

function safeResolve(obs: Observation, sel: string): UiNode[] {
  try {
    return resolveSteps(obs.nodes, parseSelector(sel));
  } catch {
    return [];
  }
}

const count = (obs: Observation, sel: string) => safeResolve(obs, sel).length;

/** Quoted for the selector syntax: exact match, the text as it is between the outer quotes. */
const q = (s: string) => `"${s}"`;

function candidates(n: UiNode): string[] {
  const out: string[] = [];
  const res = n.res_id?.replace(/^.*:id\//, '');
  if (res) out.push(`id=${res}`);
  const name = n.text || n.desc;
  if (name) out.push(`role=${n.role}[name=${q(name)}]`);
  if (n.text) out.push(`text=${q(n.text)}`);
  if (n.desc) out.push(`desc=${q(n.desc)}`);
  if (!out.length) out.push(`role=${n.role}`);
  return out;
}

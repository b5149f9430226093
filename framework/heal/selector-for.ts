import type { UiNode } from '../../device-runtime/protocol/index.js';
import { parseSelector, resolveSteps, type Step } from '../selector.js';
import { idName } from './fingerprint.js';

type Kind = 'id' | 'text' | 'desc' | 'role';

/** Selector syntax of `app.locator()` for one simple step; null when the value cannot be written in it. */
function write(kind: Kind, value: string, exact: boolean, role?: string): string | null {
  if (/>>|[\r\n]/.test(value)) return null;
  if (kind === 'id') return `id=${value}`;
  if (!exact && (/^["'/]/.test(value) || value !== value.trim() || value === '')) return null;
  const v = exact ? `"${value}"` : value;
  if (kind === 'role') return value.includes(']') ? null : `role=${role}[name=${v}]`;
  return `${kind}=${v}`;
}

/**
 * The simplest selector that names `node` and nothing else on this screen, in the original
 * locator's own kind first (so `getById` heals to another id and the spec edit only changes the
 * call's arguments), then id, role and name, text, description. Each is checked by parsing it
 * back and resolving it against the observation: null when no such selector names it alone.
 */
export function uniqueSelectorFor(nodes: UiNode[], node: UiNode, original: Step[]): string | null {
  const first = original.length === 1 ? original[0]! : null;
  const exactFirst = first && 'exact' in first ? first.exact : first?.kind === 'role' ? (first.name?.exact ?? true) : true;
  const label = node.text || node.desc;
  const options: Array<[Kind, string | null | undefined, boolean]> = [
    ['id', idName(node.res_id), true],
    ['role', label, exactFirst],
    ['role', label, true],
    ['text', node.text, exactFirst],
    ['text', node.text, true],
    ['desc', node.desc, exactFirst],
    ['desc', node.desc, true],
  ];
  // A plain text view reads best as text=…; role=text[name=…] says the same thing longer.
  const preferred = first?.kind ?? (node.role === 'text' ? 'text' : undefined);
  const ordered = [...options.filter(([k]) => k === preferred), ...options.filter(([k]) => k !== preferred)];
  for (const [kind, value, exact] of ordered) {
    if (!value) continue;
    const selector = write(kind, value, exact, node.role);
    if (!selector) continue;
    const hits = resolveSteps(nodes, parseSelector(selector));
    if (hits.length === 1 && hits[0]!.id === node.id) return selector;
  }
  return null;
}

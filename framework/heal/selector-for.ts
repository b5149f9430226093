import type { UiNode } from '../../device-runtime/protocol/index.js';
import { parseSelector, resolveSteps, type Step } from '../core/selector.js';
import { idName, rowOf, subtreeIds } from './fingerprint.js';

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
 * call's arguments), then id, role and name, text, description, and last, in a list, the row
 * filtered by one of its labels. Each is checked by parsing it back and resolving it against the
 * observation: null when no such selector names it alone.
 */
export function uniqueSelectorFor(nodes: UiNode[], node: UiNode, original: Step[]): string | null {
  const first = original.length === 1 ? original[0]! : null;
  const exactFirst =
    first && 'exact' in first ? first.exact : first?.kind === 'role' ? (first.name?.exact ?? true) : true;
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
  return inRow(nodes, node);
}

const quote = (s: string) => (/["\\]|>>|[\r\n]/.test(s) ? null : `"${s}"`);

/**
 * A node that only its list row tells apart (a row's checkbox, download icon, or the row
 * itself): the row by its id or role, filtered by one of its labels, then the node inside it —
 * `id=task_row >> has-text="Pay rent" >> role=checkbox`, as `.filter({ hasText })` writes it.
 */
function inRow(nodes: UiNode[], node: UiNode): string | null {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const row = rowOf(node, byId);
  if (!row) return null;
  const rowBase = row.res_id ? `id=${idName(row.res_id)}` : `role=${row.role}`;
  const inside = subtreeIds(nodes, row.id);
  const own = node.text || node.desc;
  const labels = nodes
    .filter((n) => inside.has(n.id) && (n.text || n.desc) && (n.text || n.desc) !== own)
    .map((n) => (n.text || n.desc)!);
  const label = own ? quote(own) : null;
  const tails =
    node === row
      ? ['']
      : [
          node.res_id ? ` >> id=${idName(node.res_id)}` : null,
          label ? ` >> role=${node.role}[name=${label}]` : null,
          ` >> role=${node.role}`,
        ].filter((t): t is string => t !== null);
  for (const l of labels) {
    const q = quote(l);
    if (!q) continue;
    for (const tail of tails) {
      const selector = `${rowBase} >> has-text=${q}${tail}`;
      const hits = resolveSteps(nodes, parseSelector(selector));
      if (hits.length === 1 && hits[0]!.id === node.id) return selector;
    }
  }
  return null;
}

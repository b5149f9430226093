import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';

/** One node a line, its id first: `n12 button "Save" id=save [40,1500,1040,1620]`. */
export function nodeLine(n: UiNode): string {
  const parts = [n.id, n.role];
  if (n.text) parts.push(JSON.stringify(n.text));
  if (n.desc) parts.push(`desc=${JSON.stringify(n.desc)}`);
  if (n.res_id) parts.push(`id=${n.res_id.replace(/^.*:id\//, '')}`);
  if (n.hint && !n.text) parts.push(`hint=${JSON.stringify(n.hint)}`);
  for (const flag of ['checked', 'selected', 'focused'] as const) if (n[flag]) parts.push(flag);
  if (!n.enabled) parts.push('disabled');
  if (n.scrollable) parts.push('scrollable');
  parts.push(`[${n.bounds.join(',')}]`);
  return parts.join(' ');
}

/**
 * The screen as an agent reads it: package and activity on top, then the nodes, indented by
 * depth. Full trees keep only nodes that say something (text, description, id) or can be acted on.
 */
export function compactScreen(obs: Observation, max = 200): string {
  const head =
    `${obs.package ?? '(no app)'} ${obs.activity ?? ''}`.trim() +
    (obs.tree_missing ? ' (accessibility tree missing: observe again)' : '');
  const useful = obs.nodes.filter((n) => n.text || n.desc || n.res_id || n.clickable || n.editable || n.scrollable);
  const lines = useful.slice(0, max).map((n) => `${'  '.repeat(Math.min(n.depth ?? 0, 8))}${nodeLine(n)}`);
  if (useful.length > max) lines.push(`… ${useful.length - max} more nodes`);
  return [head, ...lines].join('\n');
}

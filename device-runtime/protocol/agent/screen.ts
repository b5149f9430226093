import type { Observation, UiNode } from '../observation.js';

/**
 * The screen as the model sees it: the compact observation, one node a line — id, role, quoted
 * text and description, then states — with package and activity on top, inside a `<screen>`
 * block marked untrusted. Quoted strings are JSON with `<` and `>` escaped, so text on screen
 * can never close the block or pose as an instruction outside it. `redact` replaces secret values
 * (the framework's `secret()`s) before anything leaves the process.
 */
export type Redact = (text: string) => string;
const asIs: Redact = (s) => s;

export function nodeLine(n: UiNode, redact: Redact = asIs): string {
  const quote = (s: string) => quoteText(redact(s));
  const parts = [n.id, n.role];
  if (n.text !== null && n.text !== undefined) parts.push(quote(n.text));
  if (n.desc) parts.push(`desc=${quote(n.desc)}`);
  if (n.hint && !n.text) parts.push(`hint=${quote(n.hint)}`);
  if (n.res_id) parts.push(`id=${n.res_id.replace(/^.*:id\//, '')}`);
  const states = [
    !n.enabled && 'disabled',
    n.checked && 'checked',
    n.checkable && !n.checked && 'unchecked',
    n.selected && 'selected',
    n.focused && 'focused',
    n.editable && 'editable',
    n.password && 'password',
    n.scrollable && 'scrollable',
  ].filter(Boolean);
  if (states.length) parts.push(`[${states.join(' ')}]`);
  return parts.join(' ');
}

function quoteText(s: string): string {
  return JSON.stringify(s).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
}

export function renderScreen(obs: Observation, redact: Redact = asIs): string {
  const quote = (s: string) => quoteText(redact(s));
  const head = `<screen package=${quote(obs.package ?? '(none)')} activity=${quote(obs.activity ?? '(none)')} snapshot=${quote(obs.snapshot_id)} untrusted="true">`;
  const body = obs.tree_missing
    ? ['(no accessibility tree: the screen is in a transition)']
    : obs.nodes.length === 0
      ? ['(no nodes: the screen draws its own content, e.g. a WebView or canvas)']
      : obs.nodes.map((n) => '  '.repeat(Math.min(n.depth ?? 0, 6)) + nodeLine(n, redact));
  return [head, ...body, '</screen>'].join('\n');
}

/** Every text, description and hint on screen, normalized, for grounding checks. */
export function screenTexts(nodes: readonly UiNode[]): string[] {
  return nodes
    .flatMap((n) => [n.text, n.desc, n.hint])
    .filter((t): t is string => !!t)
    .map(normalize);
}

export function normalize(s: string): string {
  return s
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** A coarse signature of "which screen": package and activity. Stable across data, timing and fault profiles. */
export function screenSignature(obs: Observation): string {
  return `${obs.package ?? '-'}/${obs.activity ?? '-'}`;
}

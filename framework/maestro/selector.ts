import type { UiNode } from '../../device-runtime/protocol/index.js';
import { onSide, type Side } from '../../device-runtime/protocol/selector-relative.js';

/**
 * Maestro's element selectors, matched the way Maestro matches them (its `Orchestra` filters):
 * `text` is a regular expression matched against the whole of a node's text, hint or
 * accessibility text, case-insensitive with `.` matching line breaks (a text equal to the
 * pattern also matches, so `Price ($)` finds its node); `id` is matched the same way against the
 * full resource id or the part after `/`; states (`enabled`, `checked`, `focused`, `selected`)
 * filter; relative selectors (`below`, `above`, `leftOf`, `rightOf`) keep the nodes whose top
 * (left) edge is past an anchor's, nearest first when no text or id came first; `childOf` keeps
 * what is inside the first parent found, `containsChild` the parent of the first child found,
 * `containsDescendants` nodes with all of them below; `index` picks among the matches by top,
 * then left edge; without it, clickable matches come first. Not strict: like Maestro, an action
 * takes the first match.
 */
export interface MaestroSelector {
  text?: string;
  id?: string;
  index?: number;
  enabled?: boolean;
  checked?: boolean;
  focused?: boolean;
  selected?: boolean;
  below?: MaestroSelector;
  above?: MaestroSelector;
  leftOf?: MaestroSelector;
  rightOf?: MaestroSelector;
  childOf?: MaestroSelector;
  containsChild?: MaestroSelector;
  containsDescendants?: MaestroSelector[];
  /** `point` inside a selector: where in the element to tap (`90%,50%`). */
  point?: string;
}

const RELATIVE = ['below', 'above', 'leftOf', 'rightOf', 'childOf', 'containsChild'] as const;
const SIDES = [
  ['below', 'below'],
  ['above', 'above'],
  ['leftOf', 'left-of'],
  ['rightOf', 'right-of'],
] as const satisfies ReadonlyArray<readonly [keyof MaestroSelector, Side]>;
const STATES = ['enabled', 'checked', 'focused', 'selected'] as const;
/** Keys of a selector map that are options of the command, not of the selector. */
export const COMMAND_OPTIONS = new Set([
  'optional',
  'label',
  'retryTapIfNoChange',
  'waitToSettleTimeoutMs',
  'repeat',
  'delay',
  'waitUntilVisible',
  'timeout',
  'traits',
  'width',
  'height',
  'tolerance',
  'css',
]);

export class SelectorError extends Error {}

/** A selector as written (`"Text"`, `{ id: …, below: … }`) checked and normalised; throws a {@link SelectorError}. */
export function readSelector(raw: unknown, what = 'selector'): MaestroSelector {
  if (typeof raw === 'string' || typeof raw === 'number') return { text: String(raw) };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new SelectorError(`${what}: give a text (\`tapOn: Save\`) or a map ({ id: …, text: … })`);
  const r = raw as Record<string, unknown>;
  const sel: MaestroSelector = {};
  for (const [k, v] of Object.entries(r)) {
    if (COMMAND_OPTIONS.has(k)) continue;
    if (k === 'text' || k === 'id') sel[k] = String(v);
    else if (k === 'index') {
      const n = Number(v);
      if (!Number.isInteger(n) && typeof v === 'number') throw new SelectorError(`${what}: index is a whole number`);
      // `${…}` indexes are evaluated when the flow runs.
      sel.index = Number.isInteger(n) ? n : (v as unknown as number);
    } else if ((STATES as readonly string[]).includes(k))
      sel[k as (typeof STATES)[number]] = v === true || v === 'true';
    else if ((RELATIVE as readonly string[]).includes(k))
      sel[k as (typeof RELATIVE)[number]] = readSelector(v, `${what}.${k}`);
    else if (k === 'containsDescendants') {
      if (!Array.isArray(v)) throw new SelectorError(`${what}: containsDescendants is a list of selectors`);
      sel.containsDescendants = v.map((x, i) => readSelector(x, `${what}.containsDescendants[${i}]`));
    } else if (k === 'point') sel.point = String(v);
    else
      throw new SelectorError(
        `${what}: unknown key \`${k}\` (a selector has text, id, index, point, enabled, checked, focused, selected, below, above, leftOf, rightOf, childOf, containsChild, containsDescendants)`,
      );
  }
  return sel;
}

/**
 * A Maestro (Java) pattern as a JavaScript RegExp matching the whole text, with Maestro's options
 * (case-insensitive, `.` matches line breaks, multi-line). Java's inline flags are what JS lacks:
 * `(?i)`, `(?s)`, `(?m)` repeat Maestro's options and are dropped, a leading `(?-i)` makes the
 * match case-sensitive, `\Q…\E` quotes, `\A` and `\z`/`\Z` anchor. A pattern that is not a valid
 * expression is matched literally, as Maestro's `toRegexSafe` does.
 */
export function maestroRegex(pattern: string): RegExp {
  let flags = 'ims';
  let p = pattern.replace(/\\Q([\s\S]*?)(?:\\E|$)/g, (_m, q: string) => q.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  p = p.replace(/^\(\?([a-zA-Z]*)-([a-zA-Z]+)\)/, (_m, on: string, off: string) => {
    if (off.includes('i')) flags = flags.replace('i', '');
    return on ? `(?${on})` : '';
  });
  p = p.replace(/\(\?[imsux]+\)/g, '').replace(/\(\?[imsux]+:/g, '(?:');
  p = p.replace(/\\A/g, '^').replace(/\\[zZ]/g, '$');
  // Possessive quantifiers and atomic groups: the same matches for a whole-text test.
  p = p.replace(/([*+?}])\+/g, '$1').replace(/\(\?>/g, '(?:');
  const anchored = (body: string) => new RegExp(`(?<![\\s\\S])(?:${body})(?![\\s\\S])`, flags);
  try {
    return anchored(p);
  } catch {
    return anchored(pattern.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  }
}

function textMatches(re: RegExp, pattern: string, value: string | null | undefined): boolean {
  if (value == null) return false;
  const flat = value.replace(/\n/g, ' ');
  return re.test(value) || value === pattern || re.test(flat) || flat === pattern;
}

function within(all: UiNode[], root: UiNode): UiNode[] {
  const inside = new Set([root.id]);
  const out: UiNode[] = [];
  for (const n of all)
    if (n.parent && inside.has(n.parent)) {
      inside.add(n.id);
      out.push(n);
    }
  return out;
}

/** Every node of the screen the selector matches, in Maestro's order (index applied). */
export function matchSelector(all: UiNode[], sel: MaestroSelector): UiNode[] {
  let out = all;
  if (sel.text !== undefined) {
    const re = maestroRegex(sel.text);
    out = out.filter(
      (n) =>
        textMatches(re, sel.text!, n.text) || textMatches(re, sel.text!, n.hint) || textMatches(re, sel.text!, n.desc),
    );
  }
  if (sel.id !== undefined) {
    const re = maestroRegex(sel.id);
    out = out.filter(
      (n) =>
        !!n.res_id &&
        (textMatches(re, sel.id!, n.res_id) || textMatches(re, sel.id!, n.res_id.slice(n.res_id.lastIndexOf('/') + 1))),
    );
  }
  if (sel.enabled !== undefined) out = out.filter((n) => n.enabled === sel.enabled);
  if (sel.checked !== undefined) out = out.filter((n) => (n.checked ?? false) === sel.checked);
  if (sel.focused !== undefined) out = out.filter((n) => n.focused === sel.focused);
  if (sel.selected !== undefined) out = out.filter((n) => n.selected === sel.selected);
  // Orchestra finds one parent and searches inside it; containsChild looks for one child's parent.
  if (sel.childOf) {
    const parent = matchSelector(all, sel.childOf)[0];
    const inside = new Set(parent ? within(all, parent).map((n) => n.id) : []);
    out = out.filter((n) => inside.has(n.id));
  }
  if (sel.containsChild) {
    const child = matchSelector(all, sel.containsChild)[0];
    out = child ? out.filter((n) => n.id === child.parent) : [];
  }
  if (sel.containsDescendants) {
    const wanted = sel.containsDescendants;
    out = out.filter((n) => {
      const below = within(all, n);
      return wanted.every((w) => matchSelector(below, w).length > 0);
    });
  }
  // Maestro intersects its filters in the order of the first: the text's or id's, else the
  // first side's (nearest first, to any anchor).
  let ordered = sel.text !== undefined || sel.id !== undefined;
  for (const [where, side] of SIDES) {
    const rel = sel[where];
    if (!rel) continue;
    out = onSide(out, matchSelector(all, rel), side, ordered);
    ordered = true;
  }
  if (sel.index !== undefined) {
    // Filters.index: the matches by their top, then their left edge.
    const at = Number(sel.index);
    const sorted = [...out].sort((a, b) => a.bounds[1] - b.bounds[1] || a.bounds[0] - b.bounds[0]);
    return sorted[at] ? [sorted[at]!] : [];
  }
  // Filters.clickableFirst.
  return [...out.filter((n) => n.clickable), ...out.filter((n) => !n.clickable)];
}

/** How a selector reads in titles and errors: `text "Save" below id "title"`. */
export function describeSelector(sel: MaestroSelector): string {
  const parts: string[] = [];
  if (sel.text !== undefined) parts.push(`text ${JSON.stringify(sel.text)}`);
  if (sel.id !== undefined) parts.push(`id ${JSON.stringify(sel.id)}`);
  for (const k of STATES) if (sel[k] !== undefined) parts.push(`${k}=${sel[k]}`);
  for (const k of RELATIVE) if (sel[k]) parts.push(`${k} ${describeSelector(sel[k]!)}`);
  if (sel.containsDescendants) parts.push(`containing ${sel.containsDescendants.map(describeSelector).join(', ')}`);
  if (sel.index !== undefined) parts.push(`index ${sel.index}`);
  if (sel.point !== undefined) parts.push(`point ${sel.point}`);
  return parts.join(' ') || 'any element';
}

/** A point (`50%,50%` or `100, 200`) in screen pixels, within `box` ([l, t, r, b]). */
export function readPoint(point: string, box: readonly [number, number, number, number]): [number, number] | null {
  const m = /^\s*(-?\d+(?:\.\d+)?)(%?)\s*,\s*(-?\d+(?:\.\d+)?)(%?)\s*$/.exec(point);
  if (!m) return null;
  const [l, t, r, b] = box;
  const x = m[2] ? l + ((r - l) * Number(m[1])) / 100 : Number(m[1]);
  const y = m[4] ? t + ((b - t) * Number(m[3])) / 100 : Number(m[3]);
  return [Math.round(x), Math.round(y)];
}

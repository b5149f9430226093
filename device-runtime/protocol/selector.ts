import type { UiNode } from './observation.js';
import { inState, relate, RELATIONS, STATES, type NodeState, type Relation } from './selector-relative.js';

/**
 * The one selector engine: the framework resolves locators with it, and a device runtime that
 * replays skills (`skill_run`) resolves their selectors with the same code, so a selector means
 * the same thing on both sides of the protocol.
 */

/** A selector that cannot be parsed; `message` says what to write instead. */
export class SelectorSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorSyntaxError';
  }
}

/** Text to match: a substring (case-insensitive), the exact text, or a RegExp. */
export type TextMatch = { text: string | RegExp; exact: boolean };
/**
 * The roles observations name nodes by, which `getByRole` takes: the simulator's views, the
 * Android view classes the providers map (device-runtime/providers/android-roles.ts), a WebView
 * page's headings, links and radios, and the list rows a runtime may mark.
 */
export const ROLES = [
  'button',
  'checkbox',
  'switch',
  'radio',
  'textbox',
  'text',
  'heading',
  'link',
  'image',
  'list',
  'listitem',
  'group',
  'toolbar',
  'progressbar',
  'webview',
  'canvas',
  'view',
] as const;

/** A role `getByRole` takes (see {@link ROLES}). */
export type Role = (typeof ROLES)[number];

/**
 * A locator's description: a chain of steps, each narrowing the previous step's matches (the
 * next step searches the descendants of each match, like Playwright's `>>`).
 */
export type Step =
  | ({ kind: 'text' } & TextMatch)
  | ({ kind: 'desc' } & TextMatch)
  | { kind: 'id'; id: string }
  | { kind: 'class'; className: string }
  | {
      kind: 'role';
      role: string;
      name?: TextMatch;
      checked?: boolean;
      disabled?: boolean;
      selected?: boolean;
      focused?: boolean;
    }
  | { kind: 'filter'; hasText?: TextMatch; has?: Step[]; hasNotText?: TextMatch }
  | { kind: 'nth'; index: number }
  /** Locator.or(): what the chain so far matches, plus what `other` (a chain from the screen) matches. */
  | { kind: 'or'; other: Step[] }
  /** Locator.and(): what the chain so far matches that `other` matches too. */
  | { kind: 'and'; other: Step[] }
  /** `below="text=Email"`: the matches so far in that relation to the first node `anchor` finds (any alternative). */
  | { kind: 'relative'; rel: Relation; anchor: Step[][] }
  /** `checked=true`: the matches so far in that state. */
  | { kind: 'state'; state: NodeState; value: boolean };

/** Whether a node's own text (or description) matches `m`: a substring, whitespace normalized and case-insensitive; equal with `exact`; a RegExp tests it. */
export function matchText(value: string | null | undefined, m: TextMatch): boolean {
  if (value == null) return false;
  if (m.text instanceof RegExp) return m.text.test(value);
  if (m.exact) return value === m.text;
  return normalized(value).includes(normalized(m.text));
}

/** Texts as matchText compares them, by text: a screen's texts are read again at every look. */
const normalizedTexts = new Map<string, string>();

/** `s` with whitespace collapsed and trimmed, lower case (kept for the next look, up to 100,000 texts). */
function normalized(s: string): string {
  let n = normalizedTexts.get(s);
  if (n === undefined) {
    if (normalizedTexts.size >= 100_000) normalizedTexts.clear();
    n = s.replace(/\s+/g, ' ').trim().toLowerCase();
    normalizedTexts.set(s, n);
  }
  return n;
}

/**
 * Whether a full text contains `m`, as Playwright's has-text reads: a substring, case-insensitive,
 * or case-sensitive when exact (`has-text="Milk"`); whitespace normalized. A RegExp tests it.
 */
function containsText(value: string, m: TextMatch): boolean {
  if (m.text instanceof RegExp) return m.text.test(value);
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
  return m.exact ? norm(value).includes(norm(m.text)) : norm(value).toLowerCase().includes(norm(m.text).toLowerCase());
}

function roleMatches(n: UiNode, step: Extract<Step, { kind: 'role' }>): boolean {
  if (n.role !== step.role) return false;
  if (step.name && !(matchText(n.text, step.name) || matchText(n.desc, step.name))) return false;
  if (step.checked !== undefined && (n.checked ?? false) !== step.checked) return false;
  if (step.disabled !== undefined && !n.enabled !== step.disabled) return false;
  if (step.selected !== undefined && n.selected !== step.selected) return false;
  if (step.focused !== undefined && n.focused !== step.focused) return false;
  return true;
}

/** Nodes of `all` that are `root` itself or below it (by the observation's parent links). */
function subtree(all: UiNode[], root: UiNode): UiNode[] {
  const inside = new Set([root.id]);
  const out: UiNode[] = [];
  for (const n of all) {
    if (n.parent && inside.has(n.parent)) {
      inside.add(n.id);
      out.push(n);
    }
  }
  return out;
}

/**
 * What an editable field holds, as a user reads it: its text, `''` when it is empty. A runtime may
 * report an empty field's text as null, or (as Android does from API 26) as its hint.
 */
export function fieldValue(n: UiNode): string {
  if (n.text == null || (n.hint != null && n.text === n.hint && !n.password)) return '';
  return n.text;
}

/** The text a node shows itself: a field's value, else its text, else its content description (as TalkBack reads it). */
export function ownText(n: UiNode): string {
  return n.editable ? fieldValue(n) : n.text || n.desc || '';
}

/**
 * A node's full text, as Playwright's textContent is an element's and its descendants' text: the
 * text of the node and of every node below it in tree order, joined by a space; an editable
 * field counts with its value. `''` when there is none (an empty field, an icon without a
 * description), as an empty element's textContent is.
 */
export function fullText(all: UiNode[], n: UiNode): string {
  return [n, ...subtree(all, n)].map(ownText).filter(Boolean).join(' ');
}

/** Resolve a chain of steps against one observation's nodes. */
export function resolveSteps(all: UiNode[], steps: Step[]): UiNode[] {
  let current: UiNode[] | null = null; // null = the whole screen
  for (const step of steps) {
    if (step.kind === 'nth') {
      const list: UiNode[] = current ?? all;
      const at = step.index < 0 ? list.length + step.index : step.index;
      current = list[at] ? [list[at]!] : [];
      continue;
    }
    if (step.kind === 'filter') {
      current = (current ?? all).filter((n) => {
        const text = fullText(all, n);
        if (step.hasText && !containsText(text, step.hasText)) return false;
        if (step.hasNotText && containsText(text, step.hasNotText)) return false;
        if (step.has && resolveSteps(subtree(all, n), step.has).length === 0) return false;
        return true;
      });
      continue;
    }
    if (step.kind === 'relative') {
      const anchor = step.anchor;
      current = relate(
        all,
        current ?? all,
        step.rel,
        (scope) => {
          const ids = new Set(anchor.flatMap((alt) => resolveSteps(scope, alt).map((n) => n.id)));
          return scope.filter((n) => ids.has(n.id));
        },
        current !== null,
      );
      continue;
    }
    if (step.kind === 'state') {
      current = (current ?? all).filter((n) => inState(n, step.state, step.value));
      continue;
    }
    if (step.kind === 'or' || step.kind === 'and') {
      const mine: UiNode[] = current ?? all;
      const other = new Set(resolveSteps(all, step.other).map((n) => n.id));
      const ids = new Set(mine.map((n: UiNode) => n.id));
      // Screen order, as Playwright keeps document order.
      current =
        step.kind === 'or' ? all.filter((n) => ids.has(n.id) || other.has(n.id)) : mine.filter((n) => other.has(n.id));
      continue;
    }
    const scope: UiNode[] = current === null ? all : dedupe(current.flatMap((root) => subtree(all, root)));
    current = scope.filter((n) => matchStep(n, step));
  }
  return current ?? all;
}

function dedupe(nodes: UiNode[]): UiNode[] {
  return [...new Map(nodes.map((n) => [n.id, n])).values()];
}

const ID_PATTERNS = new Map<string, RegExp | null>();
/** The RegExp of an `id=/…/flags` selector, compiled once; null for a plain id. */
function idPattern(id: string): RegExp | null {
  if (!id.startsWith('/')) return null;
  let re = ID_PATTERNS.get(id);
  if (re === undefined) {
    const m = /^\/(.*)\/([a-z]*)$/s.exec(id);
    re = m ? new RegExp(m[1]!, m[2]) : null;
    if (ID_PATTERNS.size < 500) ID_PATTERNS.set(id, re);
  }
  return re;
}

function matchStep(
  n: UiNode,
  step: Exclude<Step, { kind: 'nth' | 'filter' | 'or' | 'and' | 'relative' | 'state' }>,
): boolean {
  switch (step.kind) {
    case 'text':
      return matchText(n.text, step);
    case 'desc':
      return matchText(n.desc, step);
    case 'id': {
      if (!n.res_id) return false;
      // `id=/pattern/flags` (no resource id starts with a slash): the full id or the name after `:id/`.
      const re = idPattern(step.id);
      if (re) return re.test(n.res_id) || re.test(n.res_id.slice(n.res_id.indexOf(':id/') + 4));
      return step.id.includes(':id/') ? n.res_id === step.id : n.res_id.endsWith(`:id/${step.id}`);
    }
    case 'class':
      return n.class === step.className || !!n.class?.endsWith(`.${step.className}`);
    case 'role':
      return roleMatches(n, step);
    default: {
      const never: never = step;
      throw new Error(`unknown selector step ${JSON.stringify(never)}`);
    }
  }
}

/** How a chain reads in titles and errors: `getByRole('button', { name: 'Save' }) >> nth=0`. */
export function formatSteps(steps: Step[]): string {
  const t = (m: TextMatch) =>
    m.text instanceof RegExp ? String(m.text) : m.exact ? JSON.stringify(m.text) : `'${m.text}'`;
  return steps
    .map((s) => {
      switch (s.kind) {
        case 'text':
          return `text=${t(s)}`;
        case 'desc':
          return `desc=${t(s)}`;
        case 'id':
          return `id=${s.id}`;
        case 'class':
          return `class=${s.className}`;
        case 'role': {
          const attrs = [
            s.name ? `name=${t(s.name)}` : '',
            ...(['checked', 'disabled', 'selected', 'focused'] as const)
              .filter((k) => s[k] !== undefined)
              .map((k) => `${k}=${s[k]}`),
          ].filter(Boolean);
          return `role=${s.role}${attrs.length ? `[${attrs.join(', ')}]` : ''}`;
        }
        case 'filter':
          return `filter(${[s.hasText ? `hasText=${t(s.hasText)}` : '', s.hasNotText ? `hasNotText=${t(s.hasNotText)}` : '', s.has ? `has=${formatSteps(s.has)}` : ''].filter(Boolean).join(', ')})`;
        case 'nth':
          return `nth=${s.index}`;
        case 'or':
        case 'and':
          return `${s.kind}(${formatSteps(s.other)})`;
        case 'relative':
          return `${s.rel}=${anchorText(s.anchor)}`;
        case 'state':
          return `${s.state}=${s.value}`;
      }
    })
    .join(' >> ');
}

/** A relation's anchor as written: one nested selector as a JSON string, alternatives as a JSON array. */
export function anchorText(anchor: Step[][]): string {
  const list = anchor.map((alt) => formatSteps(alt));
  return JSON.stringify(list.length === 1 ? list[0] : list);
}

const NESTED = new RegExp(`^\\s*(?:${RELATIONS.join('|')})=(?=["[])`);

/**
 * The parts of a selector, split at `>>`; a relation's value (`below="id=a >> nth=0"`, or an
 * array of alternatives) is JSON, and the `>>` inside it stay with it.
 */
function splitParts(selector: string): string[] {
  const parts: string[] = [];
  let i = 0;
  while (i < selector.length) {
    let j = i;
    const head = NESTED.exec(selector.slice(i));
    if (head) {
      // Skip the JSON value: strings with their escapes, brackets balanced.
      j = i + head[0].length;
      let depth = 0;
      let inString = false;
      for (; j < selector.length; j++) {
        const c = selector[j];
        if (inString) {
          if (c === '\\') j++;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === '[') depth++;
        else if (c === ']') depth--;
        if (!inString && depth === 0 && (c === '"' || c === ']')) {
          j++;
          break;
        }
      }
    }
    const next = selector.indexOf('>>', j);
    const end = next < 0 ? selector.length : next;
    parts.push(selector.slice(i, end).trim());
    i = next < 0 ? selector.length : next + 2;
  }
  return parts.filter(Boolean);
}

function parseAnchor(engine: string, value: string, selector: string): Step[][] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  const list = typeof parsed === 'string' ? [parsed] : parsed;
  if (!Array.isArray(list) || list.length === 0 || !list.every((x) => typeof x === 'string'))
    throw new SelectorSyntaxError(
      `${engine}= takes a quoted selector or a list of them, e.g. ${engine}="text=Email" or ${engine}=["text=Email","desc=Email"]; got ${JSON.stringify(value)} in ${JSON.stringify(selector)}`,
    );
  return list.map((x) => parseSelector(x));
}

/**
 * Parse the selector syntax of `app.locator()`: parts joined by `>>`, each `engine=value`:
 * `text=Save` (substring, case-insensitive) or `text="Save"` (exact), `desc=…`, `id=save` or
 * `id=pkg:id/save`, `class=Button`, `role=button[name="Save"][checked=true]`, `has-text=Milk`
 * (keep the matches that contain the text), `nth=0`. Relations keep the matches so far that stand
 * so to an anchor (selector-relative.ts): `below="text=Email"`, `above=`, `left-of=`, `right-of=`,
 * `child-of=`, `has=`, `has-child=`, the anchor a quoted selector or a JSON list of alternatives;
 * states keep the matches in a state: `checked=true`, `enabled=`, `focused=`, `selected=`, `scrollable=`.
 * A part without `engine=` is text.
 */
export function parseSelector(selector: string): Step[] {
  const parts = splitParts(selector);
  if (parts.length === 0)
    throw new SelectorSyntaxError(`empty selector; write e.g. text="Save" or role=button[name="Save"]`);
  return parts.map((part) => {
    const m = /^([\w-]+)=(.*)$/s.exec(part);
    const [engine, value] = m ? [m[1]!, m[2]!] : ['text', part];
    const text = (v: string): TextMatch => {
      const quoted = /^"(.*)"$/s.exec(v) ?? /^'(.*)'$/s.exec(v);
      const regex = /^\/(.*)\/([a-z]*)$/s.exec(v);
      if (regex) return { text: new RegExp(regex[1]!, regex[2]), exact: false };
      return quoted ? { text: quoted[1]!, exact: true } : { text: v, exact: false };
    };
    switch (engine) {
      case 'text':
        return { kind: 'text', ...text(value) };
      case 'desc':
        return { kind: 'desc', ...text(value) };
      case 'id':
        if (/^\/.*\/[a-z]*$/s.test(value))
          try {
            idPattern(value);
          } catch (e) {
            throw new SelectorSyntaxError(`id=${value}: ${(e as Error).message}`);
          }
        return { kind: 'id', id: value };
      case 'class':
        return { kind: 'class', className: value };
      case 'below':
      case 'above':
      case 'left-of':
      case 'right-of':
      case 'child-of':
      case 'has':
      case 'has-child':
        return { kind: 'relative', rel: engine, anchor: parseAnchor(engine, value, selector) };
      case 'enabled':
      case 'checked':
      case 'focused':
      case 'selected':
      case 'scrollable':
        if (value !== 'true' && value !== 'false')
          throw new SelectorSyntaxError(
            `${engine}= takes true or false, got ${JSON.stringify(value)} in ${JSON.stringify(selector)}`,
          );
        return { kind: 'state', state: engine, value: value === 'true' };
      case 'has-text':
        // Keeps the matches so far that contain the text (themselves or a descendant), like
        // .filter({ hasText }): `role=listitem >> has-text="Milk" >> role=checkbox`.
        return { kind: 'filter', hasText: text(value) };
      case 'nth':
        if (!/^-?\d+$/.test(value))
          throw new SelectorSyntaxError(
            `nth= takes an integer, got ${JSON.stringify(value)} in ${JSON.stringify(selector)}`,
          );
        return { kind: 'nth', index: Number(value) };
      case 'role': {
        const rm = /^([\w-]+)((?:\[[^\]]*\])*)$/.exec(value);
        if (!rm)
          throw new SelectorSyntaxError(
            `cannot parse role selector ${JSON.stringify(part)}; write role=button[name="Save"]`,
          );
        const step: Extract<Step, { kind: 'role' }> = { kind: 'role', role: rm[1]! };
        for (const attr of rm[2]!.matchAll(/\[(\w+)(?:=([^\]]*))?\]/g)) {
          const [, key, v = 'true'] = attr;
          if (key === 'name') step.name = text(v);
          else if (key === 'checked' || key === 'disabled' || key === 'selected' || key === 'focused')
            step[key] = v === 'true';
          else
            throw new SelectorSyntaxError(
              `unknown role attribute [${key}] in ${JSON.stringify(part)}; use name, checked, disabled, selected or focused`,
            );
        }
        return step;
      }
      default:
        throw new SelectorSyntaxError(
          `unknown selector engine "${engine}=" in ${JSON.stringify(selector)}; use text=, desc=, id=, class=, role=, has-text=, nth=, a relation (${RELATIONS.join('=, ')}=) or a state (${STATES.join('=, ')}=)`,
        );
    }
  });
}

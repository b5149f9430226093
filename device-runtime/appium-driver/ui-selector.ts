import type { UiNode } from '../protocol/index.js';
import type { PageTree } from './page-source.js';

/**
 * The common subset of UiAutomator's `UiSelector`, for the `-android uiautomator` strategy:
 * `new UiSelector().resourceId("pkg:id/save").instance(0)`. A small hand parser rather than a
 * Java expression parser: the grammar is one chain of calls on literals, and anything beyond the
 * subset (UiScrollable, childSelector, regex matchers) gets an error naming what is supported.
 */
export const UI_SELECTOR_METHODS = {
  text: 'string',
  textContains: 'string',
  textStartsWith: 'string',
  resourceId: 'string',
  description: 'string',
  descriptionContains: 'string',
  className: 'string',
  index: 'int',
  instance: 'int',
  checked: 'bool',
  clickable: 'bool',
  enabled: 'bool',
  selected: 'bool',
  scrollable: 'bool',
} as const;
type Method = keyof typeof UI_SELECTOR_METHODS;
export type UiSelectorCall = { method: Method; arg: string | number | boolean };

export class UiSelectorSyntaxError extends Error {}

const supported = () => Object.keys(UI_SELECTOR_METHODS).join(', ');

export function parseUiSelector(source: string): UiSelectorCall[] {
  let s = source.trim().replace(/;$/, '').trim();
  const head = /^(new\s+)?UiSelector\s*\(\s*\)/.exec(s);
  if (!head) {
    const what = /^(new\s+)?(\w+)/.exec(s)?.[2];
    throw new UiSelectorSyntaxError(
      what && what !== 'UiSelector'
        ? `${what} is not supported; only new UiSelector() chains are (methods: ${supported()})`
        : `expected new UiSelector()…, got ${JSON.stringify(source)}`,
    );
  }
  s = s.slice(head[0].length);
  const calls: UiSelectorCall[] = [];
  const call = /^\s*\.\s*(\w+)\s*\(\s*("(?:[^"\\]|\\.)*"|-?\d+|true|false)\s*\)/;
  while (s.trim().length > 0) {
    const m = call.exec(s);
    if (!m) {
      const name = /^\s*\.\s*(\w+)/.exec(s)?.[1];
      if (name && !(name in UI_SELECTOR_METHODS))
        throw new UiSelectorSyntaxError(`UiSelector.${name}() is not supported (supported: ${supported()})`);
      throw new UiSelectorSyntaxError(
        `cannot parse ${JSON.stringify(s.trim())}: expected .method("text"), .method(0) or .method(true)`,
      );
    }
    const method = m[1] as Method;
    const kind = UI_SELECTOR_METHODS[method];
    if (!kind) throw new UiSelectorSyntaxError(`UiSelector.${m[1]}() is not supported (supported: ${supported()})`);
    const raw = m[2];
    const arg = raw.startsWith('"')
      ? (JSON.parse(raw) as string)
      : raw === 'true' || raw === 'false'
        ? raw === 'true'
        : Number(raw);
    const got = typeof arg === 'string' ? 'string' : typeof arg === 'boolean' ? 'bool' : 'int';
    if (got !== kind) throw new UiSelectorSyntaxError(`UiSelector.${method}() takes a ${kind}, got ${raw}`);
    calls.push({ method, arg });
    s = s.slice(m[0].length);
  }
  return calls;
}

function matches(tree: PageTree, n: UiNode, c: UiSelectorCall): boolean {
  const a = c.arg;
  switch (c.method) {
    case 'text':
      return n.text === a;
    case 'textContains':
      return (n.text ?? '').includes(a as string);
    case 'textStartsWith':
      return (n.text ?? '').startsWith(a as string);
    case 'resourceId':
      return n.res_id === a;
    case 'description':
      return n.desc === a;
    case 'descriptionContains':
      return (n.desc ?? '').includes(a as string);
    case 'className':
      return n.class === a;
    case 'index':
      return tree.indexOf.get(n.id) === a;
    case 'checked':
      return (n.checked ?? false) === a;
    case 'clickable':
      return n.clickable === a;
    case 'enabled':
      return n.enabled === a;
    case 'selected':
      return n.selected === a;
    case 'scrollable':
      return n.scrollable === a;
    case 'instance':
      return true;
  }
}

/** The nodes a selector matches, in document order; `instance(i)` keeps the i-th. */
export function queryUiSelector(tree: PageTree, calls: UiSelectorCall[], within: UiNode[]): UiNode[] {
  const hits = within.filter((n) => calls.every((c) => matches(tree, n, c)));
  const inst = calls.find((c) => c.method === 'instance');
  if (!inst) return hits;
  const hit = hits[inst.arg as number];
  return hit ? [hit] : [];
}

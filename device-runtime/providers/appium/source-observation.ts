import { createHash } from 'node:crypto';
import { DOMParser, type Element } from '@xmldom/xmldom';
import xpath from 'xpath';
import type { Observation, UiNode } from '../../protocol/index.js';
import { parseBounds as bounds, roleOf } from '../android-roles.js';

/**
 * A page source in UiAutomator2's XML format (what Appium's Android drivers, and the NestSpace
 * driver, answer) read into the protocol's observation: nodes in document order, roles from
 * Android classes, and for each node the native locator an action will find it with.
 */
export interface NativeLocator {
  using: 'id' | 'accessibility id' | 'xpath';
  value: string;
}

export interface SourceObservation {
  obs: Observation;
  /** The native locator of a node of this snapshot (worked out when an action asks). */
  locate(nodeId: string): NativeLocator | null;
}

const q = (s: string) => (s.includes('"') ? `'${s}'` : `"${s}"`);

export function screenHash(nodes: UiNode[]): string {
  const h = createHash('sha256');
  for (const n of nodes) {
    h.update(
      `${n.res_id ?? ''}|${n.role}|${n.text ?? ''}|${n.desc ?? ''}|${n.checked ? 1 : 0}|${(n.bounds[0] + n.bounds[2]) >> 1},${(n.bounds[1] + n.bounds[3]) >> 1}\n`,
    );
  }
  return h.digest('hex').slice(0, 16);
}

/**
 * Parse a page source. `compact` keeps what the protocol's compact detail keeps (clickable,
 * editable, scrollable, or with text or a description); the numbering is over every node either
 * way, so `full` and `compact` ids agree.
 */
export function readPageSource(
  xml: string,
  meta: {
    snapshotId: string;
    spaceId: string;
    instance: string | null;
    activity: string | null;
    detail: 'compact' | 'full';
    maxNodes: number;
  },
): SourceObservation {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const root = doc.documentElement!;
  const all: Array<{ el: Element; node: UiNode }> = [];
  let pkg: string | null = null;
  const walk = (el: Element, parent: string | null, depth: number) => {
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType !== 1) continue;
      const e = c as Element;
      const a = (k: string) => e.getAttribute(k) ?? '';
      const cls = a('class') || e.tagName;
      const clickable = a('clickable') === 'true';
      const node: UiNode = {
        id: `n_${all.length + 1}`,
        role: roleOf(cls, clickable),
        text: a('text') || null,
        desc: a('content-desc') || null,
        bounds: bounds(a('bounds')),
        clickable,
        editable: /EditText|AutoCompleteTextView/.test(cls),
        scrollable: a('scrollable') === 'true',
        enabled: a('enabled') !== 'false',
        focused: a('focused') === 'true',
        selected: a('selected') === 'true',
        class: cls,
        res_id: a('resource-id') || null,
        long_clickable: a('long-clickable') === 'true',
        checkable: a('checkable') === 'true',
        checked: a('checked') === 'true',
        password: a('password') === 'true',
        hint: a('hint') || null,
        parent,
        depth,
      };
      pkg ??= a('package') || null;
      all.push({ el: e, node });
      walk(e, node.id, depth + 1);
    }
  };
  walk(root, null, 0);
  const kept = (n: UiNode) =>
    n.clickable || n.editable || n.scrollable || n.long_clickable || !!n.text || !!n.desc || n.role === 'webview';
  const keep = meta.detail === 'full' ? all : all.filter(({ node }) => kept(node));
  if (meta.detail === 'compact') {
    // A kept node's parent is its nearest kept ancestor, as in the protocol's compact detail.
    const ids = new Set(keep.map((k) => k.node.id));
    const parentOf = new Map(all.map((x) => [x.node.id, x.node.parent ?? null]));
    for (const { node } of keep) {
      let p = node.parent ?? null;
      while (p && !ids.has(p)) p = parentOf.get(p) ?? null;
      node.parent = p;
    }
  }
  const nodes = keep.slice(0, meta.maxNodes).map((k) => k.node);
  const byId = new Map(all.map((x) => [x.node.id, x]));
  const locate = (id: string) => {
    const hit = byId.get(id);
    return hit ? bestLocator(doc, hit.el, hit.node, all) : null;
  };
  const obs: Observation = {
    snapshot_id: meta.snapshotId,
    space_id: meta.spaceId,
    package: pkg,
    activity: root.getAttribute('activity') || meta.activity,
    instance: meta.instance,
    screen: {
      width: Number(root.getAttribute('width')) || 0,
      height: Number(root.getAttribute('height')) || 0,
      rotation: Number(root.getAttribute('rotation')) || 0,
    },
    nodes,
    truncated: keep.length > meta.maxNodes,
    screen_hash: screenHash(nodes),
    screenshot: null,
    timestamp_ms: Date.now(),
  };
  return { obs, locate };
}

/**
 * The best native strategy that finds exactly this node: a unique resource id, then a unique
 * content description (accessibility id), then an xpath on class and text or description, and
 * the node's position in the tree as the last resort.
 */
function bestLocator(doc: unknown, el: Element, n: UiNode, all: Array<{ node: UiNode }>): NativeLocator {
  const unique = (f: (m: UiNode) => boolean) => all.filter((x) => f(x.node)).length === 1;
  if (n.res_id && unique((m) => m.res_id === n.res_id)) return { using: 'id', value: n.res_id };
  if (n.desc && unique((m) => m.desc === n.desc)) return { using: 'accessibility id', value: n.desc };
  const tag = el.tagName;
  for (const expr of [
    n.text ? `//${tag}[@text=${q(n.text)}]` : null,
    n.desc ? `//${tag}[@content-desc=${q(n.desc)}]` : null,
  ]) {
    if (expr && !/["].*[']|['].*["]/.test(expr) && (xpath.select(expr, doc as Node) as unknown[]).length === 1)
      return { using: 'xpath', value: expr };
  }
  const steps: string[] = [];
  for (let e: Element | null = el; e && e.parentNode && e.parentNode.nodeType === 1; e = e.parentNode as Element) {
    let nth = 1;
    for (let s = e.previousSibling; s; s = s.previousSibling)
      if (s.nodeType === 1 && (s as Element).tagName === e.tagName) nth++;
    steps.unshift(`${e.tagName}[${nth}]`);
  }
  return { using: 'xpath', value: `/hierarchy/${steps.join('/')}` };
}

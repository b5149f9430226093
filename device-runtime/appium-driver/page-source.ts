import { DOMImplementation, XMLSerializer, type Document, type Element } from '@xmldom/xmldom';
import type { Observation, UiNode } from '../protocol/index.js';

/**
 * One observation as UiAutomator2 shows a screen: an XML document whose elements are named
 * after the Android class, with UiAutomator2's attribute names (`resource-id`, `content-desc`,
 * `bounds="[l,t][r,b]"`, …), so Appium Inspector loads it and xpaths written for UiAutomator2
 * run unchanged. Built with @xmldom/xmldom (the DOM `xpath` evaluates), and the map from each
 * element back to its node is kept, so a query answers nodes, not strings.
 */
export interface PageTree {
  obs: Observation;
  doc: Document;
  /** Element of each node, and the node of each element. */
  elementOf: Map<string, Element>;
  nodeOf: Map<Element, UiNode>;
  /** Absolute positional xpath of each node id (`/hierarchy/android.widget.Button[2]`). */
  pathOf: Map<string, string>;
}

const bool = (v: boolean | undefined) => (v ? 'true' : 'false');
export const boundsAttr = (b: readonly number[]) => `[${b[0]},${b[1]}][${b[2]},${b[3]}]`;
const tagOf = (n: UiNode) => (n.class && /^[A-Za-z_][\w.$]*$/.test(n.class) ? n.class.replace(/\$/g, '.') : 'android.view.View');

/** Attributes in UiAutomator2's order. */
function attributes(n: UiNode, index: number, pkg: string): Array<[string, string]> {
  return [
    ['index', String(index)],
    ['package', pkg],
    ['class', n.class ?? 'android.view.View'],
    ['text', n.text ?? ''],
    ['resource-id', n.res_id ?? ''],
    ['content-desc', n.desc ?? ''],
    ['hint', n.hint ?? ''],
    ['checkable', bool(n.checkable)],
    ['checked', bool(n.checked)],
    ['clickable', bool(n.clickable)],
    ['enabled', bool(n.enabled)],
    ['focusable', bool(n.clickable || n.editable)],
    ['focused', bool(n.focused)],
    ['long-clickable', bool(n.long_clickable)],
    ['password', bool(n.password)],
    ['scrollable', bool(n.scrollable)],
    ['selected', bool(n.selected)],
    ['bounds', boundsAttr(n.bounds)],
    ['displayed', 'true'],
  ];
}

export function buildPageTree(obs: Observation): PageTree {
  const doc = new DOMImplementation().createDocument(null, 'hierarchy', null);
  const root = doc.documentElement!;
  for (const [k, v] of [['index', '0'], ['class', 'hierarchy'], ['rotation', String(obs.screen.rotation)], ['width', String(obs.screen.width)], ['height', String(obs.screen.height)]]) {
    root.setAttribute(k, v);
  }
  // Not in UiAutomator2's format, ignored by readers of it: what the runtime knows of the screen.
  if (obs.activity) root.setAttribute('activity', obs.activity);
  if (obs.instance) root.setAttribute('instance', obs.instance);
  const pkg = obs.package ?? '';
  const elementOf = new Map<string, Element>();
  const nodeOf = new Map<Element, UiNode>();
  const pathOf = new Map<string, string>();
  const children = new Map<string | null, UiNode[]>();
  const ids = new Set(obs.nodes.map((n) => n.id));
  for (const n of obs.nodes) {
    // A node whose parent was not kept (compact observations) hangs from the root.
    const parent = n.parent && ids.has(n.parent) ? n.parent : null;
    const list = children.get(parent) ?? [];
    list.push(n);
    children.set(parent, list);
  }
  const add = (parentEl: Element, parentPath: string, parentId: string | null) => {
    const kids = children.get(parentId) ?? [];
    const seen = new Map<string, number>();
    kids.forEach((n, index) => {
      const tag = tagOf(n);
      const nth = (seen.get(tag) ?? 0) + 1;
      seen.set(tag, nth);
      const el = doc.createElement(tag);
      for (const [k, v] of attributes(n, index, pkg)) el.setAttribute(k, v);
      parentEl.appendChild(el);
      const p = `${parentPath}/${tag}[${nth}]`;
      elementOf.set(n.id, el);
      nodeOf.set(el, n);
      pathOf.set(n.id, p);
      add(el, p, n.id);
    });
  };
  add(root, '/hierarchy', null);
  return { obs, doc, elementOf, nodeOf, pathOf };
}

export function serializePageTree(tree: PageTree): string {
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n${new XMLSerializer().serializeToString(tree.doc)}`;
}

/**
 * What identifies an element across observations: its place in the tree and what it is. Text
 * is part of it only for nodes that are neither editable nor named by a resource id (typing into
 * a field keeps it the same element; a different button at the same place is another element).
 */
export function identityOf(tree: PageTree, n: UiNode): string {
  const what = n.res_id ? `id:${n.res_id}` : `text:${n.editable ? '' : (n.text ?? '')}|desc:${n.desc ?? ''}`;
  return `${tree.obs.package}@${tree.obs.instance ?? ''}${tree.pathOf.get(n.id)}|${what}`;
}

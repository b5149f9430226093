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
  /** Absolute positional xpath of each node id (`/hierarchy/android.widget.Button[2]`). */
  pathOf: Map<string, string>;
  /** Index of each node among its parent's children (UiAutomator2's `index`). */
  indexOf: Map<string, number>;
  /** Ids of each node's descendants are found through this. */
  parentOf: Map<string, string | null>;
  /** The XML document, built when first asked for (xpath, page source): finds by id do without. */
  dom(): DomView;
}

export interface DomView {
  doc: Document;
  elementOf: Map<string, Element>;
  nodeOf: Map<Element, UiNode>;
}

const bool = (v: boolean | undefined) => (v ? 'true' : 'false');
export const boundsAttr = (b: readonly number[]) => `[${b[0]},${b[1]}][${b[2]},${b[3]}]`;
const tagOf = (n: UiNode) =>
  n.class && /^[A-Za-z_][\w.$]*$/.test(n.class) ? n.class.replace(/\$/g, '.') : 'android.view.View';

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
  const pathOf = new Map<string, string>();
  const indexOf = new Map<string, number>();
  const parentOf = new Map<string, string | null>();
  const children = new Map<string | null, UiNode[]>();
  const ids = new Set(obs.nodes.map((n) => n.id));
  for (const n of obs.nodes) {
    // A node whose parent was not kept (compact observations) hangs from the root.
    const parent = n.parent && ids.has(n.parent) ? n.parent : null;
    parentOf.set(n.id, parent);
    const list = children.get(parent) ?? [];
    list.push(n);
    children.set(parent, list);
  }
  const walk = (parentPath: string, parentId: string | null) => {
    const seen = new Map<string, number>();
    (children.get(parentId) ?? []).forEach((n, index) => {
      const tag = tagOf(n);
      const nth = (seen.get(tag) ?? 0) + 1;
      seen.set(tag, nth);
      const p = `${parentPath}/${tag}[${nth}]`;
      pathOf.set(n.id, p);
      indexOf.set(n.id, index);
      walk(p, n.id);
    });
  };
  walk('/hierarchy', null);
  let dom: DomView | null = null;
  return { obs, pathOf, indexOf, parentOf, dom: () => (dom ??= buildDom(obs, children, indexOf)) };
}

function buildDom(obs: Observation, children: Map<string | null, UiNode[]>, indexOf: Map<string, number>): DomView {
  const doc = new DOMImplementation().createDocument(null, 'hierarchy', null);
  const root = doc.documentElement!;
  for (const [k, v] of [
    ['index', '0'],
    ['class', 'hierarchy'],
    ['rotation', String(obs.screen.rotation)],
    ['width', String(obs.screen.width)],
    ['height', String(obs.screen.height)],
  ]) {
    root.setAttribute(k, v);
  }
  // Not in UiAutomator2's format, ignored by readers of it: what the runtime knows of the screen.
  if (obs.activity) root.setAttribute('activity', obs.activity);
  if (obs.instance) root.setAttribute('instance', obs.instance);
  const pkg = obs.package ?? '';
  const elementOf = new Map<string, Element>();
  const nodeOf = new Map<Element, UiNode>();
  const add = (parentEl: Element, parentId: string | null) => {
    for (const n of children.get(parentId) ?? []) {
      const el = doc.createElement(tagOf(n));
      for (const [k, v] of attributes(n, indexOf.get(n.id) ?? 0, pkg)) el.setAttribute(k, v);
      parentEl.appendChild(el);
      elementOf.set(n.id, el);
      nodeOf.set(el, n);
      add(el, n.id);
    }
  };
  add(root, null);
  return { doc, elementOf, nodeOf };
}

/** One attribute of a node as the page source shows it ('' when absent). */
export function attributeOf(tree: PageTree, n: UiNode, name: string): string | null {
  const hit = attributes(n, tree.indexOf.get(n.id) ?? 0, tree.obs.package ?? '').find(([k]) => k === name);
  return hit ? hit[1] : null;
}

/** Whether `n` is under `ancestor`. */
export function isDescendant(tree: PageTree, n: UiNode, ancestor: UiNode): boolean {
  for (let p = tree.parentOf.get(n.id); p; p = tree.parentOf.get(p)) if (p === ancestor.id) return true;
  return false;
}

export function serializePageTree(tree: PageTree): string {
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n${new XMLSerializer().serializeToString(tree.dom().doc)}`;
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

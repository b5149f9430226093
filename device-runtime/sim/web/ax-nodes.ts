import type { CDPSession } from 'playwright-core';

/**
 * The page's accessibility tree as Android's WebView hands it to an accessibility service: one
 * node per control, heading, image and run of text, each with its box. It is Chromium's own tree
 * (`Accessibility.getFullAXTree`), so roles and names are the engine's, hidden content is absent
 * and labels are computed as a browser computes them; this module only picks the nodes a
 * service sees and asks where each is (`DOM.getContentQuads`).
 */

/** One node of the page, in CSS px of the page's viewport. */
export interface WebNode {
  /** The DOM node (CDP backend node id): names it across refreshes while the document lives. */
  backendId: number;
  role: WebRole;
  /** The accessible name (a button's label, a heading's text, a text run). */
  name: string;
  /** A text field's value. */
  value: string | null;
  focused: boolean;
  disabled: boolean;
  checked: boolean | null;
  /** [left, top, right, bottom] in CSS px, relative to the viewport. */
  rect: [number, number, number, number];
}

export type WebRole = 'button' | 'link' | 'textbox' | 'checkbox' | 'switch' | 'radio' | 'heading' | 'image' | 'text';

/** Chromium roles kept as one node each, and what they are called here; their descendants fold into them. */
const LEAF_ROLES: Record<string, WebRole> = {
  button: 'button',
  link: 'link',
  textbox: 'textbox',
  searchbox: 'textbox',
  combobox: 'textbox',
  checkbox: 'checkbox',
  switch: 'switch',
  radio: 'radio',
  menuitem: 'button',
  tab: 'button',
  heading: 'heading',
  image: 'image',
  img: 'image',
  StaticText: 'text',
};

interface AXValue {
  value?: unknown;
}
interface AXNode {
  nodeId: string;
  ignored: boolean;
  role?: AXValue;
  name?: AXValue;
  value?: AXValue;
  childIds?: string[];
  backendDOMNodeId?: number;
  properties?: Array<{ name: string; value: AXValue }>;
}

const str = (v: AXValue | undefined) =>
  typeof v?.value === 'string' ? v.value : v?.value == null ? '' : String(v.value);

/** The nodes of the page's main frame a service sees, in document order. Cost: 1 + one call per node kept (pipelined). */
export async function readWebNodes(cdp: CDPSession): Promise<WebNode[]> {
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] };
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const kept: Array<{ ax: AXNode; role: WebRole }> = [];
  const walk = (n: AXNode | undefined) => {
    if (!n) return;
    const role = LEAF_ROLES[str(n.role)];
    if (!n.ignored && role && n.backendDOMNodeId !== undefined) {
      if (role !== 'text' || str(n.name).trim()) kept.push({ ax: n, role });
      return;
    }
    for (const c of n.childIds ?? []) walk(byId.get(c));
  };
  walk(nodes[0]);
  const placed = await Promise.all(
    kept.map(async ({ ax, role }) => {
      const rect = await contentRect(cdp, ax.backendDOMNodeId!);
      return rect ? toWebNode(ax, role, rect) : null;
    }),
  );
  return placed.filter((n): n is WebNode => n !== null);
}

function toWebNode(ax: AXNode, role: WebRole, rect: WebNode['rect']): WebNode {
  const prop = (name: string) => ax.properties?.find((p) => p.name === name)?.value.value;
  const checked = prop('checked');
  return {
    backendId: ax.backendDOMNodeId!,
    role,
    name: str(ax.name).trim(),
    value: role === 'textbox' ? str(ax.value) : null,
    focused: prop('focused') === true,
    disabled: prop('disabled') === true,
    checked: checked === undefined ? null : checked === 'true' || checked === true,
    rect,
  };
}

/** The box around a node's quads, or null when it has none (not rendered). */
async function contentRect(cdp: CDPSession, backendNodeId: number): Promise<WebNode['rect'] | null> {
  try {
    const { quads } = (await cdp.send('DOM.getContentQuads', { backendNodeId })) as { quads: number[][] };
    if (!quads.length) return null;
    const xs = quads.flatMap((q) => [q[0]!, q[2]!, q[4]!, q[6]!]);
    const ys = quads.flatMap((q) => [q[1]!, q[3]!, q[5]!, q[7]!]);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  } catch {
    // The node went away between the tree and the question (the page changed): skip it.
    return null;
  }
}

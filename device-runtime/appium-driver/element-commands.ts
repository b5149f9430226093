import { errors } from 'appium/driver.js';
import { DeviceError } from '../client/index.js';
import type { UiNode } from '../protocol/index.js';
import type { ElementStore } from './elements.js';
import { attributeOf, type PageTree } from './page-source.js';
import type { SpaceSession } from './space-session.js';
import { toW3cError } from './w3c-errors.js';

export interface SessionContext {
  ss: SpaceSession;
  elements: ElementStore;
}

/**
 * Run an action on an element's node. On a runtime that checks snapshots, the node of the
 * latest observation is used with its snapshot id (one call); if the screen changed since, the
 * runtime says SNAPSHOT_STALE and the element is looked up on a fresh observation, once.
 */
export async function act<T>(
  ctx: SessionContext,
  command: string,
  id: string,
  fn: (tree: PageTree, node: UiNode) => Promise<T>,
): Promise<T> {
  try {
    const checked = await ctx.ss.client.hasExtension('snapshot_check');
    const first = await ctx.elements.resolve(ctx.ss, command, id, !checked);
    try {
      return await fn(first.tree, first.node);
    } catch (e) {
      if (!(e instanceof DeviceError) || !['SNAPSHOT_STALE', 'NODE_NOT_FOUND'].includes(e.code)) throw e;
      const again = await ctx.elements.resolve(ctx.ss, command, id, true);
      return await fn(again.tree, again.node);
    }
  } catch (e) {
    throw toW3cError(command, e);
  }
}

async function read<T>(
  ctx: SessionContext,
  command: string,
  id: string,
  fn: (tree: PageTree, node: UiNode) => T,
): Promise<T> {
  try {
    const { tree, node } = await ctx.elements.resolve(ctx.ss, command, id, true);
    return fn(tree, node);
  } catch (e) {
    throw toW3cError(command, e);
  }
}

const target = (tree: PageTree, node: UiNode) => ({ node_id: node.id, snapshot_id: tree.obs.snapshot_id });

export async function click(ctx: SessionContext, id: string): Promise<void> {
  await act(ctx, 'click', id, (tree, node) => ctx.ss.call('ui_tap', target(tree, node)));
}

export async function clear(ctx: SessionContext, id: string): Promise<void> {
  await act(ctx, 'clear', id, (tree, node) => ctx.ss.call('ui_set_text', { ...target(tree, node), text: '' }));
}

/**
 * Send keys: like UiAutomator2, the field's text is replaced by the keys. A trailing Enter or
 * Return key (WebDriver's \uE007, \uE006, or "\n") submits.
 */
export async function setValue(ctx: SessionContext, value: string | string[], id: string): Promise<void> {
  let text = Array.isArray(value) ? value.join('') : String(value);
  const submit = /[\uE007\uE006\n]$/.test(text);
  if (submit) text = text.slice(0, -1);
  if (/[\uE000-\uF8FF]/.test(text)) {
    throw new errors.InvalidArgumentError(
      `setValue: only a trailing Enter key is supported among WebDriver's special keys; got ${JSON.stringify(value)}`,
    );
  }
  await act(ctx, 'setValue', id, async (tree, node) => {
    if (!node.editable)
      throw new errors.InvalidElementStateError(
        `setValue: ${node.class ?? node.role} ${node.res_id ?? ''} is not editable`,
      );
    return ctx.ss.call('ui_set_text', { ...target(tree, node), text, submit });
  });
}

export const getText = (ctx: SessionContext, id: string) => read(ctx, 'getText', id, (_t, n) => n.text ?? '');

/** UiAutomator2's attribute names, with its aliases. */
const ATTRIBUTE_ALIASES: Record<string, string> = {
  name: 'content-desc',
  contentDescription: 'content-desc',
  'content-desc': 'content-desc',
  resourceId: 'resource-id',
  'resource-id': 'resource-id',
  className: 'class',
  class: 'class',
  text: 'text',
  enabled: 'enabled',
  checked: 'checked',
  checkable: 'checkable',
  clickable: 'clickable',
  focusable: 'focusable',
  focused: 'focused',
  'long-clickable': 'long-clickable',
  longClickable: 'long-clickable',
  password: 'password',
  scrollable: 'scrollable',
  selected: 'selected',
  displayed: 'displayed',
  bounds: 'bounds',
  package: 'package',
  index: 'index',
  hint: 'hint',
};

export function getAttribute(ctx: SessionContext, name: string, id: string): Promise<string | null> {
  const attr = ATTRIBUTE_ALIASES[name];
  if (!attr) {
    return Promise.reject(
      new errors.InvalidArgumentError(
        `getAttribute: '${name}' is not an attribute of an Android element; known: ${Object.keys(ATTRIBUTE_ALIASES).join(', ')}`,
      ),
    );
  }
  return read(ctx, 'getAttribute', id, (tree, node) => {
    const v = attributeOf(tree, node, attr);
    // UiAutomator2 answers null for an empty description or id.
    return v === '' && attr !== 'text' ? null : v;
  });
}

export const elementDisplayed = (ctx: SessionContext, id: string) =>
  read(ctx, 'isDisplayed', id, (_t, n) => n.bounds[2] > n.bounds[0] && n.bounds[3] > n.bounds[1]);
export const elementEnabled = (ctx: SessionContext, id: string) => read(ctx, 'isEnabled', id, (_t, n) => n.enabled);
export const elementSelected = (ctx: SessionContext, id: string) =>
  read(ctx, 'isSelected', id, (_t, n) => n.selected || (n.checked ?? false));
export const getName = (ctx: SessionContext, id: string) =>
  read(ctx, 'getTagName', id, (_t, n) => n.class ?? 'android.view.View');
export const getElementRect = (ctx: SessionContext, id: string) =>
  read(ctx, 'getElementRect', id, (_t, n) => ({
    x: n.bounds[0],
    y: n.bounds[1],
    width: n.bounds[2] - n.bounds[0],
    height: n.bounds[3] - n.bounds[1],
  }));

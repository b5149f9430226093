import { errors } from 'appium/driver.js';
import xpath from 'xpath';
import type { Element, Node as XmlNode } from '@xmldom/xmldom';
import type { UiNode } from '../protocol/index.js';
import { isDescendant, type PageTree } from './page-source.js';
import { parseUiSelector, queryUiSelector, UiSelectorSyntaxError } from './ui-selector.js';

export const LOCATOR_STRATEGIES = ['id', 'accessibility id', 'xpath', '-android uiautomator'] as const;

function descendantsOf(tree: PageTree, root: UiNode | null): UiNode[] {
  return root ? tree.obs.nodes.filter((n) => isDescendant(tree, n, root)) : tree.obs.nodes;
}

/** `save` means `<package>:id/save`, as UiAutomator2 reads a bare id. */
function idMatches(n: UiNode, id: string, pkg: string | null): boolean {
  if (!n.res_id) return false;
  if (n.res_id === id) return true;
  return !id.includes(':id/') && (n.res_id === `${pkg}:id/${id}` || n.res_id.endsWith(`:id/${id}`));
}

function evaluateXpath(tree: PageTree, expr: string, root: UiNode | null): UiNode[] {
  let result: unknown;
  try {
    const dom = tree.dom();
    const context = root ? (dom.elementOf.get(root.id) as unknown as Node) : (dom.doc as unknown as Node);
    result = xpath.select(expr, context);
  } catch (e) {
    throw new errors.InvalidSelectorError(
      `xpath ${JSON.stringify(expr)} is not a valid XPath 1.0 expression: ${(e as Error).message}`,
    );
  }
  if (!Array.isArray(result)) {
    throw new errors.InvalidSelectorError(
      `xpath ${JSON.stringify(expr)} evaluates to a ${typeof result}, not to elements`,
    );
  }
  const out: UiNode[] = [];
  for (const r of result as unknown as XmlNode[]) {
    const node = tree.dom().nodeOf.get(r as Element);
    if (node) out.push(node);
  }
  return out;
}

/** The nodes a WebDriver locator matches on this tree, in document order (under `root` if given). */
export function findNodes(tree: PageTree, strategy: string, selector: string, root: UiNode | null = null): UiNode[] {
  switch (strategy) {
    case 'id':
      return descendantsOf(tree, root).filter((n) => idMatches(n, selector, tree.obs.package));
    case 'accessibility id':
      return descendantsOf(tree, root).filter((n) => n.desc === selector);
    case 'xpath':
      return evaluateXpath(tree, selector, root);
    case '-android uiautomator': {
      try {
        return queryUiSelector(tree, parseUiSelector(selector), descendantsOf(tree, root));
      } catch (e) {
        if (e instanceof UiSelectorSyntaxError)
          throw new errors.InvalidSelectorError(`-android uiautomator: ${e.message}`);
        throw e;
      }
    }
    default:
      throw new errors.InvalidSelectorError(
        `locator strategy '${strategy}' is not supported; use one of ${LOCATOR_STRATEGIES.join(', ')}`,
      );
  }
}

/** What was searched, for a "no such element" message. */
export function searched(tree: PageTree, strategy: string, selector: string): string {
  const where = `${tree.obs.package ?? 'no app'}${tree.obs.instance ? `@${tree.obs.instance}` : ''}${tree.obs.activity ? ` ${tree.obs.activity}` : ''}`;
  const seen = tree.obs.nodes
    .filter((n) => n.text || n.desc || n.res_id)
    .slice(0, 12)
    .map((n) => n.text ?? n.desc ?? n.res_id)
    .join(', ');
  return `no element matches ${strategy} ${JSON.stringify(selector)} among ${tree.obs.nodes.length} nodes of ${where} (snapshot ${tree.obs.snapshot_id}; on screen: ${seen || 'nothing with text'})`;
}

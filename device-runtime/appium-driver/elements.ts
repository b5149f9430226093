import { randomUUID } from 'node:crypto';
import { errors } from 'appium/driver.js';
import type { UiNode } from '../protocol/index.js';
import { identityOf, type PageTree } from './page-source.js';
import type { SpaceSession } from './space-session.js';
import { staleElement } from './w3c-errors.js';

interface ElementRef {
  identity: string;
  /** For messages: what the element was when found. */
  label: string;
}

export const describeNode = (n: UiNode) =>
  `${n.class ?? n.role}${n.res_id ? ` ${n.res_id}` : ''}${n.text ? ` "${n.text}"` : ''}${n.desc ? ` desc="${n.desc}"` : ''}`;

/**
 * WebDriver element ids of one session. An element is remembered by its identity (place in the
 * tree, resource id, and text for plain nodes — see identityOf), not by a node id, which only
 * holds within one snapshot; looking it up again on a newer screen either finds it or answers
 * `stale element reference`.
 */
export class ElementStore {
  private refs = new Map<string, ElementRef>();

  add(tree: PageTree, node: UiNode): string {
    const identity = identityOf(tree, node);
    for (const [id, ref] of this.refs) if (ref.identity === identity) return id;
    const id = randomUUID();
    this.refs.set(id, { identity, label: describeNode(node) });
    return id;
  }

  private ref(command: string, id: string): ElementRef {
    const ref = this.refs.get(id);
    if (!ref) throw new errors.NoSuchElementError(`${command}: no element with id ${id} was found in this session`);
    return ref;
  }

  private lookup(tree: PageTree, ref: ElementRef): UiNode | undefined {
    return tree.obs.nodes.find((n) => identityOf(tree, n) === ref.identity);
  }

  /**
   * The element's node. `fresh`: on a new observation (reads must see the screen as it is now);
   * otherwise on the session's latest tree when there is one (actions pass its snapshot id, and
   * the runtime refuses when the screen has changed since — see {@link act}).
   */
  async resolve(
    ss: SpaceSession,
    command: string,
    id: string,
    fresh: boolean,
  ): Promise<{ tree: PageTree; node: UiNode }> {
    const ref = this.ref(command, id);
    if (!fresh && ss.tree) {
      const node = this.lookup(ss.tree, ref);
      if (node) return { tree: ss.tree, node };
    }
    const tree = await ss.observe();
    const node = this.lookup(tree, ref);
    if (!node) throw staleElement(command, id, ref.label);
    return { tree, node };
  }

  clear(): void {
    this.refs.clear();
  }
}

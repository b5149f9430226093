import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import type { App } from '../core/app.js';
import type { Locator } from '../core/locator.js';
import { poll } from '../core/poll.js';
import { parseSelector, resolveSteps } from '../core/selector.js';
import { matchSelector, readPoint, type MaestroSelector } from './selector.js';

/**
 * Finding what a Maestro selector names on the app's screen, and acting on it through the
 * public locator API, so an action gets what a spec's action gets: actionability waits, the
 * action's verification, the trajectory record with its screenshots. The node is found with
 * Maestro's matcher; the locator that acts on it is the narrowest public selector for that node
 * (its resource id, else its text, its description, its role) with `nth()` when several share it.
 */

export interface Found {
  node: UiNode;
  obs: Observation;
}

/** The first node matching, waiting up to `timeout` ms; null when none appeared. */
export async function find(app: App, sel: MaestroSelector, timeout: number): Promise<Found | null> {
  let hit: Found | null = null;
  await poll(timeout, async () => {
    const obs = await app.observe();
    if (obs.tree_missing) return { done: false };
    const node = pick(obs, sel);
    if (!node) return { done: false };
    hit = { node, obs };
    return { done: true, value: true };
  });
  return hit;
}

/** Whether a matching node is on screen now (one observation). */
export async function present(app: App, sel: MaestroSelector): Promise<Found | null> {
  const obs = await app.observe();
  const node = obs.tree_missing ? null : pick(obs, sel);
  return node ? { node, obs } : null;
}

/** Until no node matches, up to `timeout` ms: whether it went, and the last observation. */
export async function gone(
  app: App,
  sel: MaestroSelector,
  timeout: number,
): Promise<{ gone: boolean; obs: Observation | null }> {
  let last: Observation | null = null;
  const r = await poll(timeout, async () => {
    const obs = await app.observe();
    if (obs.tree_missing) return { done: false };
    last = obs;
    return pick(obs, sel) ? { done: false } : { done: true, value: true };
  });
  return { gone: 'value' in r, obs: last };
}

function pick(obs: Observation, sel: MaestroSelector): UiNode | null {
  if (sel.point !== undefined && sel.text === undefined && sel.id === undefined && !hasRelative(sel))
    return nodeAt(obs, sel.point);
  return matchSelector(obs.nodes, sel)[0] ?? null;
}

function hasRelative(sel: MaestroSelector): boolean {
  return !!(
    sel.below ||
    sel.above ||
    sel.leftOf ||
    sel.rightOf ||
    sel.childOf ||
    sel.containsChild ||
    sel.containsDescendants
  );
}

/** The deepest node under a screen point (`50%,50%`), preferring one that takes taps. */
export function nodeAt(obs: Observation, point: string): UiNode | null {
  const xy = readPoint(point, [0, 0, obs.screen.width, obs.screen.height]);
  if (!xy) return null;
  const [x, y] = xy;
  const under = obs.nodes.filter((n) => n.bounds[0] <= x && x < n.bounds[2] && n.bounds[1] <= y && y < n.bounds[3]);
  const area = (n: UiNode) => (n.bounds[2] - n.bounds[0]) * (n.bounds[3] - n.bounds[1]);
  const sorted = under.sort((a, b) => Number(b.clickable) - Number(a.clickable) || area(a) - area(b));
  return sorted[0] ?? null;
}

/** The biggest scrollable node (what a screen-wide swipe moves), else the biggest node. */
export function screenNode(obs: Observation): UiNode | null {
  const area = (n: UiNode) => (n.bounds[2] - n.bounds[0]) * (n.bounds[3] - n.bounds[1]);
  const by = (list: UiNode[]) => list.sort((a, b) => area(b) - area(a))[0] ?? null;
  return by(obs.nodes.filter((n) => n.scrollable)) ?? by([...obs.nodes]);
}

const quote = (s: string) => JSON.stringify(s);

/** A public locator that resolves to this node of this observation. */
export function locatorFor(app: App, found: Found): Locator {
  const { node, obs } = found;
  const candidates: string[] = [];
  if (node.res_id) candidates.push(`id=${node.res_id}`);
  if (node.text) candidates.push(`text=${quote(node.text)}`);
  if (node.desc) candidates.push(`desc=${quote(node.desc)}`);
  candidates.push(`role=${node.role}`);
  for (const c of candidates) {
    let matches: UiNode[];
    try {
      matches = resolveSteps(obs.nodes, parseSelector(c, 'maestro'));
    } catch {
      continue;
    }
    const at = matches.findIndex((n) => n.id === node.id);
    if (at < 0) continue;
    const loc = app.locator(c);
    return matches.length === 1 ? loc : loc.nth(at);
  }
  return app.locator(`role=${node.role}`);
}

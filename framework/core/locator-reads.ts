import type { UiNode } from '../../device-runtime/protocol/index.js';
import { StrictModeViolationError } from './errors.js';
import { fullText } from './selector.js';
import { findNode } from './action.js';
import type { LocatorRef } from './actuator.js';
import type { ApiCall } from './api-call.js';
import { resolveNow } from './wait-here.js';

/**
 * The bodies of Locator's reads (locator.ts keeps the public methods, their docs and the one
 * `wrap` each starts with): one observation each, no waiting, except `textContent`.
 */

/** The one match now, or null; several are a strict-mode violation. */
async function oneNow(call: ApiCall, locator: LocatorRef): Promise<UiNode | null> {
  const { nodes } = await resolveNow(call, locator);
  if (nodes.length > 1) throw new StrictModeViolationError(call, locator.toString(), nodes);
  return nodes[0] ?? null;
}

export async function isVisible(call: ApiCall, locator: LocatorRef): Promise<boolean> {
  return (await oneNow(call, locator)) !== null;
}

export async function textContent(call: ApiCall, locator: LocatorRef): Promise<string> {
  const { node, obs } = await findNode(call, locator, { enabled: false });
  return fullText(obs.nodes, node);
}

export async function allTextContents(call: ApiCall, locator: LocatorRef): Promise<string[]> {
  const { nodes, obs } = await resolveNow(call, locator);
  return nodes.map((n) => fullText(obs.nodes, n));
}

export async function boundingBox(
  call: ApiCall,
  locator: LocatorRef,
): Promise<{ x: number; y: number; width: number; height: number } | null> {
  const b = (await oneNow(call, locator))?.bounds;
  return b ? { x: b[0], y: b[1], width: b[2] - b[0], height: b[3] - b[1] } : null;
}

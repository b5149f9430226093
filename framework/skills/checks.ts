import { describeCheck, type Check } from '../../device-runtime/protocol/skill/index.js';
import type { Observation } from '../../device-runtime/protocol/index.js';
import type { AppDriver } from '../driver.js';
import { describeNode } from '../errors.js';
import { poll } from '../poll.js';
import { matchText, parseSelector, resolveSteps } from '../selector.js';

export type CheckResult = { pass: boolean; received: string };

const count = (obs: Observation, selector: string, api: string) => resolveSteps(obs.nodes, parseSelector(selector, api));

/**
 * A check against one observation. `visible` holds when any alternative has a match (a check
 * proves presence; strictness is for the node an action touches). `text` wants exactly one match.
 */
export function evaluate(check: Check, obs: Observation, api: string): CheckResult {
  if (obs.tree_missing) return { pass: false, received: 'the accessibility tree was missing (a transition)' };
  switch (check.kind) {
    case 'visible': {
      const alternatives = typeof check.visible === 'string' ? [check.visible] : check.visible;
      for (const sel of alternatives) {
        const nodes = count(obs, sel, api);
        if (nodes.length > 0) return { pass: true, received: `visible: ${describeNode(nodes[0]!)}${nodes.length > 1 ? ` and ${nodes.length - 1} more` : ''}` };
      }
      return { pass: false, received: 'not on screen' };
    }
    case 'hidden': {
      const nodes = count(obs, check.hidden, api);
      return nodes.length === 0 ? { pass: true, received: 'not on screen' } : { pass: false, received: `visible: ${nodes.map(describeNode).join('; ')}` };
    }
    case 'text': {
      const nodes = count(obs, check.text.target, api);
      if (nodes.length !== 1) return { pass: false, received: nodes.length === 0 ? 'no matching node' : `${nodes.length} nodes match (a text check needs one)` };
      const shown = nodes[0]!.text ?? nodes[0]!.desc ?? '';
      return { pass: matchText(shown, { text: check.text.value, exact: check.text.exact }), received: JSON.stringify(shown) };
    }
    case 'count': {
      const n = count(obs, check.count.target, api).length;
      return { pass: n === check.count.value, received: String(n) };
    }
    case 'activity':
      return { pass: obs.activity === check.activity, received: obs.activity ?? 'none' };
    default: {
      const never: never = check;
      throw new Error(`unknown check ${JSON.stringify(never)}`);
    }
  }
}

/** Retry a check against fresh observations until it holds or `timeout` ms pass. */
export async function waitCheck(driver: AppDriver, check: Check, timeout: number, api: string): Promise<{ pass: boolean; received: string; obs: Observation | null }> {
  let last: { result: CheckResult; obs: Observation } | null = null;
  const r = await poll(timeout, async () => {
    const obs = await driver.observe(api);
    const result = evaluate(check, obs, api);
    last = { result, obs };
    return result.pass ? { done: true, value: true } : { done: false };
  });
  const l = last as { result: CheckResult; obs: Observation } | null;
  return { pass: 'value' in r, received: l?.result.received ?? '(nothing observed)', obs: l?.obs ?? null };
}

export { describeCheck };

import type { Observation, UiNode } from '../observation.js';
import { matchText, ownText, parseSelector, resolveSteps } from '../selector.js';
import type { Check } from './schema.js';
import { truthy } from './script.js';

export type CheckResult = { pass: boolean; received: string };

/** A node in one line: `button "Save" id=save`. Callers with a richer description pass their own. */
export function nodeLine(n: UiNode): string {
  return [
    n.role,
    n.text ? JSON.stringify(n.text) : '',
    n.desc ? `desc=${JSON.stringify(n.desc)}` : '',
    n.res_id ? `id=${n.res_id.replace(/^.*:id\//, '')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

const matches = (obs: Observation, selector: string) => resolveSteps(obs.nodes, parseSelector(selector));

/**
 * A check against one observation, the same on both sides of the protocol (the framework's
 * replay and a device's `skill_run`). `visible` holds when any alternative has a match (a check
 * proves presence; strictness is for the node an action touches); `text` wants exactly one match.
 */
export function evaluateCheck(check: Check, obs: Observation, describe: (n: UiNode) => string = nodeLine): CheckResult {
  // A condition computed by JavaScript (its `${…}` were evaluated with the step): no screen needed.
  if (check.kind === 'true') return { pass: truthy(String(check.true)), received: JSON.stringify(String(check.true)) };
  if (obs.tree_missing) return { pass: false, received: 'the accessibility tree was missing (a transition)' };
  switch (check.kind) {
    case 'visible': {
      const alternatives = typeof check.visible === 'string' ? [check.visible] : check.visible;
      for (const sel of alternatives) {
        const nodes = matches(obs, sel);
        if (nodes.length > 0)
          return {
            pass: true,
            received: `visible: ${describe(nodes[0]!)}${nodes.length > 1 ? ` and ${nodes.length - 1} more` : ''}`,
          };
      }
      return { pass: false, received: 'not on screen' };
    }
    case 'hidden': {
      const alternatives = typeof check.hidden === 'string' ? [check.hidden] : check.hidden;
      const nodes = alternatives.flatMap((sel) => matches(obs, sel));
      return nodes.length === 0
        ? { pass: true, received: 'not on screen' }
        : { pass: false, received: `visible: ${nodes.map(describe).join('; ')}` };
    }
    case 'text': {
      const nodes = matches(obs, check.text.target);
      if (nodes.length !== 1)
        return {
          pass: false,
          received: nodes.length === 0 ? 'no matching node' : `${nodes.length} nodes match (a text check needs one)`,
        };
      const shown = ownText(nodes[0]!);
      return {
        pass: matchText(shown, { text: check.text.value, exact: check.text.exact }),
        received: JSON.stringify(shown),
      };
    }
    case 'count': {
      const n = matches(obs, check.count.target).length;
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

import { fingerprintOf, heal, type HealResult } from '../../../framework/heal/index.js';
import { parseSelector, resolveSteps } from '../../../framework/core/selector.js';
import type { DriftCase } from './dsl.js';

export type Verdict = 'right' | 'wrong' | 'declined';
export interface Outcome {
  case: DriftCase;
  verdict: Verdict;
  /** Healed when the right answer was to decline, or healed to another node. */
  why: string;
  result: HealResult;
}

/**
 * Run one case the way the framework would: fingerprint the node the locator resolved to
 * before, then heal the locator on the screen after. `right`: healed to the node a person
 * names, or declined when there is none; `declined`: declined although there was one (a red
 * test, not a wrong one); `wrong`: healed to another node, or healed when it should have said no.
 */
export function evaluate(c: DriftCase): Outcome {
  const steps = typeof c.selector === 'string' ? parseSelector(c.selector) : c.selector;
  const target = c.before.keys.target;
  if (!target) throw new Error(`${c.name}: before has no node keyed target`);
  const was = resolveSteps(c.before.observation.nodes, steps);
  if (was.length !== 1 || was[0]!.id !== target)
    throw new Error(
      `${c.name}: the locator must name the target alone before the drift (it named ${was.map((n) => n.id).join(', ') || 'nothing'})`,
    );
  const now = resolveSteps(c.after.observation.nodes, steps);
  if (now.length === 1)
    throw new Error(`${c.name}: the locator still names one node after the drift; not a broken locator`);
  const fingerprint = fingerprintOf(c.before.observation, target);
  const result = heal({ selector: steps, fingerprint, observation: c.after.observation });
  const expected = c.after.keys.target ?? null;
  if (result.status === 'healed') {
    const named = resolveSteps(c.after.observation.nodes, parseSelector(result.selector));
    if (named.length !== 1 || named[0]!.id !== result.node_id)
      return {
        case: c,
        verdict: 'wrong',
        why: `healed selector ${result.selector} does not name ${result.node_id} alone`,
        result,
      };
    if (result.node_id === expected) return { case: c, verdict: 'right', why: `healed to ${result.selector}`, result };
    return {
      case: c,
      verdict: 'wrong',
      why: expected
        ? `healed to ${result.node_id} (${result.selector}), expected ${expected}`
        : `healed to ${result.selector}; the right answer was no`,
      result,
    };
  }
  return expected
    ? { case: c, verdict: 'declined', why: `${result.code}: ${result.reason}`, result }
    : { case: c, verdict: 'right', why: `declined: ${result.code}`, result };
}

export function tally(outcomes: Outcome[]): {
  right: number;
  wrong: number;
  declined: number;
  correctDeclines: number;
  total: number;
} {
  return {
    right: outcomes.filter((o) => o.verdict === 'right').length,
    wrong: outcomes.filter((o) => o.verdict === 'wrong').length,
    declined: outcomes.filter((o) => o.verdict === 'declined').length,
    correctDeclines: outcomes.filter((o) => o.verdict === 'right' && o.result.status === 'unhealed').length,
    total: outcomes.length,
  };
}

import { fingerprintOf, heal } from '../framework/heal/index.js';
import { parseSelector, resolveSteps } from '../framework/selector.js';
import { evaluate, tally } from '../tests/heal/corpus/evaluate.js';
import { HOLDOUT } from '../tests/heal/corpus/holdout.js';
import { TUNE } from '../tests/heal/corpus/tune.js';
import { median, round, sample, type BenchSection } from './section.js';

/**
 * Healing's decisions on the drift corpus (tests/heal/corpus): right (healed to the node a
 * person names, or declined when there is none), declined (a red test where a heal was
 * possible) and wrong (healed to another node, or when the answer was no) — per split; and what
 * one heal costs next to resolving a locator on the same screen.
 */
export async function benchHealCorpus(): Promise<BenchSection> {
  const rows: BenchSection['rows'] = [];
  for (const [split, cases] of [['tune', TUNE], ['holdout', HOLDOUT], ['all', [...TUNE, ...HOLDOUT]]] as const) {
    const t = tally(cases.map(evaluate));
    rows.push({ split, cases: t.total, right: t.right, 'of which declined rightly': t.correctDeclines, declined: t.declined, wrong: t.wrong, 'correct %': round((100 * t.right) / t.total, 1) });
  }
  const c = TUNE[0]!;
  const steps = typeof c.selector === 'string' ? parseSelector(c.selector) : c.selector;
  const fp = fingerprintOf(c.before.observation, c.before.keys.target!);
  const resolveMs = median(await sample(2000, () => resolveSteps(c.after.observation.nodes, steps)));
  const fpMs = median(await sample(2000, () => fingerprintOf(c.before.observation, c.before.keys.target!)));
  const healMs = median(await sample(500, () => heal({ selector: steps, fingerprint: fp, observation: c.after.observation })));
  return {
    title: 'heal: drift corpus decisions (right / declined / wrong) and cost',
    rows,
    notes: [
      `one screen of ${c.after.observation.nodes.length} nodes: resolve a locator ${round(resolveMs, 4)} ms, fingerprint a node ${round(fpMs, 4)} ms, heal ${round(healMs, 4)} ms (${round(healMs / resolveMs, 1)}× a resolve; no device call)`,
      'holdout: written after the weights and thresholds were frozen, never tuned on',
    ],
  };
}

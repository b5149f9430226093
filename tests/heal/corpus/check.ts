/**
 * Checks a corpus split's cases are well formed without healing them (so a split can be written
 * blind to the scorer): the locator names the target alone before the drift and does not name
 * exactly one node after it, and the keys exist. `npx tsx tests/heal/corpus/check.ts holdout3`
 */
import { parseSelector, resolveSteps } from '../../../framework/core/selector.js';
import type { DriftCase } from './dsl.js';

const split = process.argv[2] ?? 'holdout3';
const mod = (await import(`./${split}.js`)) as Record<string, DriftCase[]>;
const cases = Object.values(mod).find(Array.isArray) ?? [];
let bad = 0;
for (const c of cases) {
  const steps = typeof c.selector === 'string' ? parseSelector(c.selector) : c.selector;
  const target = c.before.keys.target;
  const was = resolveSteps(c.before.observation.nodes, steps);
  const now = resolveSteps(c.after.observation.nodes, steps);
  const problems = [
    !target && 'before has no node keyed target',
    target &&
      (was.length !== 1 || was[0]!.id !== target) &&
      `before: the locator names ${was.map((n) => n.id).join(', ') || 'nothing'}, not the target alone`,
    now.length === 1 && 'after: the locator still names exactly one node (not broken)',
  ].filter(Boolean);
  if (problems.length) {
    bad++;
    console.log(`✗ ${c.name}: ${problems.join('; ')}`);
  }
}
const by = cases.reduce<Record<string, number>>((m, c) => ((m[c.category] = (m[c.category] ?? 0) + 1), m), {});
console.log(
  `${cases.length} cases, ${bad} malformed; categories ${JSON.stringify(by)}; expecting "no": ${cases.filter((c) => !c.after.keys.target).length}`,
);
process.exit(bad ? 1 : 0);

/**
 * Prints each corpus split's right / wrong / declined, and with `-v` each case that is not
 * right, or with `-a` every case of the named splits. `npx tsx tests/heal/corpus/measure.ts [split…] [-v|-a]`
 */
import { evaluate, tally } from './evaluate.js';
import type { DriftCase } from './dsl.js';

const SPLITS = ['tune', 'holdout', 'holdout2', 'holdout3', 'holdout4', 'holdout5', 'siblings', 'siblings2'];
const args = process.argv.slice(2);
const verbose = args.includes('-v');
const all = args.includes('-a');
const names = args.filter((a) => !a.startsWith('-'));
for (const split of names.length ? names : SPLITS) {
  const mod = (await import(`./${split}.js`)) as Record<string, DriftCase[]>;
  const cases = Object.values(mod).find(Array.isArray) ?? [];
  const outcomes = cases.map(evaluate);
  const t = tally(outcomes);
  console.log(
    `${split.padEnd(9)} ${String(t.total).padStart(3)} cases: ${t.right} right (${t.correctDeclines} of them declines), ${t.wrong} wrong, ${t.declined} declined`,
  );
  for (const o of outcomes)
    if (all || (verbose && o.verdict !== 'right'))
      console.log(`  ${o.verdict.padEnd(8)} ${o.case.name}\n           ${o.why}`);
}

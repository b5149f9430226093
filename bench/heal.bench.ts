import { fingerprintOf, heal } from '../framework/heal/index.js';
import { parseSelector, resolveSteps } from '../framework/core/selector.js';
import { evaluate, tally } from '../tests/heal/corpus/evaluate.js';
import { HOLDOUT } from '../tests/heal/corpus/holdout.js';
import { HOLDOUT2 } from '../tests/heal/corpus/holdout2.js';
import { HOLDOUT3 } from '../tests/heal/corpus/holdout3.js';
import { HOLDOUT4 } from '../tests/heal/corpus/holdout4.js';
import { HOLDOUT5 } from '../tests/heal/corpus/holdout5.js';
import { SIBLINGS } from '../tests/heal/corpus/siblings.js';
import { SIBLINGS2 } from '../tests/heal/corpus/siblings2.js';
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
  for (const [split, cases] of [
    ['tune', TUNE],
    ['holdout', HOLDOUT],
    ['holdout2', HOLDOUT2],
    ['holdout3', HOLDOUT3],
    ['holdout4', HOLDOUT4],
    ['holdout5', HOLDOUT5],
    ['siblings', SIBLINGS],
    ['siblings2', SIBLINGS2],
    ['all', [...TUNE, ...HOLDOUT, ...HOLDOUT2, ...HOLDOUT3, ...HOLDOUT4, ...HOLDOUT5, ...SIBLINGS, ...SIBLINGS2]],
  ] as const) {
    const t = tally(cases.map(evaluate));
    rows.push({
      split,
      cases: t.total,
      right: t.right,
      'of which declined rightly': t.correctDeclines,
      declined: t.declined,
      wrong: t.wrong,
      'correct %': round((100 * t.right) / t.total, 1),
    });
  }
  const c = TUNE[0]!;
  const steps = typeof c.selector === 'string' ? parseSelector(c.selector) : c.selector;
  const fp = fingerprintOf(c.before.observation, c.before.keys.target!);
  const resolveMs = median(await sample(2000, () => resolveSteps(c.after.observation.nodes, steps)));
  const fpMs = median(await sample(2000, () => fingerprintOf(c.before.observation, c.before.keys.target!)));
  const healMs = median(
    await sample(500, () => heal({ selector: steps, fingerprint: fp, observation: c.after.observation })),
  );
  return {
    title: 'heal: drift corpus decisions (right / declined / wrong) and cost',
    rows,
    notes: [
      `one screen of ${c.after.observation.nodes.length} nodes: resolve a locator ${round(resolveMs, 4)} ms, fingerprint a node ${round(fpMs, 4)} ms, heal ${round(healMs, 4)} ms (${round(healMs / resolveMs, 1)}× a resolve; no device call)`,
      'holdout: written after the weights and thresholds were frozen; its declines were seen when the word lexicon was written',
      'holdout2: written before the word lexicon; its two declines (Save → Done, Pay → Send) were seen when related words were added',
      'holdout3: written blind to the scorer; first measured 21 right / 7 declined / 2 wrong, then the scorer changed (distinct labels, list rows, related words) looking at it',
      'holdout4: written blind after that change; first measured 22 right / 7 declined / 1 wrong, then contradicting labels and opposites were added looking at it',
      'holdout5: written blind and measured once with the scorer frozen; never tuned on — the unseen figure',
      'siblings: look-alike controls whose ids share a word, one re-ided; first measured 34 right / 1 wrong / 11 declined, then other recorded nodes were excluded looking at it',
      'siblings2: a master control and sub-controls whose ids extend its id; first measured 4 right / 1 wrong / 4 declined',
    ],
  };
}

/**
 * What healing costs when nothing is broken: the same locator tap on two instances of Notes, one
 * with healing off and one recording fingerprints ('suggest'), interleaved so load hits both
 * alike; and what the after-test fingerprinting costs (off the action path).
 */
export async function benchHealActionPath(): Promise<BenchSection> {
  const { connectDevice, EMBEDDED_TOKEN_ENV, EMBEDDED_URL_ENV, startEmbeddedDevice } =
    await import('../device-runtime/providers/index.js');
  const { Space } = await import('../framework/core/space.js');
  const { Trajectory } = await import('../framework/core/trajectory.js');
  const { Healer } = await import('../framework/heal/healer.js');
  const { FingerprintStore } = await import('../framework/heal/fingerprint-store.js');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const sim = await startEmbeddedDevice({ faults: 'instant' });
  process.env[EMBEDDED_URL_ENV] = sim.url;
  process.env[EMBEDDED_TOKEN_ENV] = sim.token;
  const dir = mkdtempSync(join(tmpdir(), 'nw-heal-bench-'));
  try {
    const conn = await connectDevice({ provider: 'sim' });
    const space = await Space.create(conn.client, 'bench-heal');
    const options = { actionTimeout: 5_000, expectTimeout: 5_000 };
    const healer = new Healer('suggest', new FingerprintStore(), dir, 'bench');
    const off = await space.launch('fixtures/apks/notes.apk', new Trajectory(), options);
    const on = await space.launch('fixtures/apks/notes.apk', new Trajectory(), { ...options, heal: healer });
    const N = 40;
    const times = { off: [] as number[], on: [] as number[] };
    for (let i = 0; i < N + 5; i++) {
      for (const [name, app] of [
        ['off', off],
        ['on', on],
      ] as const) {
        const t = performance.now();
        await app.getByText('New note').tap();
        if (i >= 5) times[name].push(performance.now() - t);
        await app.press('back');
      }
    }
    const t = performance.now();
    healer.finish();
    const finishMs = performance.now() - t;
    await off.close();
    await on.close();
    await space.delete();
    await conn.close();
    const mOff = median(times.off);
    const mOn = median(times.on);
    return {
      title: 'heal: cost on the action path when every locator resolves',
      rows: [
        { measure: "locator.tap, use.heal 'off'", median_ms: round(mOff) },
        {
          measure: "locator.tap, use.heal 'suggest' (records the resolution)",
          median_ms: round(mOn),
          ratio: `${round(mOn / mOff)}x`,
        },
        {
          measure: `after the test: fingerprint ${N + 5} resolutions (not in any step)`,
          total_ms: round(finishMs),
          per_resolution_ms: round(finishMs / (N + 5), 3),
        },
      ],
      notes: [
        'A resolution keeps a reference and an unformatted stack (for the spec line); fingerprints are computed after the test and written once per worker.',
      ],
    };
  } finally {
    delete process.env[EMBEDDED_URL_ENV];
    delete process.env[EMBEDDED_TOKEN_ENV];
    rmSync(dir, { recursive: true, force: true });
    await sim.close();
  }
}

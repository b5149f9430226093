import { expect, test } from '@playwright/test';
import { evaluate, tally } from './corpus/evaluate.js';
import { HOLDOUT } from './corpus/holdout.js';
import { HOLDOUT2 } from './corpus/holdout2.js';
import { HOLDOUT3 } from './corpus/holdout3.js';
import { HOLDOUT4 } from './corpus/holdout4.js';
import { HOLDOUT5 } from './corpus/holdout5.js';
import { SIBLINGS } from './corpus/siblings.js';
import { SIBLINGS2 } from './corpus/siblings2.js';
import { TUNE } from './corpus/tune.js';

const ALL = [...TUNE, ...HOLDOUT, ...HOLDOUT2, ...HOLDOUT3, ...HOLDOUT4, ...HOLDOUT5, ...SIBLINGS, ...SIBLINGS2];

test('the drift corpus has at least 40 cases of every kind, a tenth or more to decline', () => {
  expect(ALL.length).toBeGreaterThanOrEqual(40);
  for (const category of [
    'renamed-id',
    'reworded',
    'translated',
    'moved',
    'reordered',
    'look-alike',
    'removed',
    'dialog',
  ] as const) {
    expect(ALL.filter((c) => c.category === category).length, category).toBeGreaterThanOrEqual(2);
  }
  const declines = ALL.filter((c) => !c.after.keys.target).length;
  expect(declines / ALL.length).toBeGreaterThanOrEqual(0.1);
  expect(HOLDOUT.length).toBeGreaterThanOrEqual(10);
  expect(HOLDOUT2.length).toBeGreaterThanOrEqual(10);
});

test('no case heals to the wrong node, or heals when the answer is no', () => {
  const outcomes = ALL.map(evaluate);
  const wrong = outcomes.filter((o) => o.verdict === 'wrong').map((o) => `${o.case.name}: ${o.why}`);
  expect(wrong).toEqual([]);
});

test('the tuning split is all right; the held-out splits are never wrong and right at least as often as first measured', () => {
  const tune = tally(TUNE.map(evaluate));
  expect(tune).toMatchObject({ right: TUNE.length, wrong: 0, declined: 0 });
  // Held-out figures as first measured (17 right, 2 declined, 0 wrong): a change that loses
  // one of them is a regression; the two declines are the cases to win next.
  const holdout = tally(HOLDOUT.map(evaluate));
  expect(holdout.wrong).toBe(0);
  // 17 before the word lexicon, 18 with it, 19 with related words (both written having seen it).
  expect(holdout.right).toBeGreaterThanOrEqual(19);
  // holdout2: 18 right, 2 declined (Save → Done, Pay → Send), 0 wrong before related words; 20
  // after (so it is no longer unseen: holdout3 is).
  const holdout2 = tally(HOLDOUT2.map(evaluate));
  expect(holdout2.wrong).toBe(0);
  expect(holdout2.right).toBeGreaterThanOrEqual(20);
  // holdout3, written blind to the scorer: first measured 21 right, 7 declined, 2 wrong ("Add to
  // playlist" healed to "Add to queue", "Save" to "Save as copy"). Then distinct labels, list
  // rows and related words: 28 right, 2 declined, 0 wrong (so it is no longer unseen either).
  const holdout3 = tally(HOLDOUT3.map(evaluate));
  expect(holdout3.wrong).toBe(0);
  expect(holdout3.right).toBeGreaterThanOrEqual(29);
  // holdout4, written blind after those changes: first measured 22 right, 7 declined, 1 wrong
  // ("Freeze card" healed to "Freeze payments abroad"). Then contradicting labels, opposites and
  // action words swapped over one object: 25 right, 5 declined, 0 wrong.
  const holdout4 = tally(HOLDOUT4.map(evaluate));
  expect(holdout4.wrong).toBe(0);
  expect(holdout4.right).toBeGreaterThanOrEqual(25);
  // holdout5, written blind and measured once with the scorer frozen (0c16609): 24 right, 6
  // declined, 0 wrong (the scorer before holdout3: 20 right, 6 declined, 4 wrong). Never tuned on.
  const holdout5 = tally(HOLDOUT5.map(evaluate));
  expect(holdout5.wrong).toBe(0);
  expect(holdout5.right).toBeGreaterThanOrEqual(24);
});

test('the sibling splits: never healed onto a sibling control, right at least as often as after the exclusion of other recorded nodes', () => {
  // siblings, first measured: 34 right, 1 wrong (a removed checkbox healed onto the next row's),
  // 11 declined (unlabelled switches and checkboxes beside their titles). Then other recorded
  // nodes' ids and identities excluded, and the labels on an unlabelled control's line kept:
  // 42 right, 0 wrong, 4 declined.
  const siblings = tally(SIBLINGS.map(evaluate));
  expect(siblings.wrong).toBe(0);
  expect(siblings.right).toBeGreaterThanOrEqual(42);
  // siblings2, first measured: 4 right, 1 wrong, 4 declined (coin tosses with a sub-control
  // whose id extends the master's). After: 9 right.
  const siblings2 = tally(SIBLINGS2.map(evaluate));
  expect(siblings2.wrong).toBe(0);
  expect(siblings2.right).toBe(SIBLINGS2.length);
  // No case of either heals onto a node whose id was another recorded node's.
  for (const c of [...SIBLINGS, ...SIBLINGS2]) {
    const { result } = evaluate(c);
    if (result.status !== 'healed') continue;
    const node = c.after.observation.nodes.find((n) => n.id === result.node_id)!;
    const was = c.before.observation.nodes.filter(
      (n) => n.id !== c.before.keys.target && n.res_id && n.res_id === node.res_id,
    );
    expect(was, c.name).toEqual([]);
  }
});

test('the word lexicon: the same control in other words heals; a near word that is another control does not', async () => {
  const { textSimilarity, idSimilarity } = await import('../../framework/heal/similarity.js');
  expect(textSimilarity('Sign in', 'Log in')).toBe(1);
  expect(textSimilarity('Create account', 'Sign up')).toBe(1);
  expect(textSimilarity('Delete note', 'Remove note')).toBe(1);
  expect(textSimilarity('Settings', 'Preferences')).toBe(1);
  expect(idSimilarity('zip', 'postcode')).toBe(1);
  expect(textSimilarity('Settings', 'More options')).toBe(0);
  expect(textSimilarity('Sign in', 'Sign out')).toBeLessThan(0.5); // below the identity bar (letters only)
  // Related words (one screen's "Save" is another's "Done"): partial, and nothing without them.
  expect(textSimilarity('Save', 'Done')).toBe(0.6);
  expect(textSimilarity('Save', 'Done', false)).toBe(0);
  expect(textSimilarity('Send money', 'Transfer')).toBe(1);
  expect(idSimilarity('pay', 'transfer_out')).toBeCloseTo(0.4);
  expect(textSimilarity('Save', 'Delete')).toBeLessThan(0.5);
  expect(textSimilarity('Accept', 'Decline')).toBeLessThan(0.5);
});

test('a candidate that resembles the target only through a related word must win clearly', () => {
  // Pay and Request both became "Transfer": each relates to "Pay"; which one is a coin toss.
  const c = HOLDOUT2.find((x) => x.name.startsWith('wallet: Pay and Request both became Transfer'))!;
  const { verdict, result } = evaluate(c);
  expect(verdict).toBe('right');
  expect(result.status === 'unhealed' && result.code).toBe('NO_MARGIN');
  expect(result.status === 'unhealed' && result.reason).toContain('only through a related word');
});

test('the same input gives the same answer (deterministic)', () => {
  const a = ALL.map((c) => JSON.stringify(evaluate(c).result));
  const b = ALL.map((c) => JSON.stringify(evaluate(c).result));
  expect(b).toEqual(a);
});

test('a declined heal carries the ranked candidates and why the best one was not taken', () => {
  const c = TUNE.find((x) => x.name.startsWith('login: Sign in split'))!;
  const { result } = evaluate(c);
  expect(result).toMatchObject({ status: 'unhealed', code: 'NO_MARGIN' });
  if (result.status !== 'unhealed') return;
  expect(result.candidates[0]!.line).toContain('Sign in with');
  expect(result.reason).toMatch(/margin of 0\.\d+, below 0\.1/);
});

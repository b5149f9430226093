import { expect, test } from '@playwright/test';
import { fingerprintOf, FingerprintSchema, heal, type HealArbiter } from '../../framework/heal/index.js';
import { idSimilarity, idTokens, textSimilarity } from '../../framework/heal/similarity.js';
import { btn, field, screen, toolbar } from './corpus/dsl.js';

const before = screen('.Edit', [toolbar('Edit'), field('Title', 'title', { key: 'target' }), field('Note', 'body'), btn('Save', 'save', { key: 'save' })]);

test('fingerprintOf: the node, where it sat, what was around it; valid against its schema', () => {
  const fp = fingerprintOf(before.observation, before.keys.target!);
  expect(FingerprintSchema.parse(fp)).toEqual(fp);
  expect(fp).toMatchObject({ role: 'textbox', res_id: 'title', hint: 'Title', editable: true, activity: '.Edit', package: 'com.example.app' });
  expect(fp.neighbors[0]).toBe('Edit');
  expect(fp.bounds.every((x) => x >= 0 && x <= 1)).toBe(true);
  expect(() => fingerprintOf(before.observation, 'n_999')).toThrow(/fingerprintOf: node "n_999" is not in snapshot s_1/);
});

test('similarities: Android id tokens drop widget prefixes; labels compare by words and letters', () => {
  expect(idTokens('btnSaveNote')).toEqual(['save', 'note']);
  expect(idSimilarity('btn_save', 'save_button')).toBeGreaterThan(0.9);
  expect(idSimilarity('title', 'body')).toBe(0);
  expect(textSimilarity('Save', 'save')).toBe(1);
  expect(textSimilarity('Groceries', 'Grocery list')).toBeGreaterThan(0.6);
  expect(textSimilarity('Save', 'Guardar')).toBeLessThan(0.3);
});

test('heal: a still-working locator, a missing tree and a bad selector are answered, not healed', () => {
  const fp = fingerprintOf(before.observation, before.keys.target!);
  expect(heal({ selector: 'id=title', fingerprint: fp, observation: before.observation })).toMatchObject({ status: 'unhealed', code: 'NOT_BROKEN' });
  expect(heal({ selector: 'id=gone', fingerprint: fp, observation: { ...before.observation, nodes: [], tree_missing: true } })).toMatchObject({ status: 'unhealed', code: 'TREE_MISSING' });
  expect(() => heal({ selector: 'bogus=1', fingerprint: fp, observation: before.observation })).toThrow(/heal: unknown selector engine "bogus="/);
});

test('heal with a model: only close calls reach it, its pick must be a candidate, and it may say none', async () => {
  const fp = fingerprintOf(before.observation, before.keys.save!);
  const after = screen('.Edit', [toolbar('Edit'), field('Title', 'title'), field('Note', 'body'), btn('Save draft', 'save_draft'), btn('Save and close', 'save_close')]);
  const plain = heal({ selector: 'id=save', fingerprint: fp, observation: after.observation });
  expect(plain).toMatchObject({ status: 'unhealed', code: 'NO_MARGIN' });
  const asked: unknown[] = [];
  const picks = (answer: { node_id: string } | { none: true; reason: string }): HealArbiter => ({ choose: async (r) => (asked.push(r), answer) });
  const second = after.observation.nodes.find((n) => n.text === 'Save and close')!;
  const r = await heal({ selector: 'id=save', fingerprint: fp, observation: after.observation, model: picks({ node_id: second.id }) });
  expect(r).toMatchObject({ status: 'healed', by: 'model', node_id: second.id, selector: 'id=save_close' });
  expect((asked[0] as { candidates: unknown[] }).candidates.length).toBeLessThanOrEqual(8);
  expect(await heal({ selector: 'id=save', fingerprint: fp, observation: after.observation, model: picks({ none: true, reason: 'neither is Save' }) })).toMatchObject({ status: 'unhealed', code: 'MODEL_DECLINED' });
  expect(await heal({ selector: 'id=save', fingerprint: fp, observation: after.observation, model: picks({ node_id: 'n_1' }) })).toMatchObject({ status: 'unhealed', code: 'MODEL_DECLINED' });
  // A clear case never reaches the model.
  asked.length = 0;
  const clear = screen('.Edit', [toolbar('Edit'), field('Title', 'title'), field('Note', 'body'), btn('Save', 'save_button')]);
  expect(await heal({ selector: 'id=save', fingerprint: fp, observation: clear.observation, model: picks({ none: true, reason: 'x' }) })).toMatchObject({ status: 'healed', by: 'score' });
  expect(asked).toEqual([]);
});

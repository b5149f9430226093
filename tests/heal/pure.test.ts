import { expect, test } from '@playwright/test';
import { fingerprintOf, FingerprintSchema, heal, type HealArbiter } from '../../framework/heal/index.js';
import { idSimilarity, idTokens, labelsContradict, textSimilarity } from '../../framework/heal/similarity.js';
import { uniqueSelectorFor } from '../../device-runtime/protocol/best-selector.js';
import { parseSelector, resolveSteps } from '../../framework/core/selector.js';
import { btn, check, field, item, screen, toolbar, txt } from './corpus/dsl.js';

const before = screen('.Edit', [
  toolbar('Edit'),
  field('Title', 'title', { key: 'target' }),
  field('Note', 'body'),
  btn('Save', 'save', { key: 'save' }),
]);

test('fingerprintOf: the node, where it sat, what was around it; valid against its schema', () => {
  const fp = fingerprintOf(before.observation, before.keys.target!);
  expect(FingerprintSchema.parse(fp)).toEqual(fp);
  expect(fp).toMatchObject({
    role: 'textbox',
    res_id: 'title',
    hint: 'Title',
    editable: true,
    activity: '.Edit',
    package: 'com.example.app',
  });
  expect(fp.neighbors[0]).toBe('Edit');
  expect(fp.bounds.every((x) => x >= 0 && x <= 1)).toBe(true);
  expect(() => fingerprintOf(before.observation, 'n_999')).toThrow(
    /fingerprintOf: node "n_999" is not in snapshot s_1/,
  );
});

test('similarities: Android id tokens drop widget prefixes; labels compare by words and letters', () => {
  expect(idTokens('btnSaveNote')).toEqual(['save', 'note']);
  expect(idSimilarity('btn_save', 'save_button')).toBeGreaterThan(0.9);
  expect(idSimilarity('title', 'body')).toBe(0);
  expect(textSimilarity('Save', 'save')).toBe(1);
  expect(textSimilarity('Groceries', 'Grocery list')).toBeGreaterThan(0.6);
  expect(textSimilarity('Save', 'Guardar')).toBeLessThan(0.3);
});

test('labels that name different things of one kind are not alike, however many words or letters they share', () => {
  // Each side has a word the other lacks: another field, another list.
  expect(textSimilarity('First name', 'Last name')).toBeLessThan(0.5);
  expect(textSimilarity('Add to playlist', 'Add to queue')).toBeLessThan(0.5);
  expect(idSimilarity('last_name', 'first_name')).toBeLessThan(0.5);
  // One adds a word that makes it another action.
  expect(textSimilarity('Save', 'Save as copy')).toBeLessThan(0.5);
  expect(textSimilarity('Delete', 'Delete all')).toBeLessThan(0.5);
  // Opposites are never alike, and a label that shares a word but names another thing contradicts.
  expect(textSimilarity('Start parking', 'Stop parking')).toBe(0);
  expect(textSimilarity('Turn on wifi', 'Turn off wifi')).toBe(0);
  expect(labelsContradict('Freeze card', 'Freeze payments abroad')).toBe(true);
  expect(labelsContradict('Follow Climate', 'Follow Jane Doe')).toBe(true);
  expect(labelsContradict('Save', 'Done')).toBe(false);
  expect(labelsContradict('Request refill', 'Order refill')).toBe(false);
  // An action word swapped over the same object is a rewording.
  expect(textSimilarity('Request refill', 'Order refill')).toBeGreaterThanOrEqual(0.5);
  expect(textSimilarity('Turn off all lights', 'All lights off')).toBeGreaterThan(0.8);
  // Rewordings that keep the meaning stay alike: a word added, filler dropped, a spelling, an order.
  expect(textSimilarity('Save', 'Save note')).toBeGreaterThanOrEqual(0.5);
  expect(textSimilarity('Mark as played', 'Mark played')).toBe(1);
  expect(textSimilarity('Colour', 'Color')).toBeGreaterThan(0.4);
  expect(textSimilarity('Given name', 'First name')).toBe(1);
  expect(idSimilarity('first_name', 'given_name')).toBe(1);
  expect(idSimilarity('first_name', 'name_first')).toBe(0.9);
});

test("a candidate whose label contradicts the target's is passed over, whatever it shares, unless it kept the id", () => {
  const card = (freeze: ReturnType<typeof btn>) =>
    screen('.Card', [toolbar('Card'), field('Nickname', 'nickname'), freeze, btn('Replace card', 'replace')]);
  const was = card(btn('Freeze card', 'freeze', { key: 'target' }));
  const fp = fingerprintOf(was.observation, was.keys.target!);
  const now = card(btn('Freeze payments abroad', 'freeze_abroad'));
  const r = heal({ selector: 'text="Freeze card"', fingerprint: fp, observation: now.observation });
  expect(r).toMatchObject({ status: 'unhealed', code: 'NO_CANDIDATE' });
  expect(r.candidates.find((c) => c.line.includes('Freeze payments abroad'))?.rejected).toBe(
    "its label 'Freeze payments abroad' names another thing than 'Freeze card'",
  );
  // The same id says it is the same switch, reworded.
  expect(
    heal({
      selector: 'text="Freeze card"',
      fingerprint: fp,
      observation: card(btn('Freeze payments abroad', 'freeze')).observation,
    }),
  ).toMatchObject({ status: 'healed', selector: 'text="Freeze payments abroad"' });
});

test("in a list, a fingerprint keeps its row's labels, and a node only its row tells apart is named through the row", () => {
  const list = (names: string[], rowId: string) =>
    screen('.Tasks', [
      toolbar('Tasks'),
      ...names.map((n) => item([check('', 'done', { key: n, w: 168 }), txt(n, 'title')], rowId, { row: true, h: 168 })),
    ]);
  const was = list(['Buy milk', 'Pay rent'], 'task_row');
  const fp = fingerprintOf(was.observation, was.keys['Pay rent']!);
  expect(fp.row).toEqual(['Pay rent']);
  expect(fingerprintOf(before.observation, before.keys.target!).row).toBeUndefined(); // not in a list
  // Rows reordered and their id renamed: the checkbox is healed through its row's label.
  const now = list(['Pay rent', 'Call mum', 'Buy milk'], 'task_item');
  const r = heal({
    selector: 'id=task_row >> has-text="Pay rent" >> role=checkbox',
    fingerprint: fp,
    observation: now.observation,
  });
  expect(r).toMatchObject({
    status: 'healed',
    node_id: now.keys['Pay rent'],
    selector: 'id=task_item >> has-text="Pay rent" >> id=done',
  });
  const node = now.observation.nodes.find((n) => n.id === now.keys['Buy milk'])!;
  const sel = uniqueSelectorFor(now.observation.nodes, node, parseSelector('id=done'))!;
  expect(resolveSteps(now.observation.nodes, parseSelector(sel)).map((n) => n.id)).toEqual([node.id]);
});

test('heal: a still-working locator, a missing tree and a bad selector are answered, not healed', () => {
  const fp = fingerprintOf(before.observation, before.keys.target!);
  expect(heal({ selector: 'id=title', fingerprint: fp, observation: before.observation })).toMatchObject({
    status: 'unhealed',
    code: 'NOT_BROKEN',
  });
  expect(
    heal({
      selector: 'id=gone',
      fingerprint: fp,
      observation: { ...before.observation, nodes: [], tree_missing: true },
    }),
  ).toMatchObject({ status: 'unhealed', code: 'TREE_MISSING' });
  expect(() => heal({ selector: 'bogus=1', fingerprint: fp, observation: before.observation })).toThrow(
    /heal: unknown selector engine "bogus="/,
  );
});

test('heal with a model: only close calls reach it, its pick must be a candidate, and it may say none', async () => {
  const fp = fingerprintOf(before.observation, before.keys.save!);
  const after = screen('.Edit', [
    toolbar('Edit'),
    field('Title', 'title'),
    field('Note', 'body'),
    btn('Save note', 'save_note'),
    btn('Save and close', 'save_close'),
  ]);
  const plain = heal({ selector: 'id=save', fingerprint: fp, observation: after.observation });
  expect(plain).toMatchObject({ status: 'unhealed', code: 'NO_MARGIN' });
  const asked: unknown[] = [];
  const picks = (answer: { node_id: string } | { none: true; reason: string }): HealArbiter => ({
    choose: async (r) => (asked.push(r), answer),
  });
  const second = after.observation.nodes.find((n) => n.text === 'Save and close')!;
  const r = await heal({
    selector: 'id=save',
    fingerprint: fp,
    observation: after.observation,
    model: picks({ node_id: second.id }),
  });
  expect(r).toMatchObject({ status: 'healed', by: 'model', node_id: second.id, selector: 'id=save_close' });
  expect((asked[0] as { candidates: unknown[] }).candidates.length).toBeLessThanOrEqual(8);
  expect(
    await heal({
      selector: 'id=save',
      fingerprint: fp,
      observation: after.observation,
      model: picks({ none: true, reason: 'neither is Save' }),
    }),
  ).toMatchObject({ status: 'unhealed', code: 'MODEL_DECLINED' });
  expect(
    await heal({
      selector: 'id=save',
      fingerprint: fp,
      observation: after.observation,
      model: picks({ node_id: 'n_1' }),
    }),
  ).toMatchObject({ status: 'unhealed', code: 'MODEL_DECLINED' });
  // A clear case never reaches the model.
  asked.length = 0;
  const clear = screen('.Edit', [
    toolbar('Edit'),
    field('Title', 'title'),
    field('Note', 'body'),
    btn('Save', 'save_button'),
  ]);
  expect(
    await heal({
      selector: 'id=save',
      fingerprint: fp,
      observation: clear.observation,
      model: picks({ none: true, reason: 'x' }),
    }),
  ).toMatchObject({ status: 'healed', by: 'score' });
  expect(asked).toEqual([]);
});

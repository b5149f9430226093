import { expect, test } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fingerprintOf, FingerprintSchema, heal } from '../../framework/heal/index.js';
import { readFingerprintFile } from '../../framework/heal/fingerprint-store.js';
import { check, col, item, row, screen, toolbar, txt, type V } from './corpus/dsl.js';

/**
 * The sibling rule: a node of the new screen that still carries an id, or a label (with its
 * row), that belonged to another node of the recorded screen is that other control, still
 * there — never the target's heir, whatever it scores.
 */
const knob = (id: string, more: Partial<V> = {}): V => ({
  role: 'switch',
  id,
  clickable: true,
  checkable: true,
  w: 200,
  h: 168,
  ...more,
});
const pref = (title: string, summary: string, id: string, more: Partial<V> = {}) =>
  row([col([txt(title, `${id}_title`), txt(summary, `${id}_summary`, { h: 72 })]), knob(id, more)]);
const T = { key: 'target' };
const backup = (rows: V[]) => screen('.BackupActivity', [toolbar('Backup'), ...rows]);
const SYNC = (id = 'toggle_sync', more: Partial<V> = T) => pref('Sync photos', 'On all your devices', id, more);
const CELL = (id = 'toggle_backup') => pref('Back up over mobile data', 'May cost', id);
const GEO = (id = 'toggle_location') => pref('Save photo location', 'In a photo’s details', id);

const was = backup([SYNC(), CELL(), GEO()]);
const fp = fingerprintOf(was.observation, was.keys.target!);

test('a fingerprint keeps what named the other nodes of its screen: their ids, and the identities of controls of its kind', () => {
  expect(FingerprintSchema.parse(fp)).toEqual(fp);
  expect(fp.others!.ids).toEqual(
    expect.arrayContaining(['toggle_backup', 'toggle_location', 'toggle_sync_title', 'toolbar_title']),
  );
  expect(fp.others!.ids).not.toContain('toggle_sync');
  // Unlabelled switches are named by the label beside them; the target's own row is not another's.
  expect(fp.others!.names).toEqual([{ row: 'Back up over mobile data' }, { row: 'Save photo location' }]);
  // An unlabelled control outside a list keeps the static labels on its line as its row.
  expect(fp.row).toEqual(['Sync photos', 'On all your devices']);
});

test('re-ided and reordered, the switch is found through the label beside it; the sibling now in its slot is passed over', () => {
  const now = backup([CELL(), GEO(), SYNC('sync_switch')]);
  const r = heal({ selector: 'id=toggle_sync', fingerprint: fp, observation: now.observation });
  expect(r).toMatchObject({ status: 'healed', node_id: now.keys.target, selector: 'id=sync_switch' });
  const sibling = r.candidates.find((c) => c.line.includes('id=toggle_backup ['))!;
  expect(sibling.rejected).toBe(
    "its id 'toggle_backup' belonged to another node of the recorded screen: that node is still here, not the target renamed",
  );
});

test('the switch removed: no heal, though a sibling took its slot', () => {
  const now = backup([CELL(), GEO()]);
  const r = heal({ selector: 'id=toggle_sync', fingerprint: fp, observation: now.observation });
  expect(r.status).toBe('unhealed');
  expect(
    r.candidates
      .filter((c) => c.line.startsWith('switch'))
      .every((c) => c.rejected?.includes('belonged to another node')),
  ).toBe(true);
});

test('every id renamed: a sibling is known by the label beside it, as it was recorded', () => {
  const now = backup([CELL('cell_switch'), SYNC('sync_switch'), GEO('geo_switch')]);
  const r = heal({ selector: 'id=toggle_sync', fingerprint: fp, observation: now.observation });
  expect(r).toMatchObject({ status: 'healed', node_id: now.keys.target });
  expect(r.candidates.find((c) => c.line.includes('id=cell_switch ['))!.rejected).toBe(
    "it is named as another control of the recorded screen was (row 'Back up over mobile data'): that control is still here, not the target renamed",
  );
});

test('in a list, a row control is known by its label and its row: another row’s Pay is not this row’s', () => {
  const bill = (name: string, id: string, more: Partial<V> = {}) =>
    item([txt(name, 'bill_name'), { role: 'button', text: 'Pay', id, clickable: true, w: 240, ...more }], 'bill_row', {
      row: true,
      h: 168,
    });
  const before = screen('.Bills', [
    toolbar('Bills'),
    bill('Electricity', 'pay'),
    bill('Water', 'pay', T),
    bill('Internet', 'pay'),
  ]);
  const want = fingerprintOf(before.observation, before.keys.target!);
  expect(want.others!.ids).not.toContain('pay'); // the target carried it too: it names a kind, not a node
  expect(want.others!.names).toEqual(
    expect.arrayContaining([
      { label: 'Pay', row: 'Electricity' },
      { label: 'Pay', row: 'Internet' },
    ]),
  );
  // Water's bill paid and gone, the buttons re-ided: Electricity's and Internet's are other controls.
  const now = screen('.Bills', [toolbar('Bills'), bill('Internet', 'pay_bill'), bill('Electricity', 'pay_bill')]);
  const r = heal({
    selector: 'id=bill_row >> has-text="Water" >> text="Pay"',
    fingerprint: want,
    observation: now.observation,
  });
  expect(r.status).toBe('unhealed');
  expect(r.candidates.filter((c) => c.line.includes('"Pay"')).map((c) => c.rejected)).toEqual([
    expect.stringContaining("('Pay' in row 'Internet')"),
    expect.stringContaining("('Pay' in row 'Electricity')"),
  ]);
});

test('the target’s containers are not other nodes: the id its row shares with the other rows excludes nothing', () => {
  const before = screen('.Tasks', [
    toolbar('Tasks'),
    ...['Buy milk', 'Pay rent'].map((t) =>
      item([check('', 'done', { w: 168, ...(t === 'Pay rent' ? T : {}) }), txt(t, 'task_title')], 'task_row', {
        row: true,
        h: 168,
      }),
    ),
  ]);
  const want = fingerprintOf(before.observation, before.keys.target!);
  expect(want.others!.ids).not.toContain('task_row'); // its own row carried it
  expect(want.others!.names).toEqual([{ row: 'Buy milk' }]);
});

test('fingerprints written before `others` existed still load and heal, excluding nothing on that ground', () => {
  // A fingerprint file as written before: no `others`, and no `row` outside lists.
  const { others: _gone, row: _row, ...old } = fp;
  const dir = mkdtempSync(path.join(tmpdir(), 'nw-fp-'));
  const file = path.join(dir, 'backup.spec.ts.json');
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      entries: { '9:3 id=toggle_sync': { selector: 'id=toggle_sync', line: 9, column: 3, fingerprint: old } },
    }),
  );
  const legacy = readFingerprintFile(file).entries['9:3 id=toggle_sync']!.fingerprint;
  expect(legacy.others).toBeUndefined();
  const now = backup([CELL(), GEO(), SYNC('sync_switch')]);
  const r = heal({ selector: 'id=toggle_sync', fingerprint: legacy, observation: now.observation });
  expect(r.candidates.find((c) => c.line.includes('id=toggle_backup ['))!.rejected ?? '').not.toContain(
    'belonged to another',
  );
});

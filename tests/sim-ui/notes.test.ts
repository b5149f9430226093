import { expect, test } from '@playwright/test';
import { NOTES, simSpace } from './harness.js';

test('the example flow still works: New note → title → Save shows it in the list', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  await h.tap('New note');
  expect((await h.observe()).activity).toBe('.EditNoteActivity');
  const { node } = await h.byRes('title');
  expect(node).toMatchObject({ editable: true, hint: 'Title', class: 'android.widget.EditText' });
  await h.type('title', 'Buy milk');
  await h.tap('Save');
  const obs = await h.observe();
  expect(obs.activity).toBe('.MainActivity');
  expect(obs.nodes.map((n) => n.text)).toContain('Buy milk');
});

test('node ids are stable within a snapshot and a stale snapshot is refused', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  const a = await h.observe();
  const b = await h.observe();
  expect(b.nodes.map((n) => n.id)).toEqual(a.nodes.map((n) => n.id));
  expect(b.screen_hash).toBe(a.screen_hash);
  await h.tap('New note');
  const err = await h.fail('ui_tap', { node_id: a.nodes[0]!.id, snapshot_id: a.snapshot_id });
  expect(err.code).toBe('SNAPSHOT_STALE');
});

test('delete asks for confirmation in a dialog that hides the list behind it', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  await h.tap('New note');
  await h.type('title', 'Old note');
  await h.call('ui_key', { key: 'back' }); // hides the keyboard first
  await h.tap('Save');
  await h.call('ui_long_press', { text: 'Old note' });
  expect(await h.texts()).toEqual(['Old note', 'Edit', 'Copy text', 'Delete']);
  await h.tap('Delete');
  const dialog = await h.texts();
  expect(dialog).toContain('Delete this note?');
  expect(dialog).not.toContain('New note'); // behind the dialog: not in the tree
  // A tap on the "New note" button's place lands outside the dialog and never reaches it.
  await h.call('ui_tap', { point: [540, 2200] });
  expect((await h.observe()).activity).toBe('.MainActivity');
  expect(await h.texts()).not.toContain('Delete this note?'); // cancelable: the outside tap dismissed it
  await h.call('ui_long_press', { text: 'Old note' });
  await h.tap('Delete');
  await h.tap('Delete'); // the dialog's button
  expect(await h.texts()).toEqual(expect.arrayContaining(['No notes yet', 'Note deleted']));
});

test('hundreds of notes: only visible rows are in the tree; scrolling brings others', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  await h.call('ui_tap', { text: 'More options' });
  await h.tap('Load sample notes');
  const first = await h.observe();
  const titles = first.nodes.filter((n) => n.res_id?.endsWith(':id/note_title')).map((n) => n.text);
  expect(titles.length).toBeGreaterThan(5);
  expect(titles.length).toBeLessThan(20);
  expect(titles).toContain('Ideas 2');
  expect(titles).not.toContain('Meeting 151');
  const list = first.nodes.find((n) => n.scrollable)!;
  expect(list.class).toBe('androidx.recyclerview.widget.RecyclerView');
  expect((await h.call('ui_scroll', { direction: 'down' })).moved).toBe(true);
  const after = (await h.observe()).nodes.filter((n) => n.res_id?.endsWith(':id/note_title')).map((n) => n.text);
  expect(after).not.toContain('Ideas 2');
  // A swipe up on the list moves it back.
  await h.call('ui_swipe', { from: [540, 600], to: [540, 1800] });
  await h.call('ui_swipe', { from: [540, 600], to: [540, 1800] });
  expect(await h.texts()).toContain('Ideas 2');
  for (let i = 0; i < 100; i++) if (!(await h.call('ui_scroll', { direction: 'down', amount: 10 })).moved) break;
  expect(await h.texts()).toContain('Groceries 300');
  expect((await h.call('ui_scroll', { direction: 'down' })).moved).toBe(false);
});

test('search finds notes; data persists per instance across stop and relaunch', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES, 'a');
  await h.tap('New note');
  await h.type('title', 'Alpha plan');
  await h.tap('Save');
  await h.call('space_stop', { package: NOTES, instance: 'a' });
  await h.launch(NOTES, 'a');
  expect(await h.texts()).toContain('Alpha plan');
  await h.launch(NOTES, 'b');
  expect(await h.texts()).toContain('No notes yet');
  await h.launch(NOTES, 'a');
  await h.call('ui_tap', { text: 'Search notes' });
  await h.type('search_field', 'alpha');
  expect(await h.texts()).toContain('Alpha plan');
});

test('node ids from a detail=full snapshot or from ui_wait_for act on the node they named', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  const full = await h.observe({ detail: 'full' });
  const newNote = full.nodes.find((n) => n.text === 'New note')!;
  const compactId = (await h.observe()).nodes.find((n) => n.text === 'New note')!.id;
  expect(newNote.id).not.toBe(compactId); // different numbering…
  const r = await h.call('ui_tap', { node_id: newNote.id, snapshot_id: full.snapshot_id });
  expect(r.node?.text).toBe('New note'); // …but the right node
  const waited = await h.call('ui_wait_for', { idle: true, timeout_ms: 1000 });
  const obs = await h.observe();
  const title = obs.nodes.find((n) => n.res_id?.endsWith(':id/title'))!;
  const typed = await h.call('ui_set_text', {
    node_id: title.id,
    snapshot_id: waited.snapshot_id!,
    text: 'From wait_for',
  });
  expect(typed.node?.res_id).toBe(`${NOTES}:id/title`);
});

test('search is a mode of the list: back closes it before leaving the app', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  await h.tap('Search notes');
  expect((await h.byRes('search_field')).node.hint).toBe('Search notes');
  await h.call('ui_key', { key: 'back' });
  const obs = await h.observe();
  expect(obs).toMatchObject({ package: NOTES, activity: '.MainActivity' });
  expect(obs.nodes.map((n) => n.text)).toContain('New note');
});

test('every activity a model declares is one the APK declares (launcher included)', async () => {
  const { readFileSync } = await import('node:fs');
  const { appModelFor } = await import('../../device-runtime/sim/apps/index.js');
  for (const app of ['notes', 'shop', 'chat']) {
    const manifest = readFileSync(
      new URL(`../../fixtures/apks/src/${app}/AndroidManifest.xml`, import.meta.url),
      'utf8',
    );
    const declared = [...manifest.matchAll(/<activity android:name="([^"]+)"/g)].map((m) => m[1]);
    const pkg = /package="([^"]+)"/.exec(manifest)![1]!;
    expect(Object.keys(appModelFor(pkg)!.activities).sort(), app).toEqual(declared.sort());
  }
});

test('a quick swipe flings the list further than a slow drag', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.call('app_intent', { package: NOTES, component: `${NOTES}/.MainActivity`, extras: { sample_notes: 300 } });
  const firstTitle = async () => (await h.observe()).nodes.find((n) => n.res_id?.endsWith(':id/note_title'))!.text;
  await h.call('ui_swipe', { from: [540, 1800], to: [540, 600], duration_ms: 600 });
  const afterDrag = await firstTitle();
  await h.call('ui_swipe', { from: [540, 600], to: [540, 1800], duration_ms: 600 }); // back to the top
  await h.call('ui_swipe', { from: [540, 1800], to: [540, 600], duration_ms: 50 });
  const afterFling = await firstTitle();
  const n = (t: string | null | undefined) => Number(t!.split(' ')[1]);
  expect(n(afterFling)).toBeGreaterThan(n(afterDrag));
});

test('ui_find takes a selector (the shared engine) and exact fields on the same node; ui_wait_for text reads as text= does', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  await h.tap('New note');
  await h.type('title', 'Buy  Milk');
  await h.call('ui_key', { key: 'back' });
  await h.tap('Save');
  const bySelector = await h.call('ui_find', { selector: 'text=buy milk' });
  expect(bySelector.nodes.map((n) => n.text)).toEqual(['Buy  Milk']);
  expect((await h.call('ui_find', { text: 'buy milk' })).nodes).toEqual([]); // the field stays exact
  expect((await h.call('ui_find', { text: 'Buy  Milk', selector: 'text=milk' })).nodes).toHaveLength(1);
  expect((await h.call('ui_find', { selector: 'text=milk', role: 'button' })).nodes).toEqual([]);
  const bad = await h.fail('ui_find', { selector: 'role=button[label=Save]' });
  expect(bad).toMatchObject({
    code: 'INVALID_ARGUMENT',
    message: expect.stringContaining('ui_find: unknown role attribute [label]'),
  });
  expect((await h.call('ui_wait_for', { text: 'BUY MILK', timeout_ms: 0 })).matched).toBe(true);
  expect((await h.call('ui_wait_for', { text: 'buy milk', gone: true, timeout_ms: 0 })).matched).toBe(false);
});

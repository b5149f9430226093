import { expect, test } from '@playwright/test';
import { bigRowTitle } from '../../device-runtime/sim/apps/big-screen.js';
import { NOTES, SETTINGS, simSpace, type SimHarness } from './harness.js';

/**
 * The screen keeps its last frame while nothing changed (ui/screen.ts `snapshot`): these check
 * that every way a screen changes shows at the next look, and that the kept frame is used when
 * nothing did.
 */

const big = async (h: SimHarness, nodes = 200) =>
  h.call('app_intent', { package: SETTINGS, component: `${SETTINGS}/.BigScreenActivity`, extras: { nodes } });

test('a screen nothing changed is looked at again from its kept frame; an action shows at once', async () => {
  const h = await simSpace();
  await big(h);
  const first = await h.observe({ max_nodes: 5000 });
  const again = await h.observe({ max_nodes: 5000 });
  expect(again.snapshot_id).toBe(first.snapshot_id);
  expect(again.nodes).toEqual(first.nodes);
  // The same row by text, then by node id of the kept snapshot: each tap toggles its star.
  await h.tap(bigRowTitle(3));
  const after = await h.observe({ max_nodes: 5000 });
  expect(after.snapshot_id).not.toBe(first.snapshot_id);
  expect(after.nodes.filter((n) => n.text === 'Starred')).toHaveLength(1);
  const row = after.nodes.find((n) => n.text === bigRowTitle(3))!;
  await h.call('ui_tap', { node_id: row.id, snapshot_id: after.snapshot_id });
  expect((await h.observe({ max_nodes: 5000 })).nodes.filter((n) => n.text === 'Starred')).toHaveLength(0);
  // A selector action (one look before, one after) and the look after it.
  const r = await h.call('ui_tap', {
    selector: [{ kind: 'text', text: bigRowTitle(5), exact: true }],
    max_nodes: 5000,
  });
  expect(r.observation?.nodes.filter((n) => n.text === 'Starred')).toHaveLength(1);
  expect((await h.observe({ max_nodes: 5000 })).nodes.filter((n) => n.text === 'Starred')).toHaveLength(1);
});

test('a key, a scroll and typing show at the next look', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  await h.observe();
  await h.tap('New note');
  await h.type('title', 'Kept');
  expect(await h.texts()).toContain('Kept');
  const { node } = await h.byRes('title');
  expect(node.focused).toBe(true);
  expect((await h.observe()).keyboard).not.toBeNull();
  await h.call('ui_key', { key: 'back' });
  expect((await h.observe()).keyboard).toBeNull();
  await h.call('ui_key', { key: 'back' });
  await h.call('app_intent', { component: `${NOTES}/.MainActivity`, package: NOTES, extras: { sample_notes: 60 } });
  const top = await h.observe();
  await h.call('ui_scroll', { direction: 'down', amount: 1 });
  const scrolled = await h.observe();
  expect(scrolled.nodes.map((n) => n.text)).not.toEqual(top.nodes.map((n) => n.text));
});

test('what changes with time shows when the clock moves: a toast, a render that reads the clock', async () => {
  const h = await simSpace();
  await h.call('app_intent', { package: SETTINGS, component: `${SETTINGS}/.DeviceInfoActivity` });
  await h.tap('Build number');
  expect(await h.texts()).toContain('You are now 4 steps away from being a developer.');
  h.clock.advance(2100);
  expect(await h.texts()).not.toContain('You are now 4 steps away from being a developer.');
  // The update check's spinner is drawn from the clock: a look later is another picture.
  await h.tap('System update');
  const shot = async () => (await h.call('ui_screenshot', { scale: 0.25 })).sha256;
  const a = await shot();
  expect(await shot()).toBe(a);
  h.clock.advance(250);
  const b = await shot();
  expect(b).not.toBe(a);
  // Nor the same picture a whole second later, nor at any of the next few (Playwright's
  // screenshot comparison retries once a second): the spinner has no period that short.
  for (let s = 1; s <= 6; s++) {
    h.clock.advance(1000);
    expect(await shot(), `${s} s after`).not.toBe(b);
  }
});

test('app data written by a function, and the world set by a tool, show at the next look', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  expect(await h.texts()).not.toContain('Written from outside');
  await h.call('appfn_execute', {
    package: NOTES,
    function_id: 'createNote',
    params: { title: 'Written from outside' },
  });
  expect(await h.texts()).toContain('Written from outside');
  const dateOf = async () => (await h.byRes('note_date')).node.text;
  const today = await dateOf();
  await h.call('world_clock_set', { package: NOTES, advance_ms: 3 * 24 * 3600 * 1000 });
  expect(await dateOf()).not.toBe(today);
});

test('the channels in use change what is observed at once', async () => {
  const h = await simSpace();
  await big(h, 50);
  expect((await h.observe()).nodes.length).toBeGreaterThan(0);
  h.space.screen.setChannels({ accessibility: false, shizuku: false });
  const vision = await h.observe();
  expect(vision.nodes).toEqual([]);
  h.space.screen.setChannels({ accessibility: true });
  expect((await h.observe()).nodes.length).toBeGreaterThan(0);
});

test("another instance's changes do not show on this one, and its own do", async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  await h.call('appfn_execute', { package: NOTES, function_id: 'createNote', params: { title: 'Mine' } });
  expect(await h.texts()).toContain('Mine');
  await h.launch(NOTES, '1');
  await h.call('appfn_execute', {
    package: NOTES,
    instance: '1',
    function_id: 'createNote',
    params: { title: 'Theirs' },
  });
  const theirs = await h.texts();
  expect(theirs).toContain('Theirs');
  expect(theirs).not.toContain('Mine');
  await h.launch(NOTES);
  await h.settle();
  const mine = await h.texts();
  expect(mine).toContain('Mine');
  expect(mine).not.toContain('Theirs');
});

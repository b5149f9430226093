/**
 * The `selector_actions` extension at the protocol level (docs/protocol.md): ui_tap,
 * ui_long_press and ui_set_text with a locator's steps wait, act and verify on the device and
 * answer in one call; ui_scroll scrolls until the node is in view, ui_wait_for waits for a count
 * of matches. Every error is checked against the tool's declared codes (helpers.ts).
 */
import { expect, test } from '@playwright/test';
import { product } from '../../device-runtime/sim/apps/shop/model.js';
import { apk, NOTES, runtime, session, spaceWithNotes } from './helpers.js';

async function notes() {
  const rt = runtime();
  const s = session(rt, 'a');
  const space_id = await spaceWithNotes(s);
  const { instance } = await s.ok('space_launch', { space_id, package: NOTES });
  return { s, space_id, app: { package: NOTES, instance } };
}

test('runtime_info advertises the extension', async () => {
  const { s } = await notes();
  expect((await s.ok('runtime_info', {})).extensions).toContain('selector_actions');
});

test('a tap by selector answers the node it matched, the node acted on, the screens before and after, and its log', async () => {
  const { s, space_id, app } = await notes();
  const r = await s.ok('ui_tap', {
    space_id,
    app,
    selector: [{ kind: 'text', text: 'New note', exact: true }],
    observe_before: true,
  });
  expect(r).toMatchObject({ ok: true, effect: true, attempts: 1 });
  expect(r.matched).toMatchObject({ text: 'New note' });
  expect(r.observation_before!.snapshot_id).toBe(r.snapshot_id);
  expect(r.observation!.activity).toBe('.EditNoteActivity');
  expect(r.log!.join('\n')).toMatch(/resolved to/);
  // Typing by selector into the field it names; the field holds the text after.
  const t = await s.ok('ui_set_text', { space_id, app, selector: [{ kind: 'id', id: 'title' }], text: 'Groceries' });
  expect(t.observation!.nodes.find((n) => n.res_id?.endsWith(':id/title'))?.text).toBe('Groceries');
  await s.ok('ui_tap', {
    space_id,
    app,
    selector: [{ kind: 'role', role: 'button', name: { text: 'Save', exact: true } }],
  });
  // A long press on a list row's title: the selector names the title; the row is what is pressed.
  const lp = await s.ok('ui_long_press', {
    space_id,
    app,
    selector: [{ kind: 'text', text: 'Groceries', exact: true }],
    duration_ms: 800,
  });
  expect(lp.matched).toMatchObject({ text: 'Groceries' });
  expect(lp.node?.id).toBeDefined();
});

test('no match within the timeout: TIMEOUT with the call log and the screen; several: AMBIGUOUS_TARGET with the matches', async () => {
  const { s, space_id, app } = await notes();
  const gone = await s.fail('ui_tap', {
    space_id,
    app,
    selector: [{ kind: 'text', text: 'No such button', exact: true }],
    wait: { timeout_ms: 300, enabled: true, scroll: true },
  });
  expect(gone.code).toBe('TIMEOUT');
  const details = gone.details as { log: string[]; observation: { nodes: unknown[] } };
  expect(details.log.length).toBeGreaterThan(0);
  expect(details.observation.nodes.length).toBeGreaterThan(0);
  // The notes list has several buttons (new note, search, more options).
  const many = await s.fail('ui_tap', {
    space_id,
    app,
    selector: [{ kind: 'role', role: 'button' }],
    wait: { timeout_ms: 300, enabled: true, scroll: false },
  });
  expect(many.code).toBe('AMBIGUOUS_TARGET');
  expect((many.details as { matches: unknown[] }).matches.length).toBeGreaterThan(1);
});

test('bad input: a selector with a node_id, an empty selector, a malformed step', async () => {
  const { s, space_id, app } = await notes();
  for (const args of [
    { space_id, app, node_id: 'n1', selector: [{ kind: 'id', id: 'title' }] },
    { space_id, app, selector: [] },
    { space_id, app, selector: [{ kind: 'text' }] },
  ]) {
    const e = await s.fail('ui_tap', args);
    expect(e.code, JSON.stringify(args)).toBe('INVALID_ARGUMENT');
    expect(e.message.length).toBeGreaterThan(10);
  }
});

const SHOP = 'com.nestwright.shop';

async function catalog() {
  const rt = runtime();
  const s = session(rt, 'a');
  const { space_id } = await s.ok('space_create', { name: 'shop' });
  await s.ok('session_acquire', { space_id });
  await s.ok('space_install_apk', { space_id, apk_paths: [apk('shop.apk')] });
  const { instance } = await s.ok('space_launch', { space_id, package: SHOP, activity: '.CatalogActivity' });
  return { s, space_id, app: { package: SHOP, instance } };
}

test('ui_scroll by selector scrolls the list until the node is in view, and answers it with the screen it is on', async () => {
  const { s, space_id, app } = await catalog();
  const name = product(30).name;
  const row = [{ kind: 'text' as const, text: name, exact: true }];
  expect((await s.ok('ui_find', { space_id, text: name })).nodes).toHaveLength(0);
  const r = await s.ok('ui_scroll', {
    space_id,
    app,
    selector: row,
    wait: { timeout_ms: 20_000, enabled: false, scroll: true },
  });
  expect(r).toMatchObject({ ok: true, moved: true, node: { text: name } });
  expect(r.observation!.snapshot_id).toBe(r.snapshot_id);
  expect(r.observation!.nodes.some((n) => n.text === name)).toBe(true);
  expect(r.log!.join('\n')).toMatch(/scrolling the list down/);
  // Already in view: nothing to scroll.
  expect(await s.ok('ui_scroll', { space_id, app, selector: row })).toMatchObject({
    moved: false,
    node: { text: name },
  });
});

test('ui_scroll by selector: TIMEOUT with the log and screen when it is not found in time; AMBIGUOUS_TARGET when it names several', async () => {
  const { s, space_id, app } = await catalog();
  const none = await s.fail('ui_scroll', {
    space_id,
    app,
    selector: [{ kind: 'text', text: 'No such product', exact: true }],
    wait: { timeout_ms: 300, enabled: false, scroll: true },
  });
  expect(none.code).toBe('TIMEOUT');
  expect(none.message).toMatch(/^ui_scroll: timeout 300ms exceeded/);
  expect((none.details as { log: string[] }).log[0]).toBe('waiting for text="No such product"');
  const many = await s.fail('ui_scroll', { space_id, app, selector: [{ kind: 'id', id: 'product_row' }] });
  expect(many.code).toBe('AMBIGUOUS_TARGET');
  expect((many.details as { matches: unknown[] }).matches.length).toBeGreaterThan(1);
});

test('ui_wait_for by selector: one node (visible), none (hidden), a count, gone; matched false at the timeout with the last look', async () => {
  const { s, space_id, app } = await notes();
  const newNote = [{ kind: 'text' as const, text: 'New note', exact: true }];
  const visible = await s.ok('ui_wait_for', { space_id, app, selector: newNote, timeout_ms: 1_000 });
  expect(visible).toMatchObject({ matched: true, count: 1, matches: [{ text: 'New note' }] });
  expect(visible.observation!.snapshot_id).toBe(visible.snapshot_id);
  expect(
    (await s.ok('ui_wait_for', { space_id, app, selector: [{ kind: 'id', id: 'title' }], count: 0 })).matched,
  ).toBe(true);
  // Several buttons: "one node" does not hold (strictness), a count of them does, and so does gone.
  const buttons = [{ kind: 'role' as const, role: 'button' }];
  const strict = await s.ok('ui_wait_for', { space_id, app, selector: buttons, timeout_ms: 200 });
  expect(strict.matched).toBe(false);
  expect(strict.count).toBeGreaterThan(1);
  expect(strict.observation!.nodes.length).toBeGreaterThan(0);
  expect(strict.log![0]).toBe('waiting for role=button to name one node');
  expect(
    (await s.ok('ui_wait_for', { space_id, app, selector: buttons, count: strict.count!, timeout_ms: 200 })).matched,
  ).toBe(true);
  expect((await s.ok('ui_wait_for', { space_id, app, selector: buttons, gone: true, timeout_ms: 200 })).matched).toBe(
    true,
  );
  // Waiting for the editor's title field to appear after a tap made in the meantime.
  const waited = s.ok('ui_wait_for', { space_id, app, selector: [{ kind: 'id', id: 'title' }], timeout_ms: 5_000 });
  await s.ok('ui_tap', { space_id, app, selector: newNote });
  expect((await waited).matched).toBe(true);
});

test('bad input to ui_scroll and ui_wait_for: a malformed selector, direction and selector together, neither, count without selector, text and selector', async () => {
  const { s, space_id, app } = await notes();
  const cases: Array<[string, Record<string, unknown>]> = [
    ['ui_scroll', { space_id, app, selector: [{ kind: 'nth' }] }],
    ['ui_scroll', { space_id, app, direction: 'down', selector: [{ kind: 'id', id: 'list' }] }],
    ['ui_scroll', { space_id }],
    ['ui_scroll', { space_id, selector: [{ kind: 'id', id: 'list' }], node_id: 'n1' }],
    ['ui_wait_for', { space_id, selector: [{ kind: 'bogus' }] }],
    ['ui_wait_for', { space_id, selector: [] }],
    ['ui_wait_for', { space_id, text: 'Notes', count: 1 }],
    ['ui_wait_for', { space_id, text: 'Notes', selector: [{ kind: 'id', id: 'title' }] }],
    ['ui_wait_for', { space_id, selector: [{ kind: 'id', id: 'title' }], count: -1 }],
  ];
  for (const [tool, args] of cases) {
    const e = await s.fail(tool as 'ui_scroll', args);
    expect(e.code, `${tool} ${JSON.stringify(args)}`).toBe('INVALID_ARGUMENT');
    expect(e.message, `${tool} ${JSON.stringify(args)}`).toMatch(new RegExp(`^${tool}: `));
  }
});

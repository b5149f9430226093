/**
 * The `selector_actions` extension at the protocol level (docs/protocol.md): ui_tap,
 * ui_long_press and ui_set_text with a locator's steps wait, act and verify on the device and
 * answer in one call. Every error is checked against the tool's declared codes (helpers.ts).
 */
import { expect, test } from '@playwright/test';
import { NOTES, runtime, session, spaceWithNotes } from './helpers.js';

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
  const r = await s.ok('ui_tap', { space_id, app, selector: [{ kind: 'text', text: 'New note', exact: true }], observe_before: true });
  expect(r).toMatchObject({ ok: true, effect: true, attempts: 1 });
  expect(r.matched).toMatchObject({ text: 'New note' });
  expect(r.observation_before!.snapshot_id).toBe(r.snapshot_id);
  expect(r.observation!.activity).toBe('.EditNoteActivity');
  expect(r.log!.join('\n')).toMatch(/resolved to/);
  // Typing by selector into the field it names; the field holds the text after.
  const t = await s.ok('ui_set_text', { space_id, app, selector: [{ kind: 'id', id: 'title' }], text: 'Groceries' });
  expect(t.observation!.nodes.find((n) => n.res_id?.endsWith(':id/title'))?.text).toBe('Groceries');
  await s.ok('ui_tap', { space_id, app, selector: [{ kind: 'role', role: 'button', name: { text: 'Save', exact: true } }] });
  // A long press on a list row's title: the selector names the title; the row is what is pressed.
  const lp = await s.ok('ui_long_press', { space_id, app, selector: [{ kind: 'text', text: 'Groceries', exact: true }], duration_ms: 800 });
  expect(lp.matched).toMatchObject({ text: 'Groceries' });
  expect(lp.node?.id).toBeDefined();
});

test('no match within the timeout: TIMEOUT with the call log and the screen; several: AMBIGUOUS_TARGET with the matches', async () => {
  const { s, space_id, app } = await notes();
  const gone = await s.fail('ui_tap', { space_id, app, selector: [{ kind: 'text', text: 'No such button', exact: true }], wait: { timeout_ms: 300, enabled: true, scroll: true } });
  expect(gone.code).toBe('TIMEOUT');
  const details = gone.details as { log: string[]; observation: { nodes: unknown[] } };
  expect(details.log.length).toBeGreaterThan(0);
  expect(details.observation.nodes.length).toBeGreaterThan(0);
  // The notes list has several buttons (new note, search, more options).
  const many = await s.fail('ui_tap', { space_id, app, selector: [{ kind: 'role', role: 'button' }], wait: { timeout_ms: 300, enabled: true, scroll: false } });
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

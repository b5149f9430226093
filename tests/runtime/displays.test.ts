import { test, expect } from '@playwright/test';
import { NOTES, runtime, session, spaceWithNotes } from './helpers.js';

test('each space has its own virtual display by default', async () => {
  const rt = runtime();
  const s = session(rt, 'a');
  const one = await s.ok('space_create', {});
  const two = await s.ok('space_create', {});
  expect(one.display_id).not.toBeNull();
  expect(two.display_id).not.toBeNull();
  expect(one.display_id).not.toBe(two.display_id);
  expect((await s.ok('runtime_info', {})).capabilities.virtual_displays).toBe(true);
});

test('without virtual displays, spaces share the main display and ui calls take turns instead of failing', async () => {
  const rt = runtime({ virtualDisplays: false });
  const a = session(rt, 'A');
  const b = session(rt, 'B');
  const one = await spaceWithNotes(a, 'one');
  const two = await spaceWithNotes(b, 'two');
  expect((await a.ok('space_status', { space_id: one })).space.display_id).toBeNull();
  expect((await a.ok('runtime_info', {})).capabilities.virtual_displays).toBe(false);
  await a.ok('space_launch', { space_id: one, package: NOTES });
  await b.ok('space_launch', { space_id: two, package: NOTES });
  // A wait on space one holds the display; a call on space two queues behind it and then runs.
  const order: string[] = [];
  const wait = a
    .ok('ui_wait_for', { space_id: one, text: 'New note', timeout_ms: 5000 })
    .then((r) => (order.push('one'), r));
  const observe = b.ok('ui_observe', { space_id: two }).then((r) => (order.push('two'), r));
  expect(rt.display.waiting).toBe(1);
  const [w, o] = await Promise.all([wait, observe]);
  expect(w.matched).toBe(true);
  expect(o.nodes.length).toBeGreaterThan(0);
  expect(order).toEqual(['one', 'two']);
  expect(rt.display.owner).toBe(two);
});

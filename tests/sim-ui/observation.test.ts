import { expect, test } from '@playwright/test';
import { NOTES, SHOP, simSpace } from './harness.js';

test('max_nodes cuts the list (truncated), detail=full keeps layout nodes too', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.call('app_intent', { component: `${NOTES}/.MainActivity`, package: NOTES, extras: { sample_notes: 400 } });
  const compact = await h.observe();
  expect(compact.nodes.length).toBeLessThanOrEqual(120);
  expect(compact.screen).toEqual({ width: 1080, height: 2400, rotation: 0 });
  expect(compact.screen_hash).toMatch(/^[0-9a-f]{16}$/);
  const few = await h.observe({ max_nodes: 5 });
  expect(few).toMatchObject({ truncated: true });
  expect(few.nodes).toHaveLength(5);
  const full = await h.observe({ detail: 'full' });
  expect(full.nodes.length).toBeGreaterThan(compact.nodes.length);
  expect(full.nodes.some((n) => n.class === 'android.widget.LinearLayout')).toBe(true);
  // Every node lies on the screen, inside the app window.
  for (const n of compact.nodes)
    expect(n.bounds[1] >= 84 && n.bounds[3] <= 2274 && n.bounds[0] >= 0 && n.bounds[2] <= 1080).toBe(true);
});

test('a snackbar goes away by itself', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  await h.tap('New note');
  await h.type('title', 'Gone soon');
  await h.call('ui_key', { key: 'back' });
  await h.tap('Save');
  await h.call('ui_long_press', { text: 'Gone soon' });
  await h.tap('Delete');
  await h.tap('Delete');
  expect(await h.texts()).toContain('Note deleted');
  h.clock.advance(4100);
  expect(await h.texts()).not.toContain('Note deleted');
});

test('copy from a long-press menu lands on the space clipboard', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  await h.tap('New note');
  await h.type('title', 'Copy me');
  await h.call('ui_key', { key: 'back' });
  await h.tap('Save');
  await h.call('ui_long_press', { text: 'Copy me' });
  await h.tap('Copy text');
  expect((await h.call('sys_clipboard_get', {})).text).toBe('Copy me\n');
});

test('a canvas game has no child nodes: only a tap at its pixels scores, visible only in screenshots', async () => {
  const h = await simSpace();
  await h.install('shop.apk');
  await h.launch(SHOP);
  await h.call('app_intent', { package: SHOP, component: `${SHOP}/.CatalogActivity` });
  await h.tap('Daily game');
  const obs = await h.observe();
  const surface = obs.nodes.find((n) => n.role === 'canvas')!;
  expect(surface).toMatchObject({ class: 'android.view.SurfaceView', text: null });
  expect(obs.nodes.filter((n) => n.parent === surface.id)).toEqual([]);
  const before = await h.call('ui_screenshot', {});
  // Round 0's target is at (60, 200) in the surface: tap its middle.
  const r = await h.call('ui_tap', { point: [surface.bounds[0] + 180, surface.bounds[1] + 320] });
  expect(r.method).toBe('gesture');
  const after = await h.call('ui_screenshot', {});
  expect(after.sha256).not.toBe(before.sha256);
  expect((await h.observe()).screen_hash).toBe(obs.screen_hash); // the tree cannot tell
  await h.call('ui_key', { key: 'back' }); // leaves the game mode, not the catalog
  expect((await h.observe()).activity).toBe('.CatalogActivity');
  expect(await h.texts()).toContain('Catalog');
});

test('ui_wait_for package: true once the app is in front, false after its timeout otherwise', async () => {
  const h = await simSpace({ faults: 'realistic' });
  const none = await h.call('ui_wait_for', { package: 'com.android.settings', timeout_ms: 1_000 });
  expect(none).toMatchObject({ matched: false });
  expect(none.elapsed_ms).toBeGreaterThanOrEqual(1_000);
  await h.launch('com.android.settings');
  expect((await h.call('ui_wait_for', { package: 'com.android.settings', timeout_ms: 1_000 })).matched).toBe(true);
});

test('long-press at a point falls back to a gesture on whatever is there', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  await h.tap('New note');
  await h.type('title', 'Pressed');
  await h.call('ui_key', { key: 'back' });
  await h.tap('Save');
  const row = (await h.find((n) => n.text === 'Pressed')).node.bounds;
  const r = await h.call('ui_long_press', { point: [row[0] + 100, row[1] + 20] });
  expect(r.method).toBe('gesture');
  expect(await h.texts()).toContain('Copy text');
});

test('an exception thrown by app code crashes that instance with its stack, like an uncaught exception', async () => {
  const h = await simSpace();
  const { defineApp, defineActivity } = await import('../../device-runtime/sim/apps/define-app.js');
  const { button, column } = await import('../../device-runtime/sim/apps/view.js');
  const model = defineApp({
    package: 'com.example.buggy',
    label: 'Buggy',
    launcher: '.MainActivity',
    initialData: () => ({}),
    activities: {
      '.MainActivity': defineActivity({
        initialState: () => ({}),
        render: () =>
          column([
            button('Boom', () => {
              throw new Error('Attempt to invoke virtual method on a null object reference');
            }),
          ]),
      }),
    },
  });
  const settings = h.space.apps.get('com.android.settings')!;
  h.space.apps.set(model.package, { ...settings, model, label: 'Buggy', system: false });
  await h.launch(model.package);
  const r = await h.call('ui_tap', { text: 'Boom' });
  expect(r.ok).toBe(true);
  expect((await h.observe()).package).toBeNull();
  const again = await h.launch(model.package);
  expect(again.restarted_after_crash).toBe(true);
  expect(again.crash_reason).toMatch(
    /^java\.lang\.RuntimeException: Attempt to invoke virtual method on a null object reference\n\tat /,
  );
});

import { expect, test } from '@playwright/test';
import { SHOP, simSpace, type SimHarness } from './harness.js';

async function shopLogin(): Promise<SimHarness> {
  const h = await simSpace();
  await h.install('shop.apk');
  await h.launch(SHOP);
  return h;
}

test('keyboard: focus shows it, nodes under it leave the tree, back hides it before leaving', async () => {
  const h = await shopLogin();
  let obs = await h.observe();
  expect(obs.nodes.some((n) => n.res_id?.endsWith(':id/password'))).toBe(true);
  const email = obs.nodes.find((n) => n.res_id?.endsWith(':id/email'))!;
  await h.call('ui_tap', { node_id: email.id, snapshot_id: obs.snapshot_id });
  obs = await h.observe();
  expect(obs.nodes.find((n) => n.res_id?.endsWith(':id/email'))!.focused).toBe(true);
  // The password field and the Log in button are under the keyboard: not in the tree.
  expect(obs.nodes.some((n) => n.res_id?.endsWith(':id/password'))).toBe(false);
  expect((await h.fail('ui_tap', { text: 'Log in' })).code).toBe('NODE_NOT_FOUND');
  await h.call('ui_key', { key: 'back' });
  obs = await h.observe();
  expect(obs.activity).toBe('.LoginActivity');
  expect(obs.nodes.some((n) => n.res_id?.endsWith(':id/password'))).toBe(true);
  const shot = await h.call('ui_screenshot', { scale: 0.25 });
  expect(shot.width).toBe(270);
});

test('set_text focuses the field and raises the keyboard too', async () => {
  const h = await shopLogin();
  await h.type('email', 'ann@example.com');
  const texts = await h.texts();
  expect(texts).toContain('ann@example.com');
  expect(texts).not.toContain('Log in');
});

test('a toast goes away by itself', async () => {
  const h = await shopLogin();
  await h.type('email', 'not-an-email');
  await h.call('ui_key', { key: 'back' });
  await h.tap('Log in');
  expect(await h.texts()).toContain('Enter a valid email address');
  const notes = await simSpace();
  await notes.install('notes.apk');
  await notes.launch('com.nestwright.notes');
  await notes.tap('New note');
  await notes.tap('Save');
  expect(await notes.texts()).toContain('Title is empty');
  notes.clock.advance(2500);
  expect(await notes.texts()).not.toContain('Title is empty');
});

test('back on a dialog closes the dialog, not the activity', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch('com.nestwright.notes');
  await h.tap('More options');
  expect(await h.texts()).toContain('Load sample notes');
  await h.call('ui_key', { key: 'back' });
  const obs = await h.observe();
  expect(obs.activity).toBe('.MainActivity');
  expect(obs.nodes.map((n) => n.text)).toContain('New note');
});

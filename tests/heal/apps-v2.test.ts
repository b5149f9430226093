import { expect, test } from '@playwright/test';
import { NOTES, SHOP, simSpace } from '../sim-ui/harness.js';

test('notes-v2.apk installs over notes.apk as an update and runs Notes 2.0: renamed ids, Create note', async () => {
  const h = await simSpace();
  expect((await h.install('notes.apk')).outcome).toBe('installed');
  const update = await h.install('notes-v2.apk');
  expect(update).toMatchObject({ outcome: 'updated', version_code: 2, version_name: '2.0' });
  await h.launch(NOTES);
  const main = await h.observe();
  expect(main.nodes.find((n) => n.role === 'button' && n.text === 'Create note')?.res_id).toBe(
    `${NOTES}:id/create_note`,
  );
  expect(main.nodes.some((n) => n.text === 'New note')).toBe(false);
  await h.tap('Create note');
  const { node } = await h.byRes('note_title');
  expect(node).toMatchObject({ editable: true, hint: 'Title' });
  expect((await h.observe()).nodes.some((n) => n.res_id?.endsWith(':id/title'))).toBe(false);
  await h.type('note_title', 'Buy milk');
  await h.call('ui_key', { key: 'back' });
  await h.tap('Save');
  expect(await h.texts()).toContain('Buy milk');
});

test('an update keeps the instance data and runs the new code', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  await h.tap('New note');
  await h.type('title', 'Kept');
  await h.call('ui_key', { key: 'back' });
  await h.tap('Save');
  await h.install('notes-v2.apk');
  await h.launch(NOTES);
  expect(await h.texts()).toEqual(expect.arrayContaining(['Kept', 'Create note']));
});

test('shop-v2.apk: the cart is no longer a toolbar icon but an item of the overflow menu', async () => {
  const h = await simSpace();
  await h.install('shop.apk');
  expect((await h.install('shop-v2.apk')).outcome).toBe('updated');
  await h.launch(SHOP);
  await h.settle();
  await h.tap('I accept the terms');
  await h.type('email', 'ann@example.com');
  await h.call('ui_key', { key: 'back' });
  await h.type('password', 'secret-pw');
  await h.call('ui_key', { key: 'back' });
  await h.tap('Log in');
  await h.call('ui_wait_for', { activity: '.CatalogActivity', timeout_ms: 10_000 });
  await h.settle();
  const catalog = await h.observe();
  expect(catalog.nodes.some((n) => n.desc?.startsWith('Cart'))).toBe(false);
  await h.tap('More options');
  expect(await h.texts()).toContain('Cart');
  await h.tap('Cart');
  expect((await h.observe()).activity).toBe('.CartActivity');
});

import { expect, test } from '@playwright/test';
import { CHAT, SETTINGS, simSpace } from './harness.js';

test('Settings is a system app in every space, without install', async () => {
  const h = await simSpace();
  const { apps } = await h.call('space_list_apps', {});
  expect(apps.find((a) => a.package === SETTINGS)).toMatchObject({ label: 'Settings', system: true });
});

test('Appendix D: open Settings → search WLAN → turn Wi-Fi on', async () => {
  const h = await simSpace({ faults: 'realistic' });
  await h.launch(SETTINGS);
  await h.settle();
  await h.tap('Search settings'); // an icon button: only its description names it
  await h.settle();
  await h.type('search_src_text', 'WLAN');
  await h.tap('Wi-Fi');
  await h.settle();
  const off = await h.find((n) => n.role === 'switch');
  expect(off.node).toMatchObject({ text: 'Use Wi-Fi', checkable: true, checked: false });
  await h.call('ui_tap', { node_id: off.node.id, snapshot_id: off.obs.snapshot_id });
  expect((await h.find((n) => n.role === 'switch')).node.checked).toBe(true);
  // Turning Wi-Fi on starts a scan: late data behind a spinner.
  expect((await h.observe()).nodes.some((n) => n.role === 'progressbar')).toBe(true);
  expect((await h.call('ui_wait_for', { text: 'HomeNet', timeout_ms: 5_000 })).matched).toBe(true);
});

test('About phone shows the Android version; dark theme and Bluetooth toggle', async () => {
  const h = await simSpace();
  await h.launch(SETTINGS);
  await h.tap('About phone');
  const texts = await h.texts();
  expect(texts).toEqual(expect.arrayContaining(['Android version', '15']));
  await h.call('ui_key', { key: 'back' });
  await h.tap('Display');
  await h.tap('Dark theme');
  expect((await h.find((n) => n.text === 'Dark theme')).node.checked).toBe(true);
});

test('Chat: two instances in one space exchange messages through the shared backend', async () => {
  const h = await simSpace({ faults: 'realistic' });
  await h.install('chat.apk');
  for (const [inst, name] of [
    ['ann', 'Ann'],
    ['bob', 'Bob'],
  ] as const) {
    await h.launch(CHAT, inst);
    await h.settle();
    await h.type('name', name, true);
    await h.settle();
  }
  await h.launch(CHAT, 'ann');
  await h.settle();
  await h.type('message_input', 'Hi Bob');
  // adjustResize: the room shrinks above the keyboard, so Send stays reachable.
  await h.tap('Send');
  const mine = await h.texts();
  expect(mine).toEqual(expect.arrayContaining(['Hi Bob']));
  const launched = await h.launch(CHAT, 'bob');
  expect(launched.instance).toBe('bob');
  const status = await h.call('space_status', {});
  expect(status.foreground).toMatchObject({ package: CHAT, instance: 'bob' });
  const got = await h.call('ui_wait_for', { text: 'Hi Bob', timeout_ms: 5_000 });
  expect(got.matched).toBe(true);
  expect(await h.texts()).toContain('Ann');
  await h.type('message_input', 'Hello Ann', true);
  await h.launch(CHAT, 'ann');
  expect((await h.call('ui_wait_for', { text: 'Hello Ann', timeout_ms: 5_000 })).matched).toBe(true);
});

test('bringing another instance to the front is a transition: bounds move until it settles', async () => {
  const h = await simSpace({ faults: 'realistic' });
  await h.install('notes.apk');
  await h.launch('com.nestwright.notes', 'a');
  await h.settle();
  const settled = (await h.find((n) => n.text === 'New note')).node.bounds;
  await h.launch('com.nestwright.notes', 'b');
  const moving = (await h.find((n) => n.text === 'New note')).node.bounds;
  expect(moving).not.toEqual(settled);
  expect((await h.call('ui_wait_for', { idle: true, timeout_ms: 0 })).matched).toBe(false);
  await h.settle();
  expect((await h.find((n) => n.text === 'New note')).node.bounds).toEqual(settled);
});

test('Chat: paste from the space clipboard into the message field', async () => {
  const h = await simSpace();
  await h.install('chat.apk');
  await h.launch(CHAT);
  await h.type('name', 'Ann', true);
  await h.call('sys_clipboard_set', { text: 'pasted words' });
  const field = await h.byRes('message_input');
  await h.call('ui_long_press', { node_id: field.node.id, snapshot_id: field.obs.snapshot_id });
  await h.tap('Paste');
  expect((await h.byRes('message_input')).node.text).toBe('pasted words');
});

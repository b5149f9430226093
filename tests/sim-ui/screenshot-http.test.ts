import { expect, test } from '@playwright/test';
import { PNG } from 'pngjs';
import { DeviceClient, McpToolTransport } from '../../device-runtime/client/index.js';
import { startSimServer } from '../../device-runtime/sim/index.js';
import { APKS, simSpace } from './harness.js';

const decode = (b64: string) => PNG.sync.read(Buffer.from(b64, 'base64'));
const pixel = (png: PNG, x: number, y: number) => [
  ...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3),
];
const inkIn = (png: PNG, x0: number, y0: number, x1: number, y1: number) => {
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (pixel(png, x, y).every((c) => c < 100)) n++;
  return n;
};

test('screenshots are PNGs of the same frame: bars, text, keyboard, dim behind dialogs, scale, hash', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch('com.nestwright.notes');
  const full = await h.call('ui_screenshot', {});
  expect(full).toMatchObject({ mime: 'image/png', width: 1080, height: 2400 });
  const png = decode(full.data);
  expect(pixel(png, 10, 10)).toEqual([0x20, 0x21, 0x24]); // status bar
  expect(pixel(png, 10, 2390)).toEqual([0, 0, 0]); // navigation bar
  const empty = (await h.byRes('empty')).node.bounds;
  expect(inkIn(png, empty[0], empty[1], empty[2], empty[3])).toBeGreaterThan(200); // "No notes yet" is drawn
  // Same screen, same bytes; the observation's hash is the scale-1 PNG's.
  expect((await h.call('ui_screenshot', {})).sha256).toBe(full.sha256);
  expect((await h.observe({ include_screenshot: true })).screenshot).toBe(`sha256:${full.sha256}`);
  const small = await h.call('ui_screenshot', { scale: 0.25 });
  expect(decode(small.data)).toMatchObject({ width: 270, height: 600 });
  // A dialog dims what is behind it.
  await h.tap('More options');
  const dimmed = decode((await h.call('ui_screenshot', {})).data);
  expect(pixel(png, 540, 1800)).toEqual([255, 255, 255]);
  expect(pixel(dimmed, 540, 1800)[0]).toBeLessThan(140);
  await h.call('ui_key', { key: 'back' });
  // The keyboard is drawn over the bottom of the screen.
  await h.tap('New note');
  await h.type('title', 'Hello');
  const kb = decode((await h.call('ui_screenshot', {})).data);
  expect(pixel(kb, 5, 1500)).toEqual([0xec, 0xef, 0xf1]);
});

test('over real HTTP: install, launch, observe, act and wait through startSimServer + DeviceClient', async () => {
  const sim = await startSimServer();
  const c = new DeviceClient(await McpToolTransport.http(sim.url, sim.token));
  try {
    const sp = await c.call('space_create', { name: 'http' });
    await c.call('session_acquire', { space_id: sp.space_id });
    await c.call('space_install_apk', { space_id: sp.space_id, apk_paths: [`${APKS}/shop.apk`] });
    await c.call('space_launch', { space_id: sp.space_id, package: 'com.nestwright.shop' });
    const obs = await c.call('ui_observe', { space_id: sp.space_id, include_screenshot: true });
    expect(obs.activity).toBe('.LoginActivity');
    expect(obs.screenshot).toMatch(/^sha256:/);
    const email = obs.nodes.find((n) => n.res_id === 'com.nestwright.shop:id/email')!;
    const typed = await c.call('ui_set_text', {
      space_id: sp.space_id,
      node_id: email.id,
      snapshot_id: obs.snapshot_id,
      text: 'ann@example.com',
    });
    expect(typed.method).toBe('node');
    const hidden = await c.call('ui_find', { space_id: sp.space_id, res_id: 'password' });
    expect(hidden.nodes).toEqual([]); // under the keyboard
    await c.call('ui_key', { space_id: sp.space_id, key: 'back' });
    const found = await c.call('ui_find', { space_id: sp.space_id, res_id: 'password' });
    expect(found.nodes[0]).toMatchObject({ password: true, editable: true });
    const waited = await c.call('ui_wait_for', { space_id: sp.space_id, idle: true, timeout_ms: 2_000 });
    expect(waited.matched).toBe(true);
    const shot = await c.call('ui_screenshot', { space_id: sp.space_id, scale: 0.5 });
    expect([shot.width, shot.height]).toEqual([540, 1200]);
  } finally {
    await c.close();
    await sim.close();
  }
});

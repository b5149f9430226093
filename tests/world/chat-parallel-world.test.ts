import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimServer } from '../../device-runtime/sim/server.js';
import { plain, runInline, type InlineRun } from '../framework/inline.js';
import { sharedBatch } from '../framework/shared-batch.js';

/**
 * Chat's notifications, push messages and camera; two tests in parallel on one device, each in its
 * own city, time and format; a runtime without the `world` extension failing with NOT_SUPPORTED.
 * One child run of two workers for all three files.
 */
test.describe.configure({ mode: 'default' });

const CHAT = `import { test, expect } from 'nestwright';
import { PNG } from 'pngjs';
test.use({ apk: 'fixtures/apks/chat.apk' });
const join = async (app, name) => {
  await app.getById('name').fill(name);
  await app.getByRole('button', { name: 'Join' }).tap();
  await expect(app.getByText('General (' + name + ')')).toBeVisible();
};
test('a message while Chat is not in front posts a notification; tapping it opens the conversation', async ({ app }) => {
  await join(app, 'Ana');
  const ben = await app.newInstance();
  await join(ben, 'Ben');
  await app.getById('message_input').fill('Lunch at noon?');
  await app.getByDesc('Send').tap();
  await expect(ben).toHaveNotification({ title: 'New message from Ana', text: 'Lunch at noon?' });
  await expect(app).not.toHaveNotification({ title: /New message/ }, { timeout: 300 });
  const [n] = await ben.notifications.list();
  expect(n.channel).toBe('messages');
  await n.tap();
  await expect(ben).toBeInForeground();
  await expect(ben.getById('incoming').filter({ hasText: 'Lunch at noon?' })).toBeVisible();
});
test('a push message delivers: in front it shows, behind it notifies and the tap opens its room', async ({ app }) => {
  await join(app, 'Ana');
  await app.push({ room: 'General', from: 'Dee', text: 'Hi from the server' });
  await expect(app.getById('incoming').filter({ hasText: 'Hi from the server' })).toBeVisible();
  expect(await app.notifications.list()).toEqual([]);
  await app.press('home');
  await app.push({ room: 'Support', from: 'Dee', text: 'Your parcel shipped' });
  await expect(app).toHaveNotification({ title: 'New message from Dee', text: 'Your parcel shipped' });
  const [n] = await app.notifications.list();
  await n.tap();
  await expect(app.getByText('Support (Ana)')).toBeVisible();
  await expect(app.getById('incoming').filter({ hasText: 'Your parcel shipped' })).toBeVisible();
});
test('Attach photo sends the camera picture: its size, or the default one', async ({ app }) => {
  await join(app, 'Ana');
  await app.getByDesc('Attach photo').tap();
  await expect(app.getById('message_text').filter({ hasText: 'Photo 640×480' })).toBeVisible();
  await app.camera.setImage(PNG.sync.write(new PNG({ width: 320, height: 240 })));
  await app.getByDesc('Attach photo').tap();
  await expect(app.getById('message_text').filter({ hasText: 'Photo 320×240' })).toBeVisible();
});
`;

const PARALLEL = (dir: string) => `import { test, expect } from 'nestwright';
import { existsSync, writeFileSync } from 'node:fs';
test.use({ apk: 'fixtures/apks/shop.apk', permissions: ['android.permission.ACCESS_FINE_LOCATION'] });
/** Both tests reach this point before either goes on: their instances' worlds are set at the same time on one device. */
async function meet(me, other) {
  writeFileSync(${JSON.stringify(dir)} + '/' + me, '');
  for (let i = 0; i < 600 && !existsSync(${JSON.stringify(dir)} + '/' + other); i++) await new Promise((r) => setTimeout(r, 100));
  expect(existsSync(${JSON.stringify(dir)} + '/' + other), other + ' ran at the same time').toBe(true);
}
const cities = {
  Tokyo: { use: { geolocation: { latitude: 35.676, longitude: 139.65 }, locale: 'ja-JP', timezoneId: 'Asia/Tokyo' }, time: '2026-01-15T09:00:00+09:00', created: 'Created 09:00', total: 'Total: $0.00', other: 'Berlin' },
  Berlin: { use: { geolocation: { latitude: 52.52, longitude: 13.405 }, locale: 'de-DE', timezoneId: 'Europe/Berlin' }, time: '2026-01-15T23:00:00+01:00', created: 'Created 23:00', total: 'Total: 0,00 $', other: 'Tokyo' },
};
for (const [city, c] of Object.entries(cities)) {
  test.describe(city, () => {
    test.use(c.use);
    test(city + ' sees only its own city, time and format', async ({ app, space }) => {
      const notes = await space.launch('fixtures/apks/notes.apk');
      await notes.clock.setFixedTime(c.time);
      await meet(city, c.other);
      await app.launch({ activity: '.CheckoutActivity' });
      await app.getByRole('button', { name: 'Use my location' }).tap();
      await expect(app.getById('address')).toContainText(city);
      await expect(app.getById('address')).not.toContainText(c.other);
      await expect(app.getById('checkout_total')).toHaveText(c.total);
      await notes.getByText('New note').tap();
      await notes.getById('title').fill('Standup');
      await notes.getByRole('button', { name: 'Save' }).tap();
      await notes.getByText('Standup').tap();
      await expect(notes.getById('created')).toHaveText(c.created);
    });
  });
}
`;

const BARE = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', deviceOptions: { provider: 'sim', url: process.env.NW_BARE_URL, token: process.env.NW_BARE_TOKEN } });
test('every world call fails with NOT_SUPPORTED naming its tool', async ({ app }) => {
  for (const [call, tool] of [[() => app.setGeolocation({ latitude: 1, longitude: 2 }), 'world_location_set'], [() => app.clock.setFixedTime(0), 'world_clock_set'], [() => app.notifications.list(), 'world_notifications_list'], [() => app.biometrics.enroll(), 'world_biometrics_set'], [() => app.push({ a: 'b' }), 'world_push']]) {
    const e = await call().catch((x) => x);
    expect(e.code).toBe('NOT_SUPPORTED');
    expect(e.message).toContain(tool);
    expect(e.message).toContain('world');
  }
  await expect(app.getByText('New note')).toBeVisible();
});
test.describe('an option', () => {
  test.use({ locale: 'de-DE' });
  test('a world option on such a runtime fails the launch with NOT_SUPPORTED', async ({ app }) => {});
});
`;

let run: InlineRun;

test.beforeAll(async () => {
  test.setTimeout(400_000);
  ({ run } = await sharedBatch('world', async () => {
    const sim = await startSimServer({ withoutExtensions: ['world'] });
    const dir = mkdtempSync(join(tmpdir(), 'nw-meet-'));
    try {
      // One run, two workers: the cities' file sorts first, so its two tests start together.
      const run = await runInline(
        { 'a-parallel.spec.ts': PARALLEL(dir), 'chat-world.spec.ts': CHAT, 'bare.spec.ts': BARE },
        { workers: 2, env: { NW_BARE_URL: sim.url, NW_BARE_TOKEN: sim.token } },
      );
      return { run };
    } finally {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }));
});

for (const title of [
  'a message while Chat is not in front posts a notification; tapping it opens the conversation',
  'a push message delivers: in front it shows, behind it notifies and the tap opens its room',
  'Attach photo sends the camera picture: its size, or the default one',
]) {
  test(`chat: ${title}`, () => {
    const r = run.result(title);
    expect(r.status, plain(r.error)).toBe('passed');
  });
}

test('two tests in parallel on one device: Tokyo at 09:00 JST and Berlin at 23:00 CET, each sees only its own city, time and format', () => {
  for (const title of [
    'Tokyo > Tokyo sees only its own city, time and format',
    'Berlin > Berlin sees only its own city, time and format',
  ]) {
    const r = run.result(title);
    expect(r.status, plain(r.error)).toBe('passed');
  }
});

test('a runtime without the world extension: NOT_SUPPORTED naming the tool, for calls and for options', () => {
  const calls = run.result('every world call fails with NOT_SUPPORTED naming its tool');
  expect(calls.status, plain(calls.error)).toBe('passed');
  const option = run.result('an option > a world option on such a runtime fails the launch with NOT_SUPPORTED');
  expect(option.status).toBe('failed');
  expect(plain(option.error)).toContain('use.locale: this device runtime does not offer the `world` extension');
});

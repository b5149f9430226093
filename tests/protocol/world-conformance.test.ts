import { test, expect } from '@playwright/test';
import { PNG } from 'pngjs';
import { TOOLS, errorCodesOf, worldTools, WorldStateSchema } from '../../device-runtime/protocol/index.js';
import { NOTES, runtime, session, spaceWithNotes } from '../runtime/helpers.js';

/**
 * The `world` extension's contract, tool by tool, against the simulator: what each accepts and
 * answers, the errors it declares, and that everything set ends with the instance. A runtime
 * that offers the extension must pass these (the checks `nestwright conformance` runs).
 */

async function instanceOfNotes() {
  const rt = runtime();
  const s = session(rt, 'w');
  const space_id = await spaceWithNotes(s);
  const { instance } = await s.ok('space_launch', { space_id, package: NOTES, instance: 'new' });
  return { rt, s, space_id, ref: { space_id, package: NOTES, instance } };
}

const png = (width: number, height: number) =>
  PNG.sync.write(Object.assign(new PNG({ width, height }), {})).toString('base64');

test('every world tool is an extension of the world family, declares NOT_SUPPORTED and names an instance', () => {
  expect(worldTools.length).toBe(10);
  for (const t of worldTools) {
    expect(t.extension, t.name).toBe(true);
    expect(t.group, t.name).toBe('world');
    expect(Object.keys(t.input.shape), t.name).toEqual(expect.arrayContaining(['space_id', 'package', 'instance']));
    expect(errorCodesOf(t.name), t.name).toEqual(
      expect.arrayContaining(['NOT_SUPPORTED', 'INSTANCE_NOT_FOUND', 'APP_NOT_INSTALLED', 'SPACE_NOT_FOUND']),
    );
  }
  expect(errorCodesOf('world_notification_tap')).toContain('NOTIFICATION_NOT_FOUND');
  expect(
    TOOLS.world_location_set.mutating && !TOOLS.world_get.mutating && !TOOLS.world_notifications_list.mutating,
  ).toBe(true);
});

test('runtime_info advertises the world extension; a runtime without it leaves it out and answers NOT_SUPPORTED naming the tool', async () => {
  const { s, ref } = await instanceOfNotes();
  expect((await s.ok('runtime_info', {})).extensions).toContain('world');
  const bare = runtime({ withoutExtensions: ['world'] });
  const b = session(bare, 'b');
  const info = await b.ok('runtime_info', {});
  expect(info.extensions).not.toContain('world');
  expect(info.tools.filter((t) => t.startsWith('world_'))).toEqual([]);
  const space_id = await spaceWithNotes(b);
  const e = await b.fail('world_location_set', { ...ref, space_id, location: { latitude: 1, longitude: 2 } });
  expect(e.code).toBe('NOT_SUPPORTED');
  expect(e.message).toContain('world_location_set');
  expect(e.message).toContain('world extension');
});

test('a fresh instance has the default world: no location, a running clock, en-US, UTC, light, no fingerprint, the default camera', async () => {
  const { s, ref } = await instanceOfNotes();
  const w = WorldStateSchema.parse(await s.ok('world_get', ref));
  expect(w).toMatchObject({
    location: null,
    locale: 'en-US',
    timezone: 'UTC',
    color_scheme: 'light',
    biometrics: { enrolled: false, next: [] },
    camera: null,
  });
  expect(w.clock.running).toBe(true);
});

test('location: set, read back with its default accuracy, cleared with null; latitude 91 is refused naming the value', async () => {
  const { s, ref } = await instanceOfNotes();
  expect(await s.ok('world_location_set', { ...ref, location: { latitude: 52.52, longitude: 13.405 } })).toEqual({
    location: { latitude: 52.52, longitude: 13.405, accuracy: 10 },
  });
  expect((await s.ok('world_get', ref)).location).toEqual({ latitude: 52.52, longitude: 13.405, accuracy: 10 });
  const e = await s.fail('world_location_set', { ...ref, location: { latitude: 91, longitude: 0 } });
  expect(e.code).toBe('INVALID_ARGUMENT');
  expect(e.message).toContain('params.location.latitude: 91 is not a latitude');
  // Nothing was lost: the refused call changed nothing.
  expect((await s.ok('world_get', ref)).location?.latitude).toBe(52.52);
  await s.ok('world_location_set', { ...ref, location: null });
  expect((await s.ok('world_get', ref)).location).toBeNull();
});

test('clock: a fixed time stands still, advance moves it and counts what fired, running resumes it', async () => {
  const { s, ref } = await instanceOfNotes();
  const t = Date.UTC(2026, 0, 15, 8, 0);
  expect(await s.ok('world_clock_set', { ...ref, time: t, running: false })).toEqual({
    now: t,
    running: false,
    fired: 0,
  });
  await new Promise((r) => setTimeout(r, 20));
  expect((await s.ok('world_get', ref)).clock).toEqual({ now: t, running: false });
  expect((await s.ok('world_clock_set', { ...ref, advance_ms: 3_600_000 })).now).toBe(t + 3_600_000);
  const resumed = await s.ok('world_clock_set', { ...ref, running: true });
  expect(resumed.running).toBe(true);
  expect((await s.fail('world_clock_set', ref)).message).toContain('give time, advance_ms or running');
});

test('locale, time zone and colour scheme: canonicalised; an unknown locale or time zone is refused naming it and changes nothing', async () => {
  const { s, ref } = await instanceOfNotes();
  expect(
    await s.ok('world_locale_set', { ...ref, locale: 'de-de', timezone: 'Europe/Berlin', color_scheme: 'dark' }),
  ).toEqual({ locale: 'de-DE', timezone: 'Europe/Berlin', color_scheme: 'dark' });
  const zone = await s.fail('world_locale_set', { ...ref, locale: 'ja-JP', timezone: 'Mars/Olympus_Mons' });
  expect(zone.code).toBe('INVALID_ARGUMENT');
  expect(zone.message).toContain('unknown time zone "Mars/Olympus_Mons"');
  const locale = await s.fail('world_locale_set', { ...ref, locale: 'xx-YY' });
  expect(locale.message).toContain('unknown locale "xx-YY"');
  const syntax = await s.fail('world_locale_set', { ...ref, locale: 'not a locale' });
  expect(syntax.message).toContain('"not a locale" is not a BCP 47 language tag');
  expect(await s.ok('world_get', ref)).toMatchObject({ locale: 'de-DE', timezone: 'Europe/Berlin' });
  expect((await s.ok('world_locale_set', { ...ref, timezone: 'UTC' })).timezone).toBe('UTC');
});

test('biometrics: enrolment and queued outcomes; next needs nothing else', async () => {
  const { s, ref } = await instanceOfNotes();
  expect(await s.ok('world_biometrics_set', { ...ref, enrolled: true, next: 'fail' })).toEqual({
    enrolled: true,
    next: ['fail'],
  });
  expect(await s.ok('world_biometrics_set', { ...ref, next: 'match' })).toEqual({
    enrolled: true,
    next: ['fail', 'match'],
  });
  expect((await s.fail('world_biometrics_set', { ...ref, next: 'maybe' })).code).toBe('INVALID_ARGUMENT');
});

test('camera: a PNG or JPEG gives its size; bytes that are not an image are refused naming what they start with', async () => {
  const { s, ref } = await instanceOfNotes();
  expect(await s.ok('world_camera_set', { ...ref, image: png(320, 200) })).toEqual({
    camera: { width: 320, height: 200, mime: 'image/png' },
  });
  const jpeg = (await import('jpeg-js')).default.encode(
    { data: Buffer.alloc(16 * 8 * 4, 128), width: 16, height: 8 },
    80,
  ).data;
  expect((await s.ok('world_camera_set', { ...ref, image: Buffer.from(jpeg).toString('base64') })).camera).toEqual({
    width: 16,
    height: 8,
    mime: 'image/jpeg',
  });
  const text = await s.fail('world_camera_set', {
    ...ref,
    image: Buffer.from('hello, not a picture').toString('base64'),
  });
  expect(text.code).toBe('INVALID_ARGUMENT');
  expect(text.message).toContain('not a valid PNG or JPEG');
  expect(text.message).toContain('68656c6c6f2c206e');
  const cut = await s.fail('world_camera_set', {
    ...ref,
    image: Buffer.from(png(10, 10), 'base64').subarray(0, 40).toString('base64'),
  });
  expect(cut.message).toContain('PNG:');
  expect((await s.ok('world_get', ref)).camera).toEqual({ width: 16, height: 8, mime: 'image/jpeg' });
});

test('notifications: an unknown id is NOTIFICATION_NOT_FOUND naming it; push to an app without a handler is not handled', async () => {
  const { s, ref } = await instanceOfNotes();
  expect(await s.ok('world_notifications_list', ref)).toEqual({ notifications: [] });
  const e = await s.fail('world_notification_tap', { ...ref, notification_id: 'n9' });
  expect(e.code).toBe('NOTIFICATION_NOT_FOUND');
  expect(e.message).toContain('"n9"');
  expect((await s.fail('world_notification_dismiss', { ...ref, notification_id: 'n9' })).code).toBe(
    'NOTIFICATION_NOT_FOUND',
  );
  expect(await s.ok('world_push', { ...ref, data: { hello: 'world' } })).toEqual({ handled: false });
});

test('the world ends with the instance: a removed instance is gone, a cleared one starts from the defaults, another instance never saw it', async () => {
  const { s, ref, space_id } = await instanceOfNotes();
  const other = await s.ok('space_launch', { space_id, package: NOTES, instance: 'new' });
  await s.ok('world_location_set', { ...ref, location: { latitude: 35.676, longitude: 139.65 } });
  await s.ok('world_locale_set', { ...ref, locale: 'ja-JP', timezone: 'Asia/Tokyo' });
  expect(await s.ok('world_get', { space_id, package: NOTES, instance: other.instance })).toMatchObject({
    location: null,
    locale: 'en-US',
    timezone: 'UTC',
  });
  await s.ok('space_stop', { ...ref, clear_data: true });
  expect(await s.ok('world_get', ref)).toMatchObject({ location: null, locale: 'en-US', timezone: 'UTC' });
  await s.ok('world_location_set', { ...ref, location: { latitude: 1, longitude: 1 } });
  await s.ok('space_stop', { ...ref, remove_instance: true });
  expect((await s.fail('world_get', ref)).code).toBe('INSTANCE_NOT_FOUND');
  expect((await s.fail('world_get', { ...ref, package: 'com.example.missing' })).code).toBe('APP_NOT_INSTALLED');
});

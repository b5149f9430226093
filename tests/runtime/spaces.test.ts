import { test, expect } from '@playwright/test';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NOTES, apk, runtime, session, spaceWithNotes, tempDir } from './helpers.js';

test('spaces: create, rename, list, delete', async () => {
  const rt = runtime();
  const s = session(rt, 'a');
  const a = await s.ok('space_create', { name: 'alpha' });
  const b = await s.ok('space_create', {});
  expect(a.display_id).not.toBe(b.display_id);
  await s.ok('session_acquire', { space_id: a.space_id });
  expect((await s.ok('space_rename', { space_id: a.space_id, name: 'beta' })).name).toBe('beta');
  expect((await s.ok('space_list', {})).spaces.map((x) => x.name).sort()).toEqual(['beta', b.space_id].sort());
  await s.ok('space_delete', { space_id: a.space_id });
  expect((await s.ok('space_list', {})).spaces.map((x) => x.space_id)).toEqual([b.space_id]);
  const gone = await s.fail('space_status', { space_id: a.space_id });
  expect(gone.code).toBe('SPACE_NOT_FOUND');
  expect(gone.hint).toContain('space_list');
});

test('space_create with an idempotency key creates one space', async () => {
  const rt = runtime();
  const s = session(rt, 'a');
  const first = await s.ok('space_create', { name: 'w', idempotency_key: 'k1' });
  const again = await s.ok('space_create', { name: 'w', idempotency_key: 'k1' });
  expect(again.space_id).toBe(first.space_id);
  expect((await s.ok('space_list', {})).spaces).toHaveLength(1);
  const clash = await s.fail('space_create', { name: 'other', idempotency_key: 'k1' });
  expect(clash.code).toBe('INVALID_ARGUMENT');
  expect(clash.message).toContain('idempotency_key');
});

test('a restarted simulator keeps its spaces, installs and instance data (state.json)', async () => {
  const dir = tempDir();
  const rt1 = runtime({ stateDir: dir });
  const s1 = session(rt1, 'a');
  const space_id = await spaceWithNotes(s1, 'kept');
  const launched = await s1.ok('space_launch', { space_id, package: NOTES, instance: 'new' });
  rt1.spaces.get(space_id)!.instance(NOTES, launched.instance).data = { notes: [{ id: 1, text: 'Milk' }] };
  await s1.ok('space_rename', { space_id, name: 'kept-2' });
  rt1.close();
  expect(
    readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    'no temp file left behind',
  ).toEqual([]);
  expect(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).version).toBe(1);

  const rt2 = runtime({ stateDir: dir });
  const s2 = session(rt2, 'b');
  expect((await s2.ok('space_list', {})).spaces.map((x) => x.name)).toEqual(['kept-2']);
  const apps = (await s2.ok('space_list_apps', { space_id })).apps.filter((a) => !a.system);
  expect(apps.map((a) => a.package)).toEqual([NOTES]);
  expect(apps[0]!.instances.map((i) => i.instance)).toEqual([launched.instance]);
  expect(apps[0]!.instances[0]!.state).toBe('stopped');
  expect(rt2.spaces.get(space_id)!.instance(NOTES, launched.instance).data).toEqual({
    notes: [{ id: 1, text: 'Milk' }],
  });
  // A new instance id does not collide with the restored one.
  await s2.ok('session_acquire', { space_id });
  const next = await s2.ok('space_launch', { space_id, package: NOTES, instance: 'new' });
  expect(next.instance).not.toBe(launched.instance);
  rt2.close();
});

test('an ephemeral runtime writes nothing', async () => {
  const rt = runtime();
  await spaceWithNotes(session(rt, 'a'));
  expect(rt.stateFile).toBeNull();
  rt.close();
});

test('a state.json that is not JSON is refused with what to do', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'state.json'), '{oops');
  expect(() => runtime({ stateDir: dir })).toThrow(/not valid JSON.*--ephemeral/);
  expect(existsSync(join(dir, 'state.json'))).toBe(true);
});

test('install goes through the APK preflight and answers with its code and report', async () => {
  const rt = runtime();
  const s = session(rt, 'a');
  const { space_id } = await s.ok('space_create', {});
  await s.ok('session_acquire', { space_id });
  const secure = await s.fail('space_install_apk', { space_id, apk_paths: [apk('secure-env.apk')] });
  expect(secure.code).toBe('SECURE_ENV_REQUIRED');
  expect(secure.message).toMatch(/^space_install_apk: /);
  expect((secure.details as { preflight: { installable: boolean } }).preflight.installable).toBe(false);
  await s.ok('space_install_apk', { space_id, apk_paths: [apk('signed-a.apk')] });
  expect((await s.fail('space_install_apk', { space_id, apk_paths: [apk('signed-b.apk')] })).code).toBe(
    'SIGNATURE_MISMATCH',
  );
});

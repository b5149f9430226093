import { test, expect } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { tamperCompressedEntry } from '../apk/tamper.js';
import { NOTES, apk, runtime, session, spaceWithNotes } from './helpers.js';

const SIGNING = 'com.nestwright.signing';

test('install with an idempotency key is done once: a retry gets the first result', async () => {
  const rt = runtime();
  const s = session(rt, 'a');
  const { space_id } = await s.ok('space_create', {});
  await s.ok('session_acquire', { space_id });
  const args = { space_id, apk_paths: [apk('notes.apk')], idempotency_key: 'install-1' };
  const first = await s.ok('space_install_apk', args);
  const retry = await s.ok('space_install_apk', args);
  expect(first.outcome).toBe('installed');
  // Done again it would say 'unchanged'; the key makes it the same call.
  expect(retry).toEqual(first);
  expect((await s.ok('space_install_apk', { space_id, apk_paths: [apk('notes.apk')] })).outcome).toBe('unchanged');
});

test('launch with an idempotency key starts one instance', async () => {
  const rt = runtime();
  const s = session(rt, 'a');
  const space_id = await spaceWithNotes(s);
  const a = await s.ok('space_launch', { space_id, package: NOTES, instance: 'new', idempotency_key: 'L' });
  const b = await s.ok('space_launch', { space_id, package: NOTES, instance: 'new', idempotency_key: 'L' });
  expect(b.instance).toBe(a.instance);
  const apps = (await s.ok('space_list_apps', { space_id })).apps.find((x) => x.package === NOTES)!;
  expect(apps.instances).toHaveLength(1);
});

test('an update keeps the app data; uninstall wipes it', async () => {
  const rt = runtime();
  const s = session(rt, 'a');
  const { space_id } = await s.ok('space_create', {});
  await s.ok('session_acquire', { space_id });
  await s.ok('space_install_apk', { space_id, apk_paths: [apk('signed-a.apk')] });
  const { instance } = await s.ok('space_launch', { space_id, package: SIGNING });
  const space = rt.spaces.get(space_id)!;
  space.instance(SIGNING, instance).data = { saved: 'before update' };

  const update = await s.ok('space_install_apk', { space_id, apk_paths: [apk('signed-a-v2.apk')] });
  expect(update.outcome).toBe('updated');
  expect(update.version_code).toBe(2);
  expect(space.instance(SIGNING, instance).data).toEqual({ saved: 'before update' });

  await s.ok('space_uninstall', { space_id, package: SIGNING });
  expect((await s.fail('space_launch', { space_id, package: SIGNING })).code).toBe('APP_NOT_INSTALLED');
  await s.ok('space_install_apk', { space_id, apk_paths: [apk('signed-a.apk')] });
  await s.ok('space_launch', { space_id, package: SIGNING, instance });
  expect(space.instance(SIGNING, instance).data).not.toEqual({ saved: 'before update' });
});

test('ABI is checked at launch, not at install (docs/protocol.md#install)', async () => {
  const rt = runtime({ abis: ['x86_64'] });
  const s = session(rt, 'a');
  const { space_id } = await s.ok('space_create', {});
  await s.ok('session_acquire', { space_id });
  const installed = await s.ok('space_install_apk', { space_id, apk_paths: [apk('arm64-only.apk')] });
  expect(installed.preflight.checks.find((c) => c.code === 'ABI_MISMATCH')!.status).toBe('warn');
  const e = await s.fail('space_launch', { space_id, package: 'com.nestwright.arm64' });
  expect(e.code).toBe('ABI_MISMATCH');
  expect(e.details).toEqual({ app_abis: ['arm64-v8a'], device_abis: ['x86_64'] });
});

test('instances of one package each have their own data, and spaces are isolated', async () => {
  const rt = runtime();
  const s = session(rt, 'a');
  const one = await spaceWithNotes(s, 'one');
  const two = await spaceWithNotes(s, 'two');
  const a = await s.ok('space_launch', { space_id: one, package: NOTES, instance: 'new' });
  const b = await s.ok('space_launch', { space_id: one, package: NOTES, instance: 'new' });
  const c = await s.ok('space_launch', { space_id: two, package: NOTES, instance: a.instance });
  expect(a.instance).not.toBe(b.instance);
  const sp1 = rt.spaces.get(one)!;
  const sp2 = rt.spaces.get(two)!;
  (sp1.instance(NOTES, a.instance).data as { marker?: string }).marker = 'a';
  expect(sp1.instance(NOTES, b.instance).data).not.toHaveProperty('marker');
  expect(sp2.instance(NOTES, c.instance).data).not.toHaveProperty('marker');
  // clear_data wipes exactly one instance.
  await s.ok('space_stop', { space_id: one, package: NOTES, instance: a.instance, clear_data: true });
  expect(sp1.instance(NOTES, a.instance).data).not.toHaveProperty('marker');
  // Uninstalling in one space leaves the other alone.
  await s.ok('space_uninstall', { space_id: one, package: NOTES });
  expect((await s.ok('space_list_apps', { space_id: two })).apps.some((x) => x.package === NOTES)).toBe(true);
});

test('runtime permissions: granted at install when asked, listed, revoked', async () => {
  const rt = runtime();
  const s = session(rt, 'a');
  const { space_id } = await s.ok('space_create', {});
  await s.ok('session_acquire', { space_id });
  await s.ok('space_install_apk', { space_id, apk_paths: [apk('shop.apk')] });
  const pkg = 'com.nestwright.shop';
  const FINE = 'android.permission.ACCESS_FINE_LOCATION';
  expect(await s.ok('space_permissions', { space_id, package: pkg, action: 'list' })).toEqual({
    granted: [],
    requested: [FINE],
  });
  expect(
    (await s.ok('space_permissions', { space_id, package: pkg, action: 'grant', permission: FINE })).granted,
  ).toEqual([FINE]);
  expect(
    (await s.ok('space_permissions', { space_id, package: pkg, action: 'revoke', permission: FINE })).granted,
  ).toEqual([]);
  const e = await s.fail('space_permissions', {
    space_id,
    package: pkg,
    action: 'grant',
    permission: 'android.permission.CAMERA',
  });
  expect(e.code).toBe('INVALID_ARGUMENT');
  await s.ok('space_install_apk', { space_id, apk_paths: [apk('shop.apk')], grant_runtime_permissions: true });
  expect((await s.ok('space_permissions', { space_id, package: pkg, action: 'list' })).granted).toEqual([FINE]);
});

test('space_install_apk: VERSION_DOWNGRADE unless allow_downgrade, MIN_SDK_TOO_HIGH, SIGNATURE_INVALID for a tampered APK', async () => {
  const rt = runtime();
  const s = session(rt, 'a');
  const { space_id } = await s.ok('space_create', {});
  await s.ok('session_acquire', { space_id });
  await s.ok('space_install_apk', { space_id, apk_paths: [apk('signed-a-v2.apk')] });
  const down = await s.fail('space_install_apk', { space_id, apk_paths: [apk('signed-a.apk')] });
  expect(down.code).toBe('VERSION_DOWNGRADE');
  expect(down.message).toMatch(/^space_install_apk: .*older than the installed versionCode 2.*allow_downgrade/);
  const allowed = await s.ok('space_install_apk', {
    space_id,
    apk_paths: [apk('signed-a.apk')],
    allow_downgrade: true,
  });
  expect(allowed).toMatchObject({ outcome: 'updated', version_code: 1 });
  expect(allowed.preflight.checks.find((c) => c.code === 'VERSION_DOWNGRADE')!.status).toBe('warn');

  const old = runtime({ sdkInt: 23 });
  const o = session(old, 'b');
  const { space_id: sp } = await o.ok('space_create', {});
  await o.ok('session_acquire', { space_id: sp });
  expect((await o.fail('space_install_apk', { space_id: sp, apk_paths: [apk('notes.apk')] })).code).toBe(
    'MIN_SDK_TOO_HIGH',
  );

  const bad = test.info().outputPath('tampered-notes.apk');
  writeFileSync(bad, tamperCompressedEntry(readFileSync(apk('notes.apk')), 'classes.dex'));
  const e = await s.fail('space_install_apk', { space_id, apk_paths: [bad] });
  expect(e.code).toBe('SIGNATURE_INVALID');
  expect(e.message).toMatch(/modified after signing/);
});

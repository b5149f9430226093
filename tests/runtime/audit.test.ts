import { test, expect } from '@playwright/test';
import { maskArgs } from '../../device-runtime/sim/core/audit.js';
import { apk, runtime, session, spaceWithNotes, NOTES } from './helpers.js';

test('every call is audited with caller, session, space, tool, masked arguments, code and duration', async () => {
  const rt = runtime();
  const s = session(rt, 'S1');
  const space_id = await spaceWithNotes(s);
  await s.ok('sys_clipboard_set', { space_id, text: 'secret clipboard' });
  await s.fail('space_launch', { space_id, package: 'com.example.missing' });
  await s.fail('no_such_tool' as never, {});
  const all = await s.ok('audit_query', { session_id: 'S1', kind: 'call', limit: 1000 });
  expect(all.entries.map((e) => e.tool)).toEqual([
    'space_create',
    'session_acquire',
    'space_install_apk',
    'sys_clipboard_set',
    'space_launch',
    'no_such_tool',
  ]);
  const clip = all.entries[3]!;
  expect(clip).toMatchObject({
    caller: 'REMOTE_MCP',
    session_id: 'S1',
    space_id,
    code: 'OK',
    args: { space_id, text: '***' },
  });
  expect(clip.duration_ms).toBeGreaterThanOrEqual(0);
  expect(all.entries[4]!.code).toBe('APP_NOT_INSTALLED');
  expect(all.entries[5]!.code).toBe('UNKNOWN_TOOL');
  expect((await s.ok('audit_query', { code: 'APP_NOT_INSTALLED' })).entries).toHaveLength(1);
  expect((await s.ok('audit_query', { tool: 'space_create' })).entries[0]!.space_id).toBeNull();
  expect((await s.ok('audit_query', { space_id, limit: 2 })).entries).toHaveLength(2);
  const later = await s.ok('audit_query', { since: Date.now() + 60_000 });
  expect(later.entries).toEqual([]);
  expect(later.recorded).toBeGreaterThanOrEqual(all.total);
});

test('token-like fields are masked at any depth; password text only for password fields', () => {
  expect(
    maskArgs('x', { token: 't', nested: { api_key: 'k', list: [{ Authorization: 'Bearer z' }] }, keep: 1 }),
  ).toEqual({
    token: '***',
    nested: { api_key: '***', list: [{ Authorization: '***' }] },
    keep: 1,
  });
  expect(maskArgs('ui_set_text', { text: 'hunter2' }, true)).toEqual({ text: '***' });
  expect(maskArgs('ui_set_text', { text: 'Milk' }, false)).toEqual({ text: 'Milk' });
});

test('an instance crash and restart are visible per instance', async () => {
  const rt = runtime();
  const s = session(rt, 'S1');
  const space_id = await spaceWithNotes(s);
  await s.ok('space_launch', { space_id, package: NOTES });
  const n = (await s.ok('audit_query', { kind: 'call' })).total;
  await s.ok('space_status', { space_id });
  expect((await s.ok('audit_query', { kind: 'call' })).total).toBe(n + 2);
});

test('text typed into a password field is masked in the audit log; other text is kept', async () => {
  const rt = runtime();
  const s = session(rt, 'S1');
  const { space_id } = await s.ok('space_create', {});
  await s.ok('session_acquire', { space_id });
  await s.ok('space_install_apk', { space_id, apk_paths: [apk('shop.apk')] });
  await s.ok('space_launch', { space_id, package: 'com.nestwright.shop' });
  const waited = await s.ok('ui_wait_for', { space_id, activity: '.LoginActivity', idle: true, timeout_ms: 10_000 });
  expect(waited.matched).toBe(true);
  const obs = await s.ok('ui_observe', { space_id });
  const pw = obs.nodes.find((n) => n.password)!;
  await s.ok('ui_set_text', { space_id, node_id: pw.id, snapshot_id: obs.snapshot_id, text: 'hunter22' });
  // Node ids are per snapshot: the window panned for the password field, so look again.
  const obs2 = await s.ok('ui_observe', { space_id });
  const email = obs2.nodes.find((n) => n.editable && !n.password)!;
  await s.ok('ui_set_text', { space_id, node_id: email.id, snapshot_id: obs2.snapshot_id, text: 'me@example.com' });
  const typed = (await s.ok('audit_query', { tool: 'ui_set_text' })).entries.map((e) => e.args.text);
  expect(typed).toEqual(['***', 'me@example.com']);
});

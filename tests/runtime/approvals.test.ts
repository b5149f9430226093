import { test, expect } from '@playwright/test';
import { STRICT_POLICY, TEST_RUN_POLICY, loadPolicy } from '../../device-runtime/sim/core/policy.js';
import { apk, runtime, session, tempDir } from './helpers.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

async function strict() {
  const rt = runtime({ policy: STRICT_POLICY });
  const s = session(rt, 'agent');
  const { space_id } = await s.ok('space_create', {});
  await s.ok('session_acquire', { space_id });
  return { rt, s, space_id, user: session(rt, 'phone', 'USER') };
}

test('the default policy (a test run) pre-approves install, uninstall, permissions and clipboard, not the shell', async () => {
  expect(TEST_RUN_POLICY.preapprove.sort()).toEqual(
    ['space_install_apk', 'space_permissions', 'space_uninstall', 'sys_clipboard_get', 'sys_clipboard_set'].sort(),
  );
  const rt = runtime();
  const s = session(rt, 'a');
  const { space_id } = await s.ok('space_create', {});
  await s.ok('session_acquire', { space_id });
  await s.ok('space_install_apk', { space_id, apk_paths: [apk('notes.apk')] });
  await s.ok('sys_clipboard_set', { space_id, text: 'x' });
  expect((await s.fail('sys_shell', { space_id, command: 'getprop' })).code).toBe('TOOL_DISABLED');
});

test('strict: a dangerous call without approval is refused with a hint to ask', async () => {
  const { s, space_id } = await strict();
  const e = await s.fail('space_install_apk', { space_id, apk_paths: [apk('notes.apk')] });
  expect(e.code).toBe('APPROVAL_REQUIRED');
  expect(e.hint).toContain('approval_request');
});

test('strict: request, the user approves, the call goes through once', async () => {
  const { s, user, space_id } = await strict();
  const req = await s.ok('approval_request', { space_id, tool: 'space_install_apk', reason: 'install notes' });
  expect(req.status).toBe('pending');
  const waiting = s.ok('approval_wait', { approval_id: req.approval_id, timeout_ms: 60_000 });
  await user.ok('approval_decide', { approval_id: req.approval_id, decision: 'approve' });
  expect(await waiting).toMatchObject({ status: 'approved', decided_by: 'USER:phone' });
  await s.ok('space_install_apk', { space_id, apk_paths: [apk('notes.apk')] });
  // Used up: the next dangerous call needs a new approval.
  expect((await s.fail('space_uninstall', { space_id, package: 'com.nestwright.notes' })).code).toBe(
    'APPROVAL_REQUIRED',
  );
  const decide = (await s.ok('audit_query', { tool: 'approval_decide' })).entries[0]!;
  expect(decide.caller).toBe('USER');
});

test('strict: an approval for other arguments does not cover the call; a denial is final', async () => {
  const { s, user, space_id } = await strict();
  const req = await s.ok('approval_request', {
    space_id,
    tool: 'sys_clipboard_set',
    args: { text: 'ok' },
    reason: 'r',
  });
  await user.ok('approval_decide', { approval_id: req.approval_id, decision: 'approve' });
  expect((await s.fail('sys_clipboard_set', { space_id, text: 'other' })).code).toBe('APPROVAL_REQUIRED');
  await s.ok('sys_clipboard_set', { space_id, text: 'ok' });
  const denied = await s.ok('approval_request', { space_id, tool: 'sys_clipboard_get', reason: 'r' });
  await user.ok('approval_decide', { approval_id: denied.approval_id, decision: 'deny', reason: 'no' });
  expect(await s.ok('approval_wait', { approval_id: denied.approval_id })).toMatchObject({
    status: 'denied',
    reason: 'no',
  });
  expect((await user.fail('approval_decide', { approval_id: denied.approval_id, decision: 'approve' })).code).toBe(
    'INVALID_ARGUMENT',
  );
  // The call it was for is refused once as denied, then needs a new request.
  const refused = await s.fail('sys_clipboard_get', { space_id });
  expect(refused.code).toBe('APPROVAL_DENIED');
  expect(refused.message).toContain(': no');
  expect((await s.fail('sys_clipboard_get', { space_id })).code).toBe('APPROVAL_REQUIRED');
});

test('strict: no decision before the approval times out is a denial', async () => {
  const { s, space_id } = await strict();
  const req = await s.ok('approval_request', { space_id, tool: 'space_uninstall', reason: 'r', timeout_ms: 20 });
  const out = await s.ok('approval_wait', { approval_id: req.approval_id, timeout_ms: 60_000 });
  expect(out).toMatchObject({ status: 'denied', decided_by: 'timeout' });
  expect((await s.fail('approval_wait', { approval_id: 'ap_nope' })).code).toBe('APPROVAL_NOT_FOUND');
});

test('a policy file pre-approves named tools and enables an allowlisted shell', async () => {
  const dir = tempDir();
  const file = join(dir, 'policy.json');
  writeFileSync(
    file,
    JSON.stringify({
      preapprove: ['space_install_apk', 'sys_shell'],
      shell: { enabled: true, allow: ['getprop', 'pm list packages', 'dumpsys activity top'] },
    }),
  );
  const rt = runtime({ policy: loadPolicy(file) });
  const s = session(rt, 'a');
  const { space_id } = await s.ok('space_create', {});
  await s.ok('session_acquire', { space_id });
  await s.ok('space_install_apk', { space_id, apk_paths: [apk('notes.apk')] });
  expect((await s.fail('space_uninstall', { space_id, package: 'com.nestwright.notes' })).code).toBe(
    'APPROVAL_REQUIRED',
  );
  expect(await s.ok('sys_shell', { space_id, command: 'getprop ro.build.version.sdk' })).toEqual({
    exit_code: 0,
    stdout: '35\n',
    stderr: '',
  });
  expect((await s.ok('sys_shell', { space_id, command: 'pm list packages nestwright' })).stdout).toBe(
    'package:com.nestwright.notes\n',
  );
  await s.ok('space_launch', { space_id, package: 'com.nestwright.notes' });
  expect((await s.ok('sys_shell', { space_id, command: 'dumpsys activity top' })).stdout).toContain(
    'com.nestwright.notes/.MainActivity',
  );
  const refused = await s.fail('sys_shell', { space_id, command: 'rm -rf /' });
  expect(refused.code).toBe('TOOL_DISABLED');
  expect(refused.hint).toContain('getprop');
  expect((await s.ok('runtime_info', {})).capabilities.shell_enabled).toBe(true);
});

test('a bad policy file is refused with the field at fault', () => {
  const dir = tempDir();
  const file = join(dir, 'p.json');
  writeFileSync(file, JSON.stringify({ preapprove: ['ui_tap'] }));
  expect(() => loadPolicy(file)).toThrow(/ui_tap, which is not a dangerous tool/);
  writeFileSync(file, JSON.stringify({ shell: { enabled: 'yes' } }));
  expect(() => loadPolicy(file)).toThrow(/shell\.enabled/);
  expect(() => loadPolicy(join(dir, 'missing.json'))).toThrow(/--policy .*missing\.json/);
});

test('approval requests and decisions are in the audit log', async () => {
  const { s, user, space_id } = await strict();
  const req = await s.ok('approval_request', { space_id, tool: 'space_uninstall', reason: 'clean up' });
  await user.ok('approval_decide', { approval_id: req.approval_id, decision: 'deny' });
  const events = (await s.ok('audit_query', { kind: 'approval' })).entries;
  expect(events.map((e) => e.tool)).toEqual(['approval.request', 'approval.denied']);
  expect(events[1]).toMatchObject({
    caller: 'USER',
    space_id,
    args: { approval_id: req.approval_id, tool: 'space_uninstall' },
  });
});

import { test, expect } from '@playwright/test';
import { NOTES, runtime, session, spaceWithNotes } from './helpers.js';

test('each package@instance is pinned to a slot; when full, the least recently used background instance is evicted with its data kept', async () => {
  const rt = runtime({ slots: 2 });
  const s = session(rt, 'a');
  const space_id = await spaceWithNotes(s);
  const a = await s.ok('space_launch', { space_id, package: NOTES, instance: 'a' });
  const b = await s.ok('space_launch', { space_id, package: NOTES, instance: 'b' });
  expect([a.slot, b.slot].sort()).toEqual([1, 2]);
  rt.spaces.get(space_id)!.instance(NOTES, 'a').data = { kept: true };
  // b is in front, a in the background: a goes.
  const c = await s.ok('space_launch', { space_id, package: NOTES, instance: 'c' });
  expect(c.evicted).toBe(`${NOTES}@a`);
  expect(c.slot).toBe(a.slot);
  const again = await s.ok('space_launch', { space_id, package: NOTES, instance: 'a' });
  expect(again.cold_start).toBe(true);
  expect(again.evicted).toBe(`${NOTES}@b`);
  expect(rt.spaces.get(space_id)!.instance(NOTES, 'a').data).toEqual({ kept: true });
});

test('NO_PROCESS_SLOT when every slot runs the foreground instance of a leased space', async () => {
  const rt = runtime({ slots: 2 });
  const s = session(rt, 'a');
  const one = await spaceWithNotes(s, 'one');
  const two = await spaceWithNotes(s, 'two');
  const three = await spaceWithNotes(s, 'three');
  await s.ok('space_launch', { space_id: one, package: NOTES });
  await s.ok('space_launch', { space_id: two, package: NOTES });
  const e = await s.fail('space_launch', { space_id: three, package: NOTES });
  expect(e.code).toBe('NO_PROCESS_SLOT');
  expect(e.retryable).toBe(true);
  expect(e.message).toContain('all 2 process slots');
  expect(e.hint).toContain('--slots');
  // A foreground instance of a space nobody drives may be evicted.
  await s.ok('session_release', { space_id: one });
  const ok = await s.ok('space_launch', { space_id: three, package: NOTES });
  expect(ok.evicted).toBe(`${NOTES}@0`);
  expect((await s.ok('space_status', { space_id: one })).running).toEqual([]);
});

test('a crash kills only its slot; the next launch says restarted_after_crash with the reason', async () => {
  const rt = runtime();
  const s = session(rt, 'a');
  const space_id = await spaceWithNotes(s);
  const a = await s.ok('space_launch', { space_id, package: NOTES, instance: 'a' });
  const b = await s.ok('space_launch', { space_id, package: NOTES, instance: 'b' });
  const space = rt.spaces.get(space_id)!;
  space.instance(NOTES, 'a').crash('java.lang.IllegalStateException: boom');
  expect(rt.pool.isDirty(a.slot)).toBe(true);
  const status = await s.ok('space_status', { space_id });
  expect(status.running.map((r) => r.instance)).toEqual(['b']);
  expect(status.running[0]!.slot).toBe(b.slot);
  const relaunch = await s.ok('space_launch', { space_id, package: NOTES, instance: 'a' });
  expect(relaunch.restarted_after_crash).toBe(true);
  expect(rt.pool.isDirty(a.slot)).toBe(false);
  expect(
    (await s.ok('sys_logcat', { space_id, instance: 'a' })).lines.some((l) =>
      l.message.includes('cleaned before reuse'),
    ),
  ).toBe(true);
  expect(relaunch.crash_reason).toContain('boom');
  expect(relaunch.cold_start).toBe(true);
  const next = await s.ok('space_launch', { space_id, package: NOTES, instance: 'a' });
  expect(next.restarted_after_crash).toBe(false);
  expect(next.crash_reason).toBeNull();
});

test('logcat lines belong to their instance', async () => {
  const rt = runtime();
  const s = session(rt, 'a');
  const space_id = await spaceWithNotes(s);
  await s.ok('space_launch', { space_id, package: NOTES, instance: 'a' });
  await s.ok('space_launch', { space_id, package: NOTES, instance: 'b' });
  rt.spaces.get(space_id)!.instance(NOTES, 'b').crash('java.lang.RuntimeException: only b');
  const a = await s.ok('sys_logcat', { space_id, package: NOTES, instance: 'a' });
  const b = await s.ok('sys_logcat', { space_id, package: NOTES, instance: 'b' });
  expect(a.lines.length).toBeGreaterThan(0);
  expect(a.lines.every((l) => l.instance === 'a')).toBe(true);
  expect(a.lines.some((l) => l.message.includes('only b'))).toBe(false);
  expect(b.lines.some((l) => l.tag === 'AndroidRuntime' && l.message.includes('only b'))).toBe(true);
});

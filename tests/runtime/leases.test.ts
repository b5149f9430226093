import { test, expect } from '@playwright/test';
import { runtime, session } from './helpers.js';

async function setup() {
  const rt = runtime();
  const a = session(rt, 'A');
  const b = session(rt, 'B');
  const { space_id } = await a.ok('space_create', { name: 'x' });
  return { rt, a, b, space_id };
}

test('mutating tools need an EXCLUSIVE lease; another holder gets SPACE_BUSY with holder info', async () => {
  const { a, b, space_id } = await setup();
  const none = await a.fail('space_rename', { space_id, name: 'y' });
  expect(none.code).toBe('LEASE_REQUIRED');
  expect(none.hint).toContain('session_acquire');
  const lease = await a.ok('session_acquire', { space_id });
  await a.ok('space_rename', { space_id, name: 'y' });
  const busy = await b.fail('space_rename', { space_id, name: 'z' });
  expect(busy.code).toBe('SPACE_BUSY');
  expect(busy.retryable).toBe(true);
  expect((busy.details as { holder: { session_id: string; lease_id: string } }).holder).toMatchObject({
    session_id: 'A',
    lease_id: lease.lease_id,
  });
  expect((await b.fail('session_acquire', { space_id })).code).toBe('SPACE_BUSY');
  // Observation is shared.
  await b.ok('session_acquire', { space_id, mode: 'OBSERVE' });
  await b.ok('space_status', { space_id });
});

test('session_acquire with wait_ms queues first-come first-served', async () => {
  const { rt, a, space_id } = await setup();
  await a.ok('session_acquire', { space_id });
  const order: string[] = [];
  const waiters = ['W1', 'W2', 'W3'].map((id) =>
    session(rt, id)
      .ok('session_acquire', { space_id, wait_ms: 30_000 })
      .then((l) => {
        order.push(id);
        return l;
      }),
  );
  expect((await a.ok('session_status', { space_id })).waiting).toBe(3);
  // A newcomer without wait_ms does not jump the queue even when the space frees up.
  await a.ok('session_release', { space_id });
  expect((await session(rt, 'late').fail('session_acquire', { space_id })).code).toBe('SPACE_BUSY');
  await waiters[0];
  await session(rt, 'W1').ok('session_release', { space_id });
  await waiters[1];
  await session(rt, 'W2').ok('session_release', { space_id });
  await waiters[2];
  expect(order).toEqual(['W1', 'W2', 'W3']);
});

test('a wait that runs out answers SPACE_BUSY and leaves the queue', async () => {
  const { rt, a, space_id } = await setup();
  await a.ok('session_acquire', { space_id });
  const e = await session(rt, 'B').fail('session_acquire', { space_id, wait_ms: 1 });
  expect(e.code).toBe('SPACE_BUSY');
  expect((await a.ok('session_status', { space_id })).waiting).toBe(0);
});

test('an idle lease expires and the next waiter gets the space', async () => {
  const { rt, a, b, space_id } = await setup();
  await a.ok('session_acquire', { space_id, ttl_ms: 1000 });
  const lease = await b.ok('session_acquire', { space_id, wait_ms: 60_000 });
  expect(lease.session_id).toBe('B');
  const audit = await a.ok('audit_query', { space_id, kind: 'lease' });
  expect(audit.entries.map((e) => e.tool)).toEqual(['lease.acquire', 'lease.expire', 'lease.acquire']);
  expect(rt.leases.exclusiveHolder(space_id)?.session_id).toBe('B');
});

test('force release reclaims any holder; the end of a session releases its leases; all of it audited', async () => {
  const { rt, a, b, space_id } = await setup();
  await a.ok('session_acquire', { space_id });
  const user = session(rt, 'phone', 'USER');
  expect((await user.ok('session_release', { space_id, force: true })).released).toHaveLength(1);
  await b.ok('session_acquire', { space_id });
  rt.endSession('B');
  expect((await a.ok('session_status', { space_id })).leases).toEqual([]);
  const tools = (await a.ok('audit_query', { space_id, kind: 'lease' })).entries.map(
    (e) => `${e.tool}:${e.session_id}`,
  );
  expect(tools).toEqual(['lease.acquire:A', 'lease.reclaim:phone', 'lease.acquire:B', 'lease.session_end:B']);
});

test('deleting a space wakes its waiters with SPACE_NOT_FOUND', async () => {
  const { rt, a, space_id } = await setup();
  await a.ok('session_acquire', { space_id });
  const waiting = session(rt, 'B').fail('session_acquire', { space_id, wait_ms: 60_000 });
  await a.ok('space_delete', { space_id });
  expect((await waiting).code).toBe('SPACE_NOT_FOUND');
});

test('a caller that gives up waiting leaves the queue and is never handed the space', async () => {
  const { rt, a, space_id } = await setup();
  await a.ok('session_acquire', { space_id });
  const abort = new AbortController();
  const gaveUp = rt.call(
    'session_acquire',
    { space_id, wait_ms: 60_000 },
    { sessionId: 'B', caller: 'REMOTE_MCP', signal: abort.signal },
  );
  const next = session(rt, 'C').ok('session_acquire', { space_id, wait_ms: 60_000 });
  expect((await a.ok('session_status', { space_id })).waiting).toBe(2);
  abort.abort();
  const out = await gaveUp;
  expect(out.ok ? 'granted' : out.error.code).toBe('CANCELLED');
  await a.ok('session_release', { space_id });
  expect((await next).session_id).toBe('C');
});

import { test, expect } from '@playwright/test';
import { STRICT_POLICY } from '../../device-runtime/sim/core/policy.js';
import { apk, NOTES, runtime, session, spaceWithNotes } from './helpers.js';

const SHOP = 'com.nestwright.shop';

async function texts(s: ReturnType<typeof session>, space_id: string): Promise<string[]> {
  const obs = await s.ok('ui_observe', { space_id });
  return obs.nodes.map((n) => n.text).filter((t): t is string => !!t);
}

test('Notes lists its functions with the JSON Schema of their parameters and results', async () => {
  const s = session(runtime(), 'a');
  const space_id = await spaceWithNotes(s);
  expect(await s.ok('appfn_status', { space_id })).toMatchObject({ available: true, reason: null });
  const { functions } = await s.ok('appfn_list', { space_id, package: NOTES });
  expect(functions.map((f) => f.id)).toEqual(['createNote', 'findNotes', 'deleteNote']);
  const create = functions.find((f) => f.id === 'createNote')!;
  expect(create).toMatchObject({ package: NOTES, dangerous: false });
  expect(create.parameters).toMatchObject({
    type: 'object',
    properties: { title: { type: 'string' }, body: { type: 'string' } },
    required: ['title'],
  });
  expect(create.result).toMatchObject({ properties: { id: { type: 'integer' } } });
  expect(functions.find((f) => f.id === 'deleteNote')!.dangerous).toBe(true);
});

test('createNote acts on the instance data: the list on screen shows the note, findNotes finds it', async () => {
  const s = session(runtime(), 'a');
  const space_id = await spaceWithNotes(s);
  await s.ok('space_launch', { space_id, package: NOTES });
  const { result } = await s.ok('appfn_execute', {
    space_id,
    package: NOTES,
    function_id: 'createNote',
    params: { title: 'Milk', body: 'two litres' },
  });
  expect(result).toMatchObject({ id: 1, title: 'Milk', body: 'two litres' });
  expect(await texts(s, space_id)).toContain('Milk');
  const found = await s.ok('appfn_execute', {
    space_id,
    package: NOTES,
    function_id: 'findNotes',
    params: { query: 'litres' },
  });
  expect(found.result).toMatchObject({ total: 1, notes: [{ title: 'Milk' }] });
  // The default (test-run) policy pre-approves dangerous functions: delete goes through.
  await s.ok('appfn_execute', { space_id, package: NOTES, function_id: 'deleteNote', params: { id: 1 } });
  expect(await texts(s, space_id)).toContain('No notes yet');
});

test('an unknown function, a bad parameter and a missing note are INVALID_ARGUMENT naming what is wrong', async () => {
  const s = session(runtime(), 'a');
  const space_id = await spaceWithNotes(s);
  const unknown = await s.fail('appfn_execute', { space_id, package: NOTES, function_id: 'archiveNote' });
  expect(unknown.code).toBe('INVALID_ARGUMENT');
  expect(unknown.message).toContain('declares no function "archiveNote"');
  expect(unknown.hint).toContain('createNote, findNotes, deleteNote');
  const bad = await s.fail('appfn_execute', {
    space_id,
    package: NOTES,
    function_id: 'createNote',
    params: { title: 42 },
  });
  expect(bad.code).toBe('INVALID_ARGUMENT');
  expect(bad.message).toContain('params.title');
  expect(bad.details).toMatchObject({ param: 'title' });
  const extra = await s.fail('appfn_execute', {
    space_id,
    package: NOTES,
    function_id: 'createNote',
    params: { title: 'x', colour: 'red' },
  });
  expect(extra.message).toContain('colour');
  const missing = await s.fail('appfn_execute', {
    space_id,
    package: NOTES,
    function_id: 'deleteNote',
    params: { id: 9 },
  });
  expect(missing.message).toContain('params.id: no note 9');
  expect((await s.fail('appfn_list', { space_id, package: SHOP })).code).toBe('APP_NOT_INSTALLED');
});

test('strict policy: a dangerous function waits for an approval; a denial is final, an approval covers one call', async () => {
  const rt = runtime({ policy: STRICT_POLICY });
  const s = session(rt, 'agent');
  const user = session(rt, 'phone', 'USER');
  const { space_id } = await s.ok('space_create', {});
  await s.ok('session_acquire', { space_id });
  const req0 = await s.ok('approval_request', { space_id, tool: 'space_install_apk', reason: 'install' });
  await user.ok('approval_decide', { approval_id: req0.approval_id, decision: 'approve' });
  await s.ok('space_install_apk', { space_id, apk_paths: [apk('notes.apk')] });
  await s.ok('appfn_execute', { space_id, package: NOTES, function_id: 'createNote', params: { title: 'Keep' } });

  const del = { space_id, package: NOTES, function_id: 'deleteNote', params: { id: 1 } };
  const required = await s.fail('appfn_execute', del);
  expect(required.code).toBe('APPROVAL_REQUIRED');
  expect(required.message).toContain('function deleteNote is dangerous');
  expect(required.hint).toContain('"function_id":"deleteNote"');

  const ask = { package: NOTES, function_id: 'deleteNote' };
  const denied = await s.ok('approval_request', { space_id, tool: 'appfn_execute', args: ask, reason: 'tidy up' });
  await user.ok('approval_decide', { approval_id: denied.approval_id, decision: 'deny', reason: 'keep it' });
  const e = await s.fail('appfn_execute', del);
  expect(e.code).toBe('APPROVAL_DENIED');
  expect(e.message).toContain('keep it');
  const still = await s.ok('appfn_execute', { ...del, function_id: 'findNotes', params: { query: 'Keep' } });
  expect(still.result).toMatchObject({ total: 1 });

  const ok = await s.ok('approval_request', { space_id, tool: 'appfn_execute', args: ask, reason: 'tidy up' });
  await user.ok('approval_decide', { approval_id: ok.approval_id, decision: 'approve' });
  expect((await s.ok('appfn_execute', del)).result).toMatchObject({ deleted: { title: 'Keep' } });
  expect((await s.fail('appfn_execute', { ...del, params: { id: 1 } })).code).toBe('APPROVAL_REQUIRED');
});

test('Shop: search, add to cart and a coupon change the cart the UI shows', async () => {
  const s = session(runtime({ faults: 'instant' }), 'a');
  const { space_id } = await s.ok('space_create', {});
  await s.ok('session_acquire', { space_id });
  await s.ok('space_install_apk', { space_id, apk_paths: [apk('shop.apk')] });
  const run = (function_id: string, params: Record<string, unknown>) =>
    s.ok('appfn_execute', { space_id, package: SHOP, function_id, params }).then((r) => r.result as any);
  const found = await run('searchProducts', { query: 'kettle', limit: 3 });
  expect(found.products).toHaveLength(3);
  expect(found.products[0].name).toContain('Kettle');
  expect(found.total).toBeGreaterThan(3);
  const id = found.products[0].id;
  expect(await run('addToCart', { product_id: id, quantity: 2 })).toMatchObject({
    cart_count: 2,
    item: { quantity: 2 },
  });
  expect(
    (await s.fail('appfn_execute', { space_id, package: SHOP, function_id: 'addToCart', params: { product_id: 999 } }))
      .message,
  ).toContain('params.product_id: no product 999');
  expect(await run('applyCoupon', { code: 'NOPE' })).toMatchObject({ applied: false, discount_percent: 0 });
  const coupon = await run('applyCoupon', { code: 'save10' });
  expect(coupon).toMatchObject({ applied: true, discount_percent: 10 });
  // The empty coupon that crashes the UI is a parameter error here.
  expect(
    (await s.fail('appfn_execute', { space_id, package: SHOP, function_id: 'applyCoupon', params: { code: '' } }))
      .message,
  ).toContain('params.code');
  await s.ok('space_launch', { space_id, package: SHOP, activity: '.CartActivity' });
  const screen = await texts(s, space_id);
  expect(screen).toContain(`${found.products[0].name} x2`);
  expect(screen.find((t) => t.startsWith('Total:'))).toBe(`Total: $${(coupon.total_cents / 100).toFixed(2)}`);
});

test('a device without AppFunctions says so in appfn_status and answers NOT_SUPPORTED', async () => {
  const s = session(runtime({ appFunctions: false }), 'a');
  const space_id = await spaceWithNotes(s);
  expect(await s.ok('appfn_status', { space_id })).toMatchObject({ available: false });
  expect((await s.fail('appfn_list', { space_id, package: NOTES })).code).toBe('NOT_SUPPORTED');
  expect((await s.fail('appfn_execute', { space_id, package: NOTES, function_id: 'createNote' })).code).toBe(
    'NOT_SUPPORTED',
  );
});

import { test, expect } from '@playwright/test';
import { startSimServer } from '../../device-runtime/sim/server.js';
import { attachmentText, plain, runInline, type InlineRun } from '../framework/inline.js';
import { sharedBatch } from '../framework/shared-batch.js';

/**
 * `app.functions` end to end: inline specs on the simulator list and call Notes' and Shop's
 * functions, see the UI change, get errors naming the parameter, and on a device without
 * AppFunctions get NOT_SUPPORTED naming the appfn tools.
 */
test.describe.configure({ mode: 'default' });

const SPECS = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
test('list and call: the note is on screen, findNotes finds it, delete removes it', async ({ app }) => {
  const fns = await app.functions.list();
  expect(fns.map((f) => f.name)).toEqual(['createNote', 'findNotes', 'deleteNote']);
  expect(fns.find((f) => f.name === 'deleteNote').dangerous).toBe(true);
  expect(fns[0].parameters.required).toEqual(['title']);
  const note = await app.functions.call('createNote', { title: 'Milk', body: 'two litres' });
  expect(note).toMatchObject({ title: 'Milk', body: 'two litres' });
  await expect(app.getByText('Milk')).toBeVisible();
  const found = await app.functions.call('findNotes', { query: 'milk' });
  expect(found.total).toBe(1);
  await app.functions.call('deleteNote', { id: note.id });
  await expect(app.getByText('No notes yet')).toBeVisible();
});
test('errors name the API, the function and the parameter', async ({ app }) => {
  const bad = await app.functions.call('createNote', { title: 7 }).catch((e) => e);
  expect(bad.message).toMatch(/^app\\.functions\\.call: .*params\\.title/);
  expect(bad.code).toBe('INVALID_ARGUMENT');
  const unknown = await app.functions.call('archiveNote').catch((e) => e);
  expect(unknown.message).toContain('declares no function "archiveNote"');
  const missing = await app.functions.call('deleteNote', { id: 99 }).catch((e) => e);
  expect(missing.message).toContain('params.id: no note 99');
});
test('shop functions fill the cart the UI shows', async ({ space }) => {
  const shop = await space.launch('fixtures/apks/shop.apk');
  const { products } = await shop.functions.call('searchProducts', { query: 'kettle', limit: 1 });
  await shop.functions.call('addToCart', { product_id: products[0].id, quantity: 2 });
  await shop.functions.call('applyCoupon', { code: 'SAVE10' });
  await shop.launch({ activity: '.CartActivity' });
  await expect(shop.getByText(products[0].name + ' x2')).toBeVisible();
  await expect(shop.getById('total')).toHaveText('Total: $' + ((Math.round(products[0].price_cents * 2 * 0.9)) / 100).toFixed(2));
});
`;

const BARE = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', deviceOptions: { provider: 'sim', url: process.env.NW_BARE_URL, token: process.env.NW_BARE_TOKEN } });
test('without AppFunctions: NOT_SUPPORTED naming the appfn tools', async ({ app }) => {
  for (const call of [() => app.functions.list(), () => app.functions.call('createNote', { title: 'x' })]) {
    const e = await call().catch((x) => x);
    expect(e.code).toBe('NOT_SUPPORTED');
    expect(e.message).toMatch(/^app\\.functions\\.(list|call): this device runtime does not offer AppFunctions/);
    expect(e.message).toContain('appfn');
  }
});
`;

let run: InlineRun;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  ({ run } = await sharedBatch('functions', async () => {
    const sim = await startSimServer({ appFunctions: false });
    try {
      // One run: the bare file reaches a simulator without AppFunctions through its test.use.
      const run = await runInline(
        { 'fns.spec.ts': SPECS, 'bare.spec.ts': BARE },
        { workers: 1, env: { NW_BARE_URL: sim.url, NW_BARE_TOKEN: sim.token } },
      );
      return { run };
    } finally {
      await sim.close();
    }
  }));
});

const trajectoryOf = (r: InlineRun, title: string) =>
  JSON.parse(attachmentText(r.result(title).attachments.find((a) => a.name === 'nestwright-trajectory')!));

for (const title of [
  'list and call: the note is on screen, findNotes finds it, delete removes it',
  'errors name the API, the function and the parameter',
  'shop functions fill the cart the UI shows',
]) {
  test(title, () => {
    const r = run.result(title);
    expect(r.status, plain(r.error)).toBe('passed');
  });
}

test('each call is a step of the trajectory with source function, its params and result', () => {
  const t = trajectoryOf(run, 'list and call: the note is on screen, findNotes finds it, delete removes it');
  const calls = t.steps.filter((s: any) => s.api === 'app.functions.call');
  expect(calls.map((s: any) => s.title)).toEqual([
    'Call createNote({"title":"Milk","body":"two litres"})',
    'Call findNotes({"query":"milk"})',
    'Call deleteNote({"id":1})',
  ]);
  expect(calls[0]).toMatchObject({
    source: 'function',
    kind: 'app',
    function: { package: 'com.nestwright.notes', id: 'createNote', by: 'locator', result: { id: 1, title: 'Milk' } },
  });
  expect(t.steps.find((s: any) => s.api === 'app.functions.list')).toMatchObject({
    title: 'List the functions of com.nestwright.notes',
  });
  const failed = trajectoryOf(run, 'errors name the API, the function and the parameter').steps[0];
  expect(failed).toMatchObject({ result: 'failed', error: { code: 'INVALID_ARGUMENT' } });
});

test('a runtime without AppFunctions', () => {
  const r = run.result('without AppFunctions: NOT_SUPPORTED naming the appfn tools');
  expect(r.status, plain(r.error)).toBe('passed');
});

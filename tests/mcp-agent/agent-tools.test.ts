import { test, expect } from '@playwright/test';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createAgentServer } from '../../cli/mcp/server.js';
import { AgentState } from '../../cli/mcp/state.js';
import { fails, makeProject, ok, ROOT } from './helpers.js';

/**
 * The tools the test agents need beyond the first ones (app_map, set_conditions, act's log,
 * assert, generate_spec, save_plan, fixme), each called with the SDK's stock client over its
 * in-memory transport against the real server and an in-process simulated device: no child runs.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const SHOP = 'apks/shop.apk';
const SPEC = `import { test, expect } from 'nestwright';

test.describe('cart', () => {
  test('applies an empty coupon', async ({ app }) => {
    await app.launch({ activity: '.CartActivity' });
    await app.getByRole('button', { name: 'Apply' }).tap();
    await expect(app.getById('total')).toBeVisible();
  });
});
`;
const CRAWL = {
  version: 1,
  app: { package: 'com.nestwright.shop' },
  screens: [
    {
      id: 's1',
      activity: 'com.nestwright.shop.LoginActivity',
      title: 'Log in',
      identify: [{ code: "app.getById('email')" }],
    },
    { id: 's2', activity: 'com.nestwright.shop.TermsActivity', title: 'Terms' },
  ],
  transitions: [{ from: 's1', to: 's2', action: { kind: 'tap', label: 'Terms' } }],
  crashes: [],
};

let project: Awaited<ReturnType<typeof makeProject>>;
let state: AgentState;
let client: Client;

test.beforeAll(async () => {
  project = await makeProject({ 'specs/cart.spec.ts': SPEC, 'crawl/crawl.json': JSON.stringify(CRAWL) });
  await mkdir(path.join(project.dir, 'apks'));
  await copyFile(path.join(ROOT, 'fixtures/apks/shop.apk'), path.join(project.dir, SHOP));
  state = new AgentState({ root: project.dir });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createAgentServer(state, () => 'in-memory').connect(serverSide);
  client = new Client({ name: 'nestwright-tests', version: '1.0.0' });
  await client.connect(clientSide);
});

test.afterAll(async () => {
  await client?.close();
  await state?.sessions.shutdown();
  await project?.remove();
});

test('tools/list offers the agents’ tools, each with an input and an output schema', async () => {
  const { tools } = await client.listTools();
  for (const name of ['app_map', 'set_conditions', 'assert', 'generate_spec', 'save_plan', 'fixme']) {
    const t = tools.find((x) => x.name === name);
    expect(t, name).toBeTruthy();
    expect(t!.inputSchema.type).toBe('object');
    expect(t!.outputSchema?.type).toBe('object');
  }
});

test('app_map: the Shop’s activities, deep link and functions, and the crawl map of the project', async () => {
  const { session } = await ok(client, 'open_app', { app: SHOP });
  const map = await ok(client, 'app_map', { session });
  expect(map.package).toBe('com.nestwright.shop');
  expect(map.activities).toContainEqual({ name: '.LoginActivity', exported: true, launcher: true });
  expect(map.activities).toContainEqual({ name: '.CartActivity', exported: false, launcher: false });
  expect(map.deep_links).toEqual(['nwshop://product']);
  expect(map.functions.map((f: { name: string }) => f.name).length).toBeGreaterThan(0);
  expect(map.crawl).toEqual({
    screens: ['s1 .LoginActivity "Log in" — app.getById(\'email\')', 's2 .TermsActivity "Terms"'],
    transitions: ['s1 -> s2: tap Terms'],
    crashes: [],
  });
  // Without a session: the APK alone, no functions; a map of another app is left out, with a note.
  const bare = await ok(client, 'app_map', { app: 'fixtures/../' + SHOP });
  expect(bare.functions).toBeNull();
  const notes = await ok(client, 'app_map', {
    app: path.relative(project.dir, path.join(ROOT, 'fixtures/apks/notes.apk')),
  });
  expect(notes.crawl).toBeNull();
  expect(notes.notes).toEqual(['crawl/crawl.json maps com.nestwright.shop, not com.nestwright.notes: left out']);
  expect(await fails(client, 'app_map', {})).toMatchObject({ code: 'INVALID_ARGUMENT' });
  // A deep link the map lists opens its screen; the spec gets app.intent.
  const opened = await ok(client, 'act', { session, action: 'open_link', value: 'nwshop://product/42' });
  expect(opened.activity).toBe('.ProductActivity');
  await ok(client, 'assert', { session, kind: 'activity', value: '.ProductActivity' });
  expect(
    (await ok(client, 'generate_spec', { session, path: 'specs/generated/link.spec.ts', title: 'link' })).source,
  ).toContain(
    "  await app.intent({ data: 'nwshop://product/42' });\n  await expect(app).toHaveActivity('.ProductActivity');",
  );
  await ok(client, 'close_app', { session });
});

test('act and assert log the session as code with the best locators; generate_spec writes it as a spec', async () => {
  const { session } = await ok(client, 'open_app', { app: SHOP });
  await ok(client, 'act', { session, action: 'launch', value: '.CatalogActivity', intent: 'Open the catalog' });
  await ok(client, 'act', {
    session,
    action: 'tap',
    selector:
      "getById('product_row').filter({ hasText: 'Smart Speaker 1' }).getByRole('button', { name: 'Add to cart' })",
    timeout_ms: 20_000,
    intent: 'Add Smart Speaker 1 to the cart',
  });
  // The agent names the badge by its text; the spec gets its resource id.
  const checked = await ok(client, 'assert', {
    session,
    kind: 'text',
    selector: "text='1'",
    value: '1',
    intent: 'The cart badge shows 1',
  });
  expect(checked.code).toBe("await expect(app.getById('cart_badge')).toHaveText('1');");
  // A check that does not hold fails live, with what was on screen, and is not logged.
  const failed = await fails(client, 'assert', {
    session,
    kind: 'text',
    selector: 'id=cart_badge',
    value: '2',
    timeout_ms: 300,
  });
  expect(failed.code).toBe('ASSERTION_FAILED');
  expect(failed.message).toContain('"1"');
  await ok(client, 'assert', { session, kind: 'activity', value: '.CatalogActivity' });

  const written = await ok(client, 'generate_spec', {
    session,
    path: 'specs/generated/cart.spec.ts',
    title: 'adds a product to the cart',
    describe: 'catalog',
    plan: 'specs/plans/shop.md',
    seed: 'specs/seed.spec.ts',
  });
  expect(written).toMatchObject({ path: 'specs/generated/cart.spec.ts', created: true, steps: 4 });
  const source = await readFile(path.join(project.dir, 'specs/generated/cart.spec.ts'), 'utf8');
  expect(source).toBe(written.source);
  expect(source).toBe(`// spec: specs/plans/shop.md
// seed: specs/seed.spec.ts

import { test, expect } from 'nestwright';

test.use({ apk: 'apks/shop.apk' });

test.describe('catalog', () => {
  test('adds a product to the cart', async ({ app }) => {
    // 1. Open the catalog
    await app.launch({ activity: '.CatalogActivity' });
    // 2. Add Smart Speaker 1 to the cart
    ${TAP_CODE}
    // Expect: The cart badge shows 1
    await expect(app.getById('cart_badge')).toHaveText('1');
    await expect(app).toHaveActivity('.CatalogActivity');
  });
});
`);
  expect(await fails(client, 'generate_spec', { session, path: '../outside.spec.ts', title: 'x' })).toMatchObject({
    code: 'PATH_NOT_ALLOWED',
  });
  await ok(client, 'close_app', { session });
});
const TAP_CODE =
  "await app.getById('product_row').filter({ hasText: 'Smart Speaker 1' }).getByRole('button', { name: 'Add to cart' }).tap({ timeout: 20000 });";

test('set_conditions takes one instance offline, the other stays online; the spec gets the same calls', async () => {
  const a = (await ok(client, 'open_app', { app: SHOP })).session;
  const b = (await ok(client, 'open_app', { app: SHOP })).session;
  const set = await ok(client, 'set_conditions', {
    session: a,
    offline: true,
    location: { latitude: 52.52, longitude: 13.405 },
    timezone: 'Europe/Berlin',
  });
  expect(set.applied).toEqual([
    'test.use({"timezoneId":"Europe/Berlin"})',
    'await app.setGeolocation({ latitude: 52.52, longitude: 13.405 });',
    'await app.setOffline(true);',
  ]);
  for (const session of [a, b]) await ok(client, 'act', { session, action: 'launch', value: '.CatalogActivity' });
  await ok(client, 'assert', {
    session: a,
    kind: 'visible',
    selector: 'getByText("You\'re offline")',
    timeout_ms: 20_000,
  });
  await ok(client, 'assert', { session: b, kind: 'visible', selector: "text='Smart Speaker 1'", timeout_ms: 20_000 });
  const spec = await ok(client, 'generate_spec', {
    session: a,
    path: 'specs/generated/offline.spec.ts',
    title: 'offline',
  });
  expect(spec.source).toContain("test.use({ apk: 'apks/shop.apk', timezoneId: 'Europe/Berlin' });");
  expect(spec.source).toContain(
    "  await app.setOffline(true);\n  await app.launch({ activity: '.CatalogActivity' });\n  await expect(app.getByText(\"You're offline\")).toBeVisible({ timeout: 20000 });",
  );
  const slow = await ok(client, 'set_conditions', { session: b, network: 'Slow 4G' });
  expect(slow.applied).toEqual(["await app.emulateNetworkConditions('Slow 4G');"]);
  expect(await fails(client, 'set_conditions', { session: b, network: '5G' })).toMatchObject({
    code: 'INVALID_ARGUMENT',
  });
  for (const session of [a, b]) await ok(client, 'close_app', { session });
});

test('save_plan writes under specs/plans/; fixme marks the test with its reason and keeps its assertions', async () => {
  const plan = '# Shop\n\n### 1. Empty coupon\n\n**Steps:**\n1. Tap Apply\n\n**Expected:**\n- The total shows\n';
  expect(await ok(client, 'save_plan', { name: 'shop-cart', content: plan })).toMatchObject({
    path: 'specs/plans/shop-cart.md',
    scenarios: 1,
    created: true,
  });
  expect(await readFile(path.join(project.dir, 'specs/plans/shop-cart.md'), 'utf8')).toBe(plan);
  expect(await fails(client, 'save_plan', { name: '../x', content: plan })).toMatchObject({ code: 'INVALID_ARGUMENT' });
  // specs/plans/ as a link out of the project: refused, nothing written there.
  const outside = await mkdtemp(path.join(tmpdir(), 'nw-plans-'));
  await rm(path.join(project.dir, 'specs/plans'), { recursive: true });
  await symlink(outside, path.join(project.dir, 'specs/plans'));
  expect(await fails(client, 'save_plan', { name: 'escape', content: plan })).toMatchObject({
    code: 'PATH_NOT_ALLOWED',
  });
  expect(await readdir(outside)).toEqual([]);
  await rm(path.join(project.dir, 'specs/plans'));
  await rm(outside, { recursive: true });
  expect(await fails(client, 'save_plan', { name: 'x', content: 'no title' })).toMatchObject({
    code: 'INVALID_ARGUMENT',
  });

  const reason =
    'tapping Apply with an empty coupon crashes the app (StringIndexOutOfBoundsException in CouponParser.parse)';
  const marked = await ok(client, 'fixme', { file: 'specs/cart.spec.ts', title: 'applies an empty coupon', reason });
  expect(marked).toMatchObject({ file: 'specs/cart.spec.ts', line: 4 });
  expect(await readFile(path.join(project.dir, 'specs/cart.spec.ts'), 'utf8')).toBe(
    SPEC.replace(
      "  test('applies an empty coupon'",
      `  // FIXME: the app is broken here: ${reason}\n  test.fixme('applies an empty coupon'`,
    ),
  );
  expect(
    await fails(client, 'fixme', { file: 'specs/cart.spec.ts', title: 'applies an empty coupon', reason }),
  ).toMatchObject({ code: 'INVALID_ARGUMENT' });
  expect(await fails(client, 'fixme', { file: 'specs/cart.spec.ts', title: 'no such test', reason })).toMatchObject({
    code: 'INVALID_ARGUMENT',
  });
  expect(await fails(client, 'fixme', { file: 'playwright.config.ts', title: 'x', reason })).toMatchObject({
    code: 'PATH_NOT_ALLOWED',
  });
});

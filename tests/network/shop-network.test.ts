import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { startSimServer } from '../../device-runtime/sim/server.js';
import { plain, ROOT, runInline, type InlineRun } from '../framework/inline.js';
import { sharedBatch } from '../framework/shared-batch.js';

/**
 * The network feature on the simulator's Shop (docs/network.md): its app makes real HTTPS
 * requests to its backend through each instance's proxy, and the test routes, fetches, waits,
 * records and replays them, takes the instance offline and slows it down. Each spec runs in
 * Playwright on a simulator of this file's (so its backend can be stopped between the HAR runs);
 * bad input and a runtime without the `net_proxy` extension are said so, naming the API. Two
 * child runs: everything but the replay, then the replay with the backend stopped.
 */
test.describe.configure({ mode: 'default' });

const HEAD = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk', deviceOptions: { provider: 'sim', url: process.env.NW_URL, token: process.env.NW_TOKEN } });
const CATALOG = '**/products?page=*';
const row = (app, name) => app.getById('product_row').filter({ hasText: name });
`;

const SHOP = `${HEAD}
test('a routed catalog shows the products the test served', async ({ app }) => {
  await app.route(CATALOG, (route) => route.fulfill({ json: { items: [{ id: 1, name: 'Test Lamp', price: 1999 }, { id: 2, name: 'Test Desk', price: 25000 }], next: null } }));
  await app.launch({ activity: '.CatalogActivity' });
  await expect(row(app, 'Test Lamp').getById('product_price')).toHaveText('$19.99', { timeout: 15_000 });
  await expect(app.getByText('Test Desk')).toBeVisible();
  await expect(app.getByText('Smart Speaker 1', { exact: true })).toBeHidden();
});

test('an aborted catalog shows the error, and Retry after unroute loads the real one', async ({ app }) => {
  await app.route(CATALOG, (route) => route.abort('connectionrefused'));
  await app.launch({ activity: '.CatalogActivity' });
  await expect(app.getByText("Couldn't load products")).toBeVisible({ timeout: 15_000 });
  await app.unroute(CATALOG);
  await app.getByRole('button', { name: 'Retry' }).tap();
  await expect(app.getByText('Smart Speaker 1', { exact: true })).toBeVisible({ timeout: 15_000 });
});

test('route.fetch() changes one product\\'s price in the real response', async ({ app }) => {
  await app.route('**/products?page=1', async (route) => {
    const response = await route.fetch();
    const json = await response.json();
    json.items[0].price = 1;
    await route.fulfill({ response, json });
  });
  await app.launch({ activity: '.CatalogActivity' });
  await expect(row(app, 'Smart Speaker 1').getById('product_price')).toHaveText('$0.01', { timeout: 15_000 });
  await expect(row(app, 'Smart Speaker 2').getById('product_price')).not.toHaveText('$0.01');
});

test('waitForRequest reads the order\\'s JSON body', async ({ app }) => {
  const order = app.waitForRequest('**/orders');
  await app.route('**/orders', (route) => route.fulfill({ status: 201, json: { orderId: 4242 } }));
  await app.launch({ activity: '.CatalogActivity' });
  await row(app, 'Smart Speaker 1').getByRole('button', { name: 'Add to cart' }).tap({ timeout: 15_000 });
  await app.getByDesc('Cart, 1 items').tap();
  await app.getByRole('button', { name: 'Checkout' }).tap();
  await app.getById('address').fill('1 Main St');
  await app.getByRole('button', { name: 'Place order' }).tap();
  await app.getById('confirm_order').tap();
  const request = await order;
  expect(request.method()).toBe('POST');
  expect(request.postDataJSON()).toEqual({ items: [{ id: 1, qty: 1 }], address: '1 Main St' });
  await expect(app.getByText('Order #4242 confirmed')).toBeVisible({ timeout: 15_000 });
});

test('a 404 coupon served by the test', async ({ app }) => {
  await app.route('**/coupons/*', (route) => route.fulfill({ status: 404, json: { error: 'not found' } }));
  await app.launch({ activity: '.CatalogActivity' });
  await row(app, 'Smart Speaker 1').getByRole('button', { name: 'Add to cart' }).tap({ timeout: 15_000 });
  await app.getByDesc('Cart, 1 items').tap();
  await app.getById('coupon').fill('SAVE10');
  await app.getByRole('button', { name: 'Apply' }).tap();
  await expect(app.getByText('Coupon SAVE10 is not valid')).toBeVisible({ timeout: 10_000 });
});

test('offline shows "You\\'re offline"; back online, Retry loads', async ({ app }) => {
  await app.setOffline(true);
  await app.launch({ activity: '.CatalogActivity' });
  await expect(app.getByText("You're offline")).toBeVisible({ timeout: 15_000 });
  await app.setOffline(false);
  await app.getByRole('button', { name: 'Retry' }).tap();
  await expect(app.getByText('Smart Speaker 1', { exact: true })).toBeVisible({ timeout: 15_000 });
});

test('a 400 ms latency makes the catalog load measurably slower', async ({ app }) => {
  const load = async () => {
    await app.stop();
    const t = Date.now();
    await app.launch({ activity: '.CatalogActivity' });
    await expect(app.getByText('Smart Speaker 1', { exact: true })).toBeVisible({ timeout: 15_000 });
    return Date.now() - t;
  };
  const catalog = () => app.waitForResponse('**/products?page=1');
  await app.emulateNetworkConditions(null);
  let answered = catalog();
  const fast = (await load()) + (await load());
  const quick = await answered;
  await app.emulateNetworkConditions({ latency: 400 });
  answered = catalog();
  const slow = (await load()) + (await load());
  const late = await answered;
  console.log(JSON.stringify({ fast, slow }));
  // Two loads each way: 800 ms more, less the machine's noise.
  expect(slow - fast).toBeGreaterThan(400);
  expect(quick.status()).toBe(200);
  expect(late.status()).toBe(200);
});

// The bad input fails as declared (test.fail): its error is what is checked, and Playwright keeps
// the worker, which it restarts after every unexpected failure. The HAR test further down fails
// unexpectedly: a HAR is attached only to a test that did not end as expected.
test.fail('a handler that throws: the catalog fails, the test reports the handler\\'s error', async ({ app }) => {
  await app.route(CATALOG, () => { throw new Error('fixture file missing'); });
  await app.launch({ activity: '.CatalogActivity' });
  await expect(app.getByText("Couldn't load products")).toBeVisible({ timeout: 15_000 });
});

test.fail('fulfilling twice: the first answer stands, the test reports the second', async ({ app }) => {
  await app.route(CATALOG, async (route) => {
    await route.fulfill({ json: { items: [{ id: 7, name: 'Only Once', price: 100 }], next: null } });
    await route.fulfill({ status: 500 });
  });
  await app.launch({ activity: '.CatalogActivity' });
  await expect(app.getByText('Only Once')).toBeVisible({ timeout: 15_000 });
});

test.fail('a malformed HAR is refused naming the field', async ({ app }) => {
  const { writeFileSync } = await import('node:fs');
  writeFileSync(test.info().outputPath('bad.har'), JSON.stringify({ log: { entries: [{ request: { url: 'x' } }] } }));
  await app.routeFromHAR(test.info().outputPath('bad.har'));
});

test('a failed test gets the HAR of its requests and the trajectory names it', async ({ app }) => {
  const catalog = app.waitForResponse('**/products?page=1');
  await app.launch({ activity: '.CatalogActivity' });
  await expect(app.getByText('Smart Speaker 1', { exact: true })).toBeVisible({ timeout: 15_000 });
  await catalog;
  expect('the catalog').toBe('failing on purpose');
});
`;

const RECORD = `${HEAD}
test.use({ recordHar: { path: process.env.NW_HAR, urlFilter: '**/products*' } });
test('record the catalog', async ({ app }) => {
  await app.launch({ activity: '.CatalogActivity' });
  await expect(app.getByText('Smart Speaker 1', { exact: true })).toBeVisible({ timeout: 15_000 });
});
`;

const REPLAY = `${HEAD}
test('replay the catalog with the backend stopped', async ({ app }) => {
  await app.routeFromHAR(process.env.NW_HAR, { url: '**/products*' });
  await app.launch({ activity: '.CatalogActivity' });
  await expect(app.getByText('Smart Speaker 1', { exact: true })).toBeVisible({ timeout: 15_000 });
});
`;

const UNSUPPORTED = `${HEAD.replace('process.env.NW_URL', 'process.env.NW_BARE_URL').replace('process.env.NW_TOKEN', 'process.env.NW_BARE_TOKEN')}
// Failing as declared, as the bad input above.
test.fail('route on a runtime without net_proxy', async ({ app }) => { await app.route('**/*', (r) => r.continue()); });
test.fail('offline on a runtime without net_proxy', async ({ app }) => { await app.setOffline(true); });
`;

let shop: InlineRun;
let replay: InlineRun;
let backendAfterReplay: string;
// The recorded HAR: its path (the replay's routes name it) and the URLs it holds.
let har: { path: string; urls: string[] };

test.beforeAll(async () => {
  test.setTimeout(600_000);
  ({ shop, replay, backendAfterReplay, har } = await sharedBatch('network', async () => {
    const HAR = path.join(ROOT, 'test-results', 'network-har', `catalog-${process.pid}.har`);
    const sim = await startSimServer({});
    const bare = await startSimServer({ withoutExtensions: ['net_proxy'] });
    try {
      const env = {
        NW_URL: sim.url,
        NW_TOKEN: sim.token,
        NW_HAR: HAR,
        NW_BARE_URL: bare.url,
        NW_BARE_TOKEN: bare.token,
      };
      // One run: the Shop's specs, the recording (a file of its own, for its recordHar) and the bare runtime's.
      // One worker at a time: the tests are independent, and each worker is a process with the proxy loaded.
      const shop = await runInline(
        { 'shop.spec.ts': SHOP, 'record.spec.ts': RECORD, 'bare.spec.ts': UNSUPPORTED },
        { env },
      );
      // The backend goes and stays gone; the replay's requests are answered by the HAR alone.
      await sim.runtime.env.net.stop();
      const replay = await runInline({ 'replay.spec.ts': REPLAY }, { env });
      const backendAfterReplay = await probe((await sim.runtime.env.net.info()).hosts[0]!.address_port);
      const recorded = JSON.parse(await readFile(HAR, 'utf8')) as {
        log: { entries: Array<{ request: { url: string } }> };
      };
      const har = { path: HAR, urls: recorded.log.entries.map((e) => e.request.url) };
      return { shop, replay, backendAfterReplay, har };
    } finally {
      await sim.close();
      await bare.close();
    }
  }));
});

/** What a TCP connection to the backend's port gets: 'refused' once the backend is stopped. */
const probe = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve('listening')));
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED' ? 'refused' : String(e.code)));
  });

const passed = (run: InlineRun, title: string) => {
  const r = run.result(title);
  expect(r.status, plain(r.error)).toBe('passed');
  return r;
};
const trajectoryOf = (r: InlineRun['results'][number]) =>
  JSON.parse(
    Buffer.from(r.attachments.find((a) => a.name === 'nestwright-trajectory')!.body!, 'base64').toString(),
  ) as {
    network?: Array<{ url: string; status: number | null; answeredBy: string; error?: string }>;
    failure?: { har?: string };
  };

test('routed catalog, aborted then Retry, fetched price, order body, 404 coupon, offline', () => {
  for (const t of [
    'a routed catalog shows the products the test served',
    'an aborted catalog shows the error, and Retry after unroute loads the real one',
    "route.fetch() changes one product's price in the real response",
    "waitForRequest reads the order's JSON body",
    'a 404 coupon served by the test',
    'offline shows "You\'re offline"; back online, Retry loads',
  ])
    passed(shop, t);
  const routed = trajectoryOf(shop.result('a routed catalog shows the products the test served')).network!;
  expect(routed[0]).toMatchObject({ status: 200, answeredBy: 'route **/products?page=* (fulfill)' });
  const aborted = trajectoryOf(
    shop.result('an aborted catalog shows the error, and Retry after unroute loads the real one'),
  ).network!;
  expect(aborted.map((r) => [r.status, r.answeredBy])).toEqual([
    [null, 'route **/products?page=* (abort)'],
    [200, 'network'],
  ]);
});

test('a 400 ms latency makes the catalog load measurably slower', () => {
  const r = passed(shop, 'a 400 ms latency makes the catalog load measurably slower');
  const catalog = trajectoryOf(r).network!.filter((n) => n.url.endsWith('/products?page=1'));
  expect(catalog.length).toBe(4);
  const ms = catalog.map((n) => (n as unknown as { durationMs: number }).durationMs);
  for (const slow of ms.slice(2)) expect(slow).toBeGreaterThanOrEqual(400);
});

test('HAR recorded in one test and replayed in another with the backend stopped', () => {
  passed(shop, 'record the catalog');
  expect(har.urls).toContain('https://api.shop.nestwright.test/products?page=1');
  const r = passed(replay, 'replay the catalog with the backend stopped');
  const network = trajectoryOf(r).network!;
  expect(network.length).toBeGreaterThan(0);
  for (const x of network.filter((n) => n.url.includes('/products')))
    expect(x.answeredBy).toBe(`har ${har.path} (fulfill)`);
  // The backend did not come back during the replay: its port still refuses connections.
  expect(backendAfterReplay).toBe('refused');
});

test('bad input: a throwing handler, fulfilling twice, a malformed HAR', () => {
  const thrown = shop.result("a handler that throws: the catalog fails, the test reports the handler's error");
  expect(thrown.status).toBe('failed');
  expect(plain(thrown.error)).toContain(
    'app.route: the handler of route **/products?page=* threw, so its request failed: fixture file missing',
  );
  const twice = shop.result('fulfilling twice: the first answer stands, the test reports the second');
  expect(twice.status).toBe('failed');
  expect(plain(twice.error)).toContain('route.fulfill: Route is already handled! (fulfill)');
  const bad = shop.result('a malformed HAR is refused naming the field');
  expect(bad.status).toBe('failed');
  expect(plain(bad.error)).toMatch(
    /app\.routeFromHAR: .*bad\.har is not a HAR file: har\.log\.entries\[0\]\.request\.method: /,
  );
});

test('a failed test has the HAR of its requests attached, named by its trajectory', () => {
  const r = shop.result('a failed test gets the HAR of its requests and the trajectory names it');
  expect(r.status).toBe('failed');
  const har = r.attachments.find((a) => a.name === 'network.har');
  expect(har, JSON.stringify(r.attachments.map((a) => a.name))).toBeTruthy();
  expect(trajectoryOf(r).failure?.har).toBe('network.har');
});

test('a runtime without the net_proxy extension: NOT_SUPPORTED naming it', () => {
  for (const [title, api] of [
    ['route on a runtime without net_proxy', 'app.route'],
    ['offline on a runtime without net_proxy', 'app.setOffline'],
  ]) {
    const r = shop.result(title);
    expect(r.status).toBe('failed');
    expect(plain(r.error)).toContain(`${api}: this device runtime does not offer`);
    expect(plain(r.error)).toContain('lacks the `net_proxy` extension');
  }
});

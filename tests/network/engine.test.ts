import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { AppNetwork } from '../../framework/network/index.js';
import { NestwrightError } from '../../framework/core/errors.js';
import { catalogPage, fakePort, HOST, proxiedClient, startBackend } from './engine-helpers.js';

/**
 * The network feature's engine on a real HTTPS backend: the proxy (mockttp), the routes with
 * Playwright's semantics, HAR, conditions and isolation, driven through AppNetwork as app.route
 * and friends drive it, with the runtime's tools answered by a fake that offers `net_proxy`.
 * The client is what an app behind `net_proxy_set` is: HTTPS through CONNECT, trusting the
 * proxy's CA. The same features on the simulator's apps: tests/network/network.test.ts.
 */
test.describe.configure({ mode: 'default' });

const CATALOG = `https://${HOST}/products?page=1`;

let backend: Awaited<ReturnType<typeof startBackend>>;
test.beforeAll(async () => {
  backend = await startBackend();
});
test.afterAll(async () => {
  await backend.server.stop();
});

async function network(opts: { instance?: string } = {}) {
  const { port, runtime, trajectory } = fakePort(backend.info, opts);
  const net = new AppNetwork(port);
  await net.wrap('test', (call) => net.start(call));
  const client = proxiedClient(runtime.proxy!);
  return { net, runtime, trajectory, client, close: async () => (client.close(), await net.close()) };
}

test('no route: the real backend answers through the proxy, and the trajectory records it', async () => {
  const n = await network();
  expect(n.runtime.proxy).toMatchObject({ host: '127.0.0.1' });
  expect(n.runtime.proxy!.ca_pem).toContain('BEGIN CERTIFICATE');
  const res = await n.client.get(CATALOG);
  expect(res.status).toBe(200);
  expect(JSON.parse(res.text)).toEqual(catalogPage(1));
  expect(n.trajectory.network).toEqual([
    expect.objectContaining({ method: 'GET', url: CATALOG, status: 200, answeredBy: 'network', instance: '1' }),
  ]);
  await n.close();
  expect(n.runtime.proxy).toBeNull();
});

test("route.fulfill serves the test's products; the backend is not asked", async () => {
  const n = await network();
  const before = backend.hits();
  await n.net.route('**/products?page=*', (route) =>
    route.fulfill({ json: { items: [{ id: 1, name: 'Test Lamp', price: 1999 }], next: null } }),
  );
  const res = await n.client.get(CATALOG);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/json');
  expect(JSON.parse(res.text)).toEqual({ items: [{ id: 1, name: 'Test Lamp', price: 1999 }], next: null });
  expect(backend.hits()).toBe(before);
  expect(n.trajectory.network[0]!.answeredBy).toBe('route **/products?page=* (fulfill)');
  await n.close();
});

test('route.abort fails the request; after unroute the same request reaches the backend', async () => {
  const n = await network();
  await n.net.route('**/products*', (route) => route.abort('connectionrefused'));
  await expect(n.client.get(CATALOG)).rejects.toThrow();
  await n.net.unroute('**/products*');
  expect((await n.client.get(CATALOG)).status).toBe(200);
  expect(n.trajectory.network.map((r) => [r.status, r.answeredBy, r.error])).toEqual([
    [null, 'route **/products* (abort)', 'connectionrefused'],
    [200, 'network', undefined],
  ]);
  await n.close();
});

test("route.fetch changes one product's price in the real response", async () => {
  const n = await network();
  await n.net.route('**/products?page=1', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as ReturnType<typeof catalogPage>;
    json.items[0]!.price = 1;
    await route.fulfill({ response, json });
  });
  const got = JSON.parse((await n.client.get(CATALOG)).text) as ReturnType<typeof catalogPage>;
  expect(got.items[0]).toEqual({ id: 1, name: 'Product 1', price: 1 });
  expect(got.items[1]).toEqual(catalogPage(1).items[1]);
  expect(n.trajectory.network[0]!.answeredBy).toBe('route **/products?page=1 (fetch)');
  await n.close();
});

test("waitForRequest reads the order's JSON body; waitForResponse its status", async () => {
  const n = await network();
  const request = n.net.waitForRequest('**/orders');
  const response = n.net.waitForResponse((r) => r.url().endsWith('/orders') && r.status() === 201);
  await n.client.post(`https://${HOST}/orders`, { items: [{ id: 3, qty: 2 }], address: 'Main St 1' });
  const order = await request;
  expect(order.method()).toBe('POST');
  expect(order.postDataJSON()).toEqual({ items: [{ id: 3, qty: 2 }], address: 'Main St 1' });
  expect(await (await response).json()).toEqual({ orderId: 1001 });
  await n.close();
});

test('waitForRequest times out naming what it waited for and what came', async () => {
  const n = await network();
  await n.client.get(CATALOG);
  const e = await n.net.waitForRequest('**/orders', { timeout: 300 }).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(NestwrightError);
  expect((e as NestwrightError).code).toBe('TIMEOUT');
  expect((e as Error).message).toMatch(
    /^app\.waitForRequest: Timeout 300ms exceeded waiting for request \*\*\/orders; the last requests were:\n {2}GET https:\/\/api\.shop/,
  );
  await n.close();
});

test('latest route first; fallback hands on with overrides; times removes a route', async () => {
  const n = await network();
  const seen: string[] = [];
  await n.net.route('**/products*', (route) => route.fulfill({ status: 404, body: 'first' }));
  await n.net.route('**/products*', (route) => {
    seen.push(route.request().url());
    return route.fallback({ url: `https://${HOST}/products?page=2` });
  });
  await n.net.route('**/products*', (route) => route.fulfill({ status: 418, body: 'once' }), { times: 1 });
  expect((await n.client.get(CATALOG)).status).toBe(418);
  const second = await n.client.get(CATALOG);
  expect([second.status, second.text]).toEqual([404, 'first']);
  expect(seen).toEqual([CATALOG]);
  await n.net.unrouteAll();
  // continue with a changed URL: the network answers page 2
  await n.net.route('**/products*', (route) => route.continue({ url: `https://${HOST}/products?page=2` }));
  expect(JSON.parse((await n.client.get(CATALOG)).text)).toEqual(catalogPage(2));
  await n.close();
});

test('HAR: recorded in one run, replayed in another with the backend stopped; a malformed HAR is refused', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'nw-har-'));
  const har = path.join(dir, 'catalog.har');
  const rec = await network();
  await rec.net.routeFromHAR(har, { url: '**/products*', update: true });
  await rec.client.get(CATALOG);
  await rec.client.get(`https://${HOST}/products?page=2`);
  await rec.close();
  const doc = JSON.parse(await readFile(har, 'utf8')) as { log: { entries: Array<{ request: { url: string } }> } };
  expect(doc.log.entries.map((e) => e.request.url)).toEqual([CATALOG, `https://${HOST}/products?page=2`]);

  // Replay against a backend that is gone: a mapping to a port nobody listens on.
  const { port, runtime } = fakePort({
    hosts: [{ host: HOST, port: 443, address: '127.0.0.1', address_port: 9 }],
    system_ca_pem: null,
  });
  const net = new AppNetwork(port);
  await net.routeFromHAR(har, { url: '**/products*' });
  const client = proxiedClient(runtime.proxy!);
  expect(JSON.parse((await client.get(`https://${HOST}/products?page=2`)).text)).toEqual(catalogPage(2));
  await expect(client.get(`https://${HOST}/products?page=3`)).rejects.toThrow(); // notFound: 'abort'
  client.close();
  await net.close();

  const bad = path.join(dir, 'bad.har');
  await writeFile(bad, JSON.stringify({ log: { entries: [{ request: { method: 'GET' }, response: {} }] } }));
  const n = await network();
  const e = await n.net.routeFromHAR(bad).catch((x: unknown) => x);
  expect((e as NestwrightError).code).toBe('HAR_INVALID');
  expect((e as Error).message).toMatch(
    /^app\.routeFromHAR: .*bad\.har is not a HAR file: har\.log\.entries\[0\]\.request\.url: /,
  );
  await writeFile(bad, '{ not json');
  await expect(n.net.routeFromHAR(bad)).rejects.toThrow(/is not JSON/);
  await n.close();
});

test("a handler that throws fails its request, and the test gets the handler's error", async () => {
  const n = await network();
  await n.net.route('**/products*', () => {
    throw new Error('the fixture file is missing');
  });
  await expect(n.client.get(CATALOG)).rejects.toThrow();
  expect(n.net.failure?.code).toBe('ROUTE_FAILED');
  expect(n.net.failure?.message).toBe(
    'app.route: the handler of route **/products* threw, so its request failed: the fixture file is missing',
  );
  await n.close();
});

test('fulfilling twice: the first answer stands, the second call throws and fails the test', async () => {
  const n = await network();
  await n.net.route('**/products*', async (route) => {
    await route.fulfill({ status: 200, body: 'one' });
    await route.fulfill({ status: 500, body: 'two' });
  });
  const res = await n.client.get(CATALOG);
  expect([res.status, res.text]).toEqual([200, 'one']);
  await expect.poll(() => n.net.failure?.message).toMatch(/route\.fulfill: Route is already handled! \(fulfill\)/);
  await n.close();
});

test('bad input names the API: unknown abort code, bad times, unknown preset', async () => {
  const n = await network();
  await expect(n.net.route('**/x', () => {}, { times: 0 })).rejects.toThrow(
    /^app\.route: times must be a whole number ≥ 1, got 0/,
  );
  await expect(n.net.route(42 as never, () => {})).rejects.toThrow(/^app\.route: the URL is a glob string/);
  await expect(n.net.emulateNetworkConditions('Slow 5G' as never)).rejects.toThrow(
    /^app\.emulateNetworkConditions: no preset named 'Slow 5G': use one of 'No throttling', '3G', 'Slow 4G', 'Fast 4G', 'Slow 3G', 'Fast 3G'/,
  );
  await n.net.route('**/products*', (route) => route.abort('nope' as never));
  await expect(n.client.get(CATALOG)).rejects.toThrow();
  expect(n.net.failure?.message).toMatch(/route\.abort: unknown error code 'nope'/);
  await n.close();
});

test('a 400 ms latency makes the same request measurably slower', async () => {
  const n = await network();
  await n.client.get(CATALOG);
  const time = async () => {
    const t = Date.now();
    await n.client.get(CATALOG);
    return Date.now() - t;
  };
  const direct = await time();
  await n.net.emulateNetworkConditions({ latency: 400 });
  const slow = await time();
  expect(slow).toBeGreaterThanOrEqual(400);
  expect(slow - direct).toBeGreaterThan(300);
  await n.net.emulateNetworkConditions(null);
  expect(await time()).toBeLessThan(300);
  await n.close();
});

test("a fulfilled response has its body's length, as Playwright's fulfill sets it, so the app keeps its connection", async () => {
  const n = await network();
  await n.net.route('**/products?page=1', (route) => route.fulfill({ json: { who: 'route' } }));
  await n.net.route('**/products?page=2', (route) => route.fulfill({ status: 200 }));
  await n.net.route('**/products?page=3', (route) =>
    route.fulfill({ body: 'abc', headers: { 'Content-Length': '3', 'x-given': 'yes' } }),
  );
  const one = await n.client.get(CATALOG);
  expect(one.headers['content-length']).toBe(String(Buffer.byteLength('{"who":"route"}')));
  expect(n.trajectory.network[0]).toMatchObject({ answeredBy: expect.stringContaining('fulfill') });
  const empty = await n.client.get(`https://${HOST}/products?page=2`);
  expect([empty.status, empty.text, empty.headers['content-length']]).toEqual([200, '', '0']);
  const given = await n.client.get(`https://${HOST}/products?page=3`);
  expect([given.text, given.headers['content-length'], given.headers['x-given']]).toEqual(['abc', '3', 'yes']);
  for (let i = 0; i < 20; i++) await n.client.get(CATALOG);
  // One tunnel for all 23: without a length the proxy had to close each to end its body.
  expect(n.client.tunnels()).toBe(1);
  await n.close();
});

test('a runtime without net_proxy: NOT_SUPPORTED naming the extension', async () => {
  const { port } = fakePort(backend.info, { offers: false });
  const net = new AppNetwork(port);
  const e = await net.route('**/*', (r) => r.continue()).catch((x: unknown) => x);
  expect((e as NestwrightError).code).toBe('NOT_SUPPORTED');
  expect((e as Error).message).toMatch(
    /^app\.route: this device runtime does not offer net_info \(NOT_SUPPORTED\): it lacks the `net_proxy` extension/,
  );
  await expect(net.setOffline(true)).rejects.toThrow(/^app\.setOffline: .*`net_proxy` extension/);
});

test("two instances route the same URL differently: 1,000 requests, none answered by the other's route", async () => {
  const a = await network({ instance: '1' });
  const b = await network({ instance: '2' });
  expect(a.runtime.proxy!.port).not.toBe(b.runtime.proxy!.port);
  await a.net.route('**/products*', (route) => route.fulfill({ json: { who: 'a' } }));
  await b.net.route('**/products*', (route) => route.fulfill({ json: { who: 'b' } }));
  const wrong: string[] = [];
  const each = async (n: typeof a, who: string, count: number) => {
    for (let i = 0; i < count; i += 25) {
      const batch = await Promise.all(Array.from({ length: 25 }, () => n.client.get(CATALOG)));
      for (const r of batch) if ((JSON.parse(r.text) as { who: string }).who !== who) wrong.push(r.text);
    }
  };
  await Promise.all([each(a, 'a', 500), each(b, 'b', 500)]);
  expect(wrong).toEqual([]);
  expect(a.trajectory.network.length + b.trajectory.network.length).toBe(1000);
  expect(new Set(a.trajectory.network.map((r) => r.instance))).toEqual(new Set(['1']));
  await a.close();
  await b.close();
});

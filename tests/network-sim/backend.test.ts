import { expect, test } from '@playwright/test';
import { request } from 'node:https';
import { product } from '../../device-runtime/sim/apps/shop/model.js';
import { SimRuntime } from '../../device-runtime/sim/runtime.js';
import type { NetInfo } from '../../device-runtime/protocol/index.js';

/**
 * The simulator's app backends, over real HTTPS on loopback, as net_info says to reach them:
 * the Shop and Chat contract (pages, products, coupons, orders, messages), verified against the
 * simulator's CA, and refused by a client that does not trust it.
 */
let rt: SimRuntime;
let info: NetInfo;

test.beforeAll(async () => {
  rt = new SimRuntime();
  const r = await rt.call('net_info', {}, { sessionId: 't', caller: 'REMOTE_MCP' });
  if (!r.ok) throw new Error(r.error.message);
  info = r.result;
});
test.afterAll(() => rt.close());

function call(
  host: string,
  method: string,
  path: string,
  opts: { body?: unknown; ca?: string | null; headers?: Record<string, string> } = {},
) {
  const t = info.hosts.find((h) => h.host === host)!;
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = request(
      {
        host: t.address,
        port: t.address_port,
        servername: host,
        method,
        path,
        ...(opts.ca === null ? {} : { ca: opts.ca ?? info.system_ca_pem! }),
        headers: { host, 'content-type': 'application/json', ...opts.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, json: text ? JSON.parse(text) : null });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
const SHOP = 'api.shop.nestwright.test';
const CHAT = 'api.chat.nestwright.test';

test('net_info names both backends on 443 and the CA they are signed with', () => {
  expect(info.hosts.map((h) => `${h.host}:${h.port}`)).toEqual([`${SHOP}:443`, `${CHAT}:443`]);
  for (const h of info.hosts) expect(h).toMatchObject({ address: '127.0.0.1', address_port: expect.any(Number) });
  expect(info.system_ca_pem).toMatch(/^-----BEGIN CERTIFICATE-----/);
});

test('products: 200 in pages of 20 from 1, the same names and prices, next until the last page', async () => {
  const first = await call(SHOP, 'GET', '/products?page=1');
  expect(first.status).toBe(200);
  expect(first.json.items).toHaveLength(20);
  expect(first.json.next).toBe(2);
  expect(first.json.items[0]).toEqual({ id: 1, name: product(1).name, price: product(1).price });
  const last = await call(SHOP, 'GET', '/products?page=10');
  expect(last.json.items.map((p: { id: number }) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => 181 + i));
  expect(last.json.next).toBeNull();
  expect((await call(SHOP, 'GET', '/products?page=11')).json).toEqual({ items: [], next: null });
  const bad = await call(SHOP, 'GET', '/products?page=0');
  expect(bad.status).toBe(400);
  expect(bad.json.error).toContain('page');
  const one = await call(SHOP, 'GET', '/products/42');
  expect(one).toEqual({ status: 200, json: product(42) });
  expect((await call(SHOP, 'GET', '/products/201')).status).toBe(404);
});

test('coupons: SAVE10 is 10 percent, anything else 404', async () => {
  expect(await call(SHOP, 'GET', '/coupons/save10')).toEqual({ status: 200, json: { code: 'SAVE10', percent: 10 } });
  const nope = await call(SHOP, 'GET', '/coupons/NOPE');
  expect(nope.status).toBe(404);
});

test('orders: 201 with an order id numbered per install; a bad order is 400 saying why', async () => {
  const order = { items: [{ id: 2, qty: 1 }], address: '1 Main St' };
  const h = { 'x-installation-id': 'backend-test' };
  expect(await call(SHOP, 'POST', '/orders', { body: order, headers: h })).toEqual({
    status: 201,
    json: { orderId: 1001 },
  });
  expect((await call(SHOP, 'POST', '/orders', { body: { ...order, coupon: 'SAVE10' }, headers: h })).json).toEqual({
    orderId: 1002,
  });
  const bad = await call(SHOP, 'POST', '/orders', { body: { items: [], address: 'x' }, headers: h });
  expect(bad.status).toBe(400);
  expect(bad.json.error).toContain('items');
  expect((await call(SHOP, 'POST', '/orders', { body: { items: [{ id: 1, qty: 1 }] } })).json.error).toContain(
    'address',
  );
});

test('chat: a posted message is 201 with its id, and polling since an id answers the ones after it', async () => {
  const h = { 'x-chat-workspace': 'backend-test' };
  const a = await call(CHAT, 'POST', '/rooms/General/messages', { body: { text: 'one', from: 'Ann' }, headers: h });
  const b = await call(CHAT, 'POST', '/rooms/General/messages', { body: { text: 'two', from: 'Bob' }, headers: h });
  expect(a.status).toBe(201);
  const all = await call(CHAT, 'GET', '/rooms/General/messages?since=0', { headers: h });
  expect(all.json.messages.map((m: { text: string }) => m.text)).toEqual(['one', 'two']);
  const after = await call(CHAT, 'GET', `/rooms/General/messages?since=${a.json.id}`, { headers: h });
  expect(after.json.messages).toEqual([{ id: b.json.id, from: 'Bob', text: 'two' }]);
  const other = await call(CHAT, 'GET', '/rooms/General/messages?since=0', {
    headers: { 'x-chat-workspace': 'elsewhere' },
  });
  expect(other.json.messages).toEqual([]);
  expect((await call(CHAT, 'POST', '/rooms/General/messages', { body: {}, headers: h })).status).toBe(400);
});

test('a client that does not trust the simulator CA is refused, as a phone without it would be', async () => {
  const err = await call(SHOP, 'GET', '/products?page=1', { ca: null }).then(
    () => null,
    (e: NodeJS.ErrnoException) => e.code,
  );
  expect(err).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED/);
});

import { expect, test } from '@playwright/test';
import { product } from '../../device-runtime/sim/apps/shop/model.js';
import { CONFORMANCE_CA_PEM } from '../../framework/conformance/extensions/net-proxy.js';
import { CHAT, SHOP, simSpace, type SimHarness } from '../sim-ui/harness.js';
import { startProxy, type TestProxy } from './proxy.js';

/**
 * Each instance's network on the simulator, end to end: the app's real requests go through a real
 * HTTP CONNECT proxy on loopback when net_proxy_set says so, TLS verified against the CA given;
 * an untrusted certificate, an offline instance and a failed order show what a phone shows; two
 * instances on one device each go through their own proxy.
 */
const proxies: TestProxy[] = [];
test.afterEach(async () => {
  for (const p of proxies.splice(0)) await p.close();
});

async function shop(instance?: string): Promise<SimHarness> {
  const h = await simSpace();
  await h.install('shop.apk');
  if (instance) await h.call('space_launch', { package: SHOP, instance });
  return h;
}
const catalog = (h: SimHarness, instance?: string) =>
  h.call('space_launch', { package: SHOP, activity: '.CatalogActivity', ...(instance ? { instance } : {}) });
const waitText = async (h: SimHarness, text: string) => {
  const r = await h.call('ui_wait_for', { text, timeout_ms: 10_000 });
  expect(r.matched, `"${text}" on screen: ${(await h.texts()).join(' | ')}`).toBe(true);
};
async function proxy(h: SimHarness, mitm: boolean, rule?: Parameters<typeof startProxy>[1]['rule']) {
  const p = await startProxy(await h.call('net_info', {}), { mitm, ...(rule ? { rule } : {}) });
  proxies.push(p);
  return p;
}
const renamePage = (tag: string) => ({
  edit: (page: { items: Array<{ name: string }> }) => ({
    ...page,
    items: page.items.map((p) => ({ ...p, name: `${tag} ${p.name}` })),
  }),
});

test('through an intercepting proxy with its CA: the app shows what the proxy changed, every request seen', async () => {
  const h = await shop();
  const p = await proxy(h, true, (r) => (r.path.startsWith('/products?page=') ? renamePage('Proxied') : null));
  await h.call('space_launch', { package: SHOP });
  await h.call('net_proxy_set', { package: SHOP, host: '127.0.0.1', port: p.port, ca_pem: p.ca.cert });
  expect(await h.call('net_state_get', { package: SHOP })).toEqual({
    proxy: { host: '127.0.0.1', port: p.port, auth: false },
    extra_ca: true,
    offline: false,
  });
  await catalog(h);
  await waitText(h, `Proxied ${product(1).name}`);
  expect(p.connects).toContain('api.shop.nestwright.test:443');
  expect(p.seen.map((s) => `${s.method} ${s.host}${s.path}`)).toContain('GET api.shop.nestwright.test/products?page=1');
  // Cleared: direct again, the real names.
  await h.call('net_proxy_clear', { package: SHOP });
  await h.call('space_stop', { package: SHOP });
  await catalog(h);
  await waitText(h, product(1).name);
  expect(p.seen.filter((s) => s.path === '/products?page=1')).toHaveLength(1);
});

test('a plain tunnel proxy needs no CA: the backend answers through it', async () => {
  const h = await shop('0');
  const p = await proxy(h, false);
  await h.call('net_proxy_set', { package: SHOP, host: '127.0.0.1', port: p.port, ca_pem: CONFORMANCE_CA_PEM });
  await catalog(h);
  await waitText(h, product(1).name);
  expect(p.connects).toEqual(['api.shop.nestwright.test:443']);
});

test('a proxy whose certificate the instance does not trust fails every request: "Couldn\'t load products", Retry recovers', async () => {
  const h = await shop('0');
  const p = await proxy(h, true);
  // The instance is told to trust another CA than the proxy's: the TLS handshake fails, as on a phone.
  await h.call('net_proxy_set', { package: SHOP, host: '127.0.0.1', port: p.port, ca_pem: CONFORMANCE_CA_PEM });
  await catalog(h);
  await waitText(h, "Couldn't load products");
  expect(p.seen).toEqual([]);
  const logs = await h.call('sys_logcat', { package: SHOP });
  expect(JSON.stringify(logs)).toMatch(/CatalogRepository.*(certificate|CERT|UNABLE_TO_VERIFY)/i);
  await h.call('net_proxy_set', { package: SHOP, host: '127.0.0.1', port: p.port, ca_pem: p.ca.cert });
  await h.tap('Retry');
  await waitText(h, product(1).name);
  expect(p.seen.length).toBeGreaterThan(0);
});

test('offline: the catalog says "You\'re offline"; back online, Retry loads it; the state is gone with the instance', async () => {
  const h = await shop('0');
  await h.call('net_offline_set', { package: SHOP, offline: true });
  await catalog(h);
  await waitText(h, "You're offline");
  expect((await h.byRes('retry')).node.text).toBe('Retry');
  await h.call('net_offline_set', { package: SHOP, offline: false });
  await h.tap('Retry');
  await waitText(h, product(1).name);
  await h.call('net_offline_set', { package: SHOP, offline: true });
  await h.call('space_stop', { package: SHOP, clear_data: true });
  expect(await h.call('net_state_get', { package: SHOP })).toEqual({ proxy: null, extra_ca: false, offline: false });
});

test('a failed order says "Payment failed, try again"; the next one is confirmed with the server\'s order id', async () => {
  const h = await shop('0');
  let fail = true;
  const p = await proxy(h, true, (r) =>
    r.method === 'POST' && r.path === '/orders' && fail ? { status: 503, json: { error: 'down' } } : null,
  );
  await h.call('net_proxy_set', { package: SHOP, host: '127.0.0.1', port: p.port, ca_pem: p.ca.cert });
  await catalog(h);
  await waitText(h, product(1).name);
  const add = await h.byRes('add_to_cart');
  await h.call('ui_tap', { node_id: add.node.id });
  await h.call('space_launch', { package: SHOP, activity: '.CheckoutActivity' });
  await h.type('address', '1 Main St');
  await h.call('ui_key', { key: 'back' });
  await h.tap('Place order');
  await h.call('ui_tap', { node_id: (await h.byRes('confirm_order')).node.id });
  await waitText(h, 'Payment failed, try again');
  const order = p.seen.find((s) => s.method === 'POST' && s.path === '/orders')!;
  expect(JSON.parse(order.body)).toEqual({ items: [{ id: 1, qty: 1 }], address: '1 Main St' });
  fail = false;
  await h.tap('Place order');
  await h.call('ui_tap', { node_id: (await h.byRes('confirm_order')).node.id });
  await waitText(h, 'Order #1001 confirmed');
});

test('two instances on one device, each through its own proxy: each sees its own catalog', async () => {
  const h = await shop();
  const a = await proxy(h, true, (r) => (r.path.startsWith('/products?page=') ? renamePage('Alpha') : null));
  const b = await proxy(h, true, (r) => (r.path.startsWith('/products?page=') ? renamePage('Beta') : null));
  await h.call('space_launch', { package: SHOP, instance: 'a' });
  await h.call('space_launch', { package: SHOP, instance: 'b' });
  await h.call('net_proxy_set', { package: SHOP, instance: 'a', host: '127.0.0.1', port: a.port, ca_pem: a.ca.cert });
  await h.call('net_proxy_set', { package: SHOP, instance: 'b', host: '127.0.0.1', port: b.port, ca_pem: b.ca.cert });
  await catalog(h, 'a');
  await waitText(h, `Alpha ${product(1).name}`);
  await catalog(h, 'b');
  await waitText(h, `Beta ${product(1).name}`);
  expect((await h.texts()).some((t) => t.startsWith('Alpha'))).toBe(false);
  await catalog(h, 'a');
  await waitText(h, `Alpha ${product(1).name}`);
  // a's catalog opened twice, b's once: no request of one instance went through the other's proxy.
  expect(a.seen.filter((s) => s.path === '/products?page=1')).toHaveLength(2);
  expect(b.seen.filter((s) => s.path === '/products?page=1')).toHaveLength(1);
});

test('Chat: a message sent offline is "Not sent"; back online, Retry sends it', async () => {
  const h = await simSpace();
  await h.install('chat.apk');
  await h.launch(CHAT);
  await h.settle();
  await h.type('name', 'Ann', true);
  await waitText(h, 'General (Ann)');
  await h.call('net_offline_set', { package: CHAT, offline: true });
  await waitText(h, "You're offline");
  await h.type('message_input', 'Hello?');
  await h.tap('Send');
  await waitText(h, 'Not sent');
  await h.call('net_offline_set', { package: CHAT, offline: false });
  await h.tap('Retry');
  await waitText(h, 'Sent');
  expect(await h.texts()).not.toContain('Not sent');
  expect(await h.texts()).not.toContain("You're offline");
});

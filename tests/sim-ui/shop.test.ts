import { expect, test } from '@playwright/test';
import { product } from '../../device-runtime/sim/apps/shop/model.js';
import { SHOP, simSpace } from './harness.js';

const P2 = product(2).name;

/** Signed in under the `realistic` profile: the slow server and paged loading take clock time. */
async function signedIn() {
  const h = await simSpace({ faults: 'realistic' });
  await h.install('shop.apk');
  await h.launch(SHOP);
  await h.settle();
  await h.tap('I accept the terms');
  await h.type('email', 'ann@example.com');
  await h.call('ui_key', { key: 'back' });
  await h.type('password', 'secret-pw');
  await h.call('ui_key', { key: 'back' });
  await h.tap('Log in');
  return h;
}

test('login validates, then waits on a slow server behind a spinner', async () => {
  const h = await simSpace({ faults: 'realistic' });
  await h.install('shop.apk');
  await h.launch(SHOP);
  await h.settle();
  await h.type('password', '123');
  await h.call('ui_key', { key: 'back' });
  await h.tap('Log in');
  expect(await h.texts()).toContain('Enter a valid email address');
  const s = await signedIn();
  const busy = await s.observe();
  expect(busy.nodes.some((n) => n.role === 'progressbar' && n.desc === 'Signing in')).toBe(true);
  expect((await s.call('ui_wait_for', { idle: true, timeout_ms: 0 })).matched).toBe(false);
  const waited = await s.call('ui_wait_for', { activity: '.CatalogActivity', timeout_ms: 10_000 });
  expect(waited.matched).toBe(true);
  expect(waited.elapsed_ms).toBeGreaterThan(1000); // clock time the server took, minus the calls before
});

test('catalog: 200 products in pages of 20, loaded as the list reaches its end', async () => {
  const h = await signedIn();
  await h.call('ui_wait_for', { text: P2, timeout_ms: 10_000 });
  await h.settle();
  const names = async () =>
    (await h.observe()).nodes.filter((n) => n.res_id?.endsWith(':id/product_name')).map((n) => n.text!);
  expect((await names()).length).toBeLessThan(10);
  const seen = new Set<string>();
  for (let i = 0; i < 200 && seen.size < 200; i++) {
    for (const n of await names()) seen.add(n);
    const { moved } = await h.call('ui_scroll', { direction: 'down' });
    if (!moved) await h.settle(); // the spinner row: wait for the next page
  }
  expect(seen.size).toBe(200);
  expect(seen.has(product(200).name)).toBe(true);
});

test('two "Add to cart" buttons with the same text, a cart badge and an icon-only cart', async () => {
  const h = await signedIn();
  await h.settle();
  await h.tap(P2);
  await h.settle();
  const adds = (await h.observe()).nodes.filter((n) => n.text === 'Add to cart');
  expect(adds.length).toBe(2);
  await h.call('ui_tap', { node_id: adds[0]!.id });
  const obs = await h.observe();
  expect(obs.nodes.find((n) => n.res_id?.endsWith(':id/cart_badge'))?.text).toBe('1');
  const cart = obs.nodes.find((n) => n.res_id?.endsWith(':id/cart'))!;
  expect(cart).toMatchObject({ text: null, desc: 'Cart, 1 items', clickable: true });
});

test('the Add to cart button moves while it slides in (bounds differ between observations)', async () => {
  const h = await signedIn();
  await h.settle();
  await h.tap(P2);
  await h.call('ui_wait_for', { text: 'Frequently bought together', timeout_ms: 5_000 });
  const y1 = (await h.byRes('add_to_cart')).node.bounds[1];
  h.clock.advance(100);
  const y2 = (await h.byRes('add_to_cart')).node.bounds[1];
  await h.settle();
  const y3 = (await h.byRes('add_to_cart')).node.bounds[1];
  expect(y1).toBeGreaterThan(y2);
  expect(y2).toBeGreaterThan(y3);
});

test('deep link nwshop://product/42 opens product 42', async () => {
  const h = await simSpace();
  await h.install('shop.apk');
  const { openDeepLink } = await import('../../device-runtime/sim/core/intents.js');
  const r = openDeepLink((inst, sp) => h.rt.assignSlot(inst, sp), h.space, {
    data: 'nwshop://product/42',
    action: 'android.intent.action.VIEW',
  });
  expect(r).toMatchObject({ package: SHOP, activity: '.ProductActivity' });
  await h.settle();
  expect(await h.texts()).toContain(product(42).name);
  await h.call('ui_key', { key: 'back' }); // the link started a new task: back leaves the app
  expect((await h.observe()).package).toBeNull();
  expect(() =>
    openDeepLink((inst, sp) => h.rt.assignSlot(inst, sp), h.space, {
      data: 'nwnothing://x',
      action: 'android.intent.action.VIEW',
    }),
  ).toThrow(/app_intent: no installed app in space .* handles nwnothing:\/\/x/);
});

test('app_intent with a deep link URI (no component) opens the app that declares it', async () => {
  const h = await simSpace();
  await h.install('shop.apk');
  const r = await h.call('app_intent', { data: 'nwshop://product/42' });
  expect(r.resolved).toMatchObject({ package: SHOP, activity: '.ProductActivity' });
  await h.settle();
  expect(await h.texts()).toContain(product(42).name);
});

test('an empty coupon crashes the app with a Java stack trace; relaunch reports it', async () => {
  const h = await signedIn();
  await h.settle();
  await h.tap('Cart');
  await h.settle();
  await h.tap('Apply');
  const obs = await h.observe();
  expect(obs.package).toBeNull();
  const relaunch = await h.launch(SHOP);
  expect(relaunch.restarted_after_crash).toBe(true);
  expect(relaunch.crash_reason).toContain('java.lang.StringIndexOutOfBoundsException');
  expect(relaunch.crash_reason).toContain('CouponParser.parse(CouponParser.kt:27)');
});

test('checkout: location permission prompt, confirmation dialog, 5 s of payment', async () => {
  const h = await signedIn();
  await h.settle();
  const add = (await h.observe()).nodes.find((n) => n.text === 'Add to cart')!;
  await h.call('ui_tap', { node_id: add.id });
  await h.tap('View cart'); // the snackbar's action
  await h.settle();
  await h.tap('Checkout');
  await h.settle();
  await h.tap('Use my location');
  const prompt = await h.observe();
  expect(prompt.package).toBe('com.google.android.permissioncontroller');
  expect(prompt.nodes.map((n) => n.text)).toEqual(
    expect.arrayContaining(["Allow Shop to access this device's location?", "Don't allow"]),
  );
  expect(prompt.nodes.some((n) => n.text === 'Place order')).toBe(false);
  await h.tap('While using the app');
  await h.call('ui_wait_for', { text: '1600 Amphitheatre', timeout_ms: 5_000 });
  await h.tap('Place order');
  expect(await h.texts()).toContain('Place order?');
  await h.tap('Place order'); // the dialog's button: the one behind it is not in the tree
  const paying = await h.observe();
  expect(paying.activity).toBe('.CheckoutActivity');
  expect(paying.nodes.some((n) => n.desc === 'Processing payment')).toBe(true);
  await h.call('ui_key', { key: 'back' }); // ignored while paying
  expect((await h.observe()).activity).toBe('.CheckoutActivity');
  const notYet = await h.call('ui_wait_for', { text: 'confirmed', timeout_ms: 4_000 });
  expect(notYet.matched).toBe(false);
  const done = await h.call('ui_wait_for', { text: 'confirmed', timeout_ms: 5_000 });
  expect(done.matched).toBe(true);
  const granted = await h.call('space_permissions', { package: SHOP, action: 'list' });
  expect(granted.granted).toContain('android.permission.ACCESS_FINE_LOCATION');
});

test('terms are in a WebView with no child nodes; a tap at the Accept pixels accepts them', async () => {
  const h = await simSpace();
  await h.install('shop.apk');
  await h.launch(SHOP);
  await h.tap('Terms of service');
  const obs = await h.observe();
  const web = obs.nodes.find((n) => n.role === 'webview')!;
  expect(web.class).toBe('android.webkit.WebView');
  expect(obs.nodes.filter((n) => n.parent === web.id)).toEqual([]);
  expect(obs.nodes.some((n) => n.text?.includes('Accept'))).toBe(false);
  const r = await h.call('ui_tap', { point: [web.bounds[0] + 250, web.bounds[1] + 40 + 9 * 64 + 10] });
  expect(r.method).toBe('gesture');
  const back = await h.observe();
  expect(back.activity).toBe('.LoginActivity');
  expect(back.nodes.find((n) => n.text === 'I accept the terms')!.checked).toBe(true);
});

test('a permission denied twice is not asked for again (Android 11+)', async () => {
  const h = await simSpace();
  await h.install('shop.apk');
  await h.call('app_intent', { package: SHOP, component: `${SHOP}/.CheckoutActivity` });
  for (let i = 0; i < 2; i++) {
    await h.tap('Use my location');
    expect((await h.observe()).package).toBe('com.google.android.permissioncontroller');
    await h.tap("Don't allow");
    expect(await h.texts()).toContain('Location permission denied');
  }
  await h.tap('Use my location');
  const obs = await h.observe();
  expect(obs.package).toBe(SHOP); // no prompt this time
  expect(obs.nodes.map((n) => n.text)).toContain('Location permission denied');
});

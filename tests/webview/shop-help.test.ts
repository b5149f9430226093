import { existsSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { attachmentText, plain, runInline, type InlineRun } from '../framework/inline.js';

/**
 * WebViews as Playwright pages (docs/webviews.md), on the simulator's Shop help centre rendered
 * by Debian's Chromium: web steps with Playwright's own locators and matchers, the same content
 * found and tapped natively, the JavaScript bridge closing the screen, two instances each with
 * its own page, and bad input — no WebView on screen, a runtime without the extension, a
 * simulator without a browser, the page's renderer crashing.
 */
const CHROMIUM = '/usr/bin/chromium';
test.skip(
  !existsSync(CHROMIUM),
  `${CHROMIUM} is absent: the simulator renders WebViews in Debian's chromium (apt-get install chromium; CI installs it)`,
);
test.describe.configure({ mode: 'default' });

const HEAD = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk' });
const openHelp = async (app) => {
  await app.launch({ activity: '.CatalogActivity' });
  await app.getByRole('button', { name: 'Help' }).tap();
  await expect(app).toHaveActivity('.HelpActivity');
};
`;

const SPEC = `${HEAD}
test('search refund: one question left, its answer says within 30 days', async ({ app }) => {
  await openHelp(app);
  const help = await app.webview();
  await expect(help.getByRole('heading', { name: 'Help' })).toBeVisible();
  await expect(help).toHaveTitle('Help');
  await help.getByPlaceholder('Search help').fill('refund');
  await expect(help.getByRole('button', { name: /\\?$/ })).toHaveCount(1);
  await help.getByRole('button', { name: 'How do I get a refund?' }).click();
  await expect(help.getByText('within 30 days')).toBeVisible();
  await expect(app.getByText('within 30 days')).toBeVisible();
});

test('a native locator finds the web question and taps it', async ({ app }) => {
  await openHelp(app);
  const question = app.getByText('How do I get a refund?');
  await expect(question).toBeVisible();
  await expect(app.getByRole('button', { name: 'Where is my order?' })).toBeVisible();
  await question.tap();
  const help = await app.webview();
  await expect(help.getByText('within 30 days')).toBeVisible();
  await expect(app.getByText('within 30 days')).toBeVisible();
});

test('Back to shop closes the screen through the bridge', async ({ app }) => {
  await openHelp(app);
  const help = await app.webview({ url: /help\\/index\\.html$/ });
  await help.getByRole('button', { name: 'Back to shop' }).click();
  await expect(app).toHaveActivity('.CatalogActivity');
  await expect.poll(() => help.isClosed()).toBe(true);
});

test('two instances, each with its own page and state', async ({ app }) => {
  const ben = await app.newInstance();
  await openHelp(app);
  const mine = await app.webview();
  await mine.getByPlaceholder('Search help').fill('paypal');
  await openHelp(ben);
  const his = await ben.webview();
  await expect(his.getByPlaceholder('Search help')).toHaveValue('');
  await expect(his.getByRole('button', { name: /\\?$/ })).toHaveCount(5);
  await his.evaluate(() => localStorage.setItem('who', 'ben'));
  await app.launch();
  await expect(mine.getByPlaceholder('Search help')).toHaveValue('paypal');
  await expect(mine.getByRole('button', { name: /\\?$/ })).toHaveCount(1);
  expect(await mine.evaluate(() => localStorage.getItem('who'))).toBeNull();
  expect((await app.webviews()).length).toBe(1);
  expect((await ben.webviews()).length).toBe(1);
});

test("the instance's routes answer the page's requests", async ({ app }) => {
  await app.route('**/products/1', (route) =>
    route.fulfill({ json: { id: 1, name: 'Test Lamp', price: 1999 }, headers: { 'access-control-allow-origin': '*' } }),
  );
  await openHelp(app);
  const help = await app.webview();
  await expect(help.locator('#featured')).toHaveText('Featured: Test Lamp, $19.99');
  await expect(app.getByText('Featured: Test Lamp, $19.99')).toBeVisible();
});

test('unrouted, the page gets the real product; offline, it cannot', async ({ app }) => {
  await openHelp(app);
  const help = await app.webview();
  await expect(help.locator('#featured')).toHaveText(/^Featured: Smart Speaker 1, [$][0-9]+[.][0-9]{2}$/);
  await app.setOffline(true);
  await help.reload();
  await expect(help.locator('#featured')).toHaveText("Couldn't load the featured product");
});

// Fails as declared (test.fail): its error is what is checked, and Playwright keeps the worker for
// the next test (it restarts it after an unexpected failure).
test.fail('no WebView on screen: app.webview() times out naming the screen', async ({ app }) => {
  await app.launch({ activity: '.CatalogActivity' });
  await app.webview({ timeout: 500 });
});

test('the renderer crashing crashes the app', async ({ app }) => {
  await openHelp(app);
  const help = await app.webview();
  const crashed = new Promise((resolve) => help.once('crash', resolve));
  await help.goto('chrome://crash').catch(() => {});
  await crashed;
  await app.getByRole('button', { name: 'Help' }).tap();
});
`;

let run: InlineRun;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  run = await runInline({ 'help.spec.ts': SPEC });
});

test('open Help, search "refund", one question left, its answer says "within 30 days"', () => {
  const r = run.result('search refund: one question left, its answer says within 30 days');
  expect(r.status, r.error).toBe('passed');
  const traj = JSON.parse(attachmentText(r.attachments.find((a) => a.name === 'nestwright-trajectory')!));
  const titles = (traj.steps as Array<{ title: string; api: string; kind: string }>).map(
    (s) => `${s.kind} ${s.api}: ${s.title}`,
  );
  expect(titles).toContain('app app.webview: Get the WebView as a page');
  expect(titles).toContain('action locator.fill: Fill getByPlaceholder(\'Search help\') with "refund" in the WebView');
  expect(titles).toContain(
    "action locator.click: Click getByRole('button', { name: 'How do I get a refund?' }) in the WebView",
  );
  expect(titles.some((t) => t.startsWith("assertion expect.toBeVisible: Expect getByText('within 30 days')"))).toBe(
    true,
  );
});

test('the same question found with a native locator and tapped natively', () => {
  const r = run.result('a native locator finds the web question and taps it');
  expect(r.status, r.error).toBe('passed');
});

test('"Back to shop" closes the screen through the JavaScript bridge; the page closes with it', () => {
  const r = run.result('Back to shop closes the screen through the bridge');
  expect(r.status, r.error).toBe('passed');
});

test('two instances in parallel, each with its own WebView page and state', () => {
  const r = run.result('two instances, each with its own page and state');
  expect(r.status, r.error).toBe('passed');
});

test("the instance's network routes apply to its WebView's requests; offline reaches them too", () => {
  const routed = run.result("the instance's routes answer the page's requests");
  expect(routed.status, plain(routed.error)).toBe('passed');
  const traj = JSON.parse(attachmentText(routed.attachments.find((a) => a.name === 'nestwright-trajectory')!)) as {
    network: Array<{ url: string; answeredBy: string }>;
  };
  expect(traj.network.find((n) => n.url.endsWith('/products/1'))).toMatchObject({
    url: 'https://api.shop.nestwright.test/products/1',
    answeredBy: 'route **/products/1 (fulfill)',
  });
  const real = run.result('unrouted, the page gets the real product; offline, it cannot');
  expect(real.status, plain(real.error)).toBe('passed');
});

test('no WebView on screen: the timeout names what was on screen', () => {
  const r = run.result('no WebView on screen: app.webview() times out naming the screen');
  expect(r.status).toBe('failed');
  const error = plain(r.error);
  expect(error).toContain('app.webview: timeout 500ms exceeded waiting for a WebView on screen of com.nestwright.shop');
  expect(error).toContain('Its WebViews:\n  (none)');
  expect(error).toContain('.CatalogActivity');
  expect(error).toContain('"Help"');
});

test("the WebView's renderer crashing: the page reports it, the test fails with APP_CRASHED", () => {
  const r = run.result('the renderer crashing crashes the app');
  expect(r.status).toBe('failed');
  const error = plain(r.error);
  expect(error).toContain('APP_CRASHED');
  expect(error).toContain("Render process's crash wasn't handled by all associated webviews");
});

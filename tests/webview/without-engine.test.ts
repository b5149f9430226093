import { test, expect } from '@playwright/test';
import { startSimServer, type RunningSim } from '../../device-runtime/sim/server.js';
import { plain, runInline, type InlineRun } from '../framework/inline.js';

/**
 * `app.webview()` where it cannot work, said so (docs/webviews.md): a runtime without the
 * `webview` extension fails with NOT_SUPPORTED naming it; a simulator with no Chromium still
 * shows the WebView as a box (no page nodes), and `app.webview()` says how to install one.
 * Neither needs a browser, so these run everywhere.
 */
test.describe.configure({ mode: 'default' });

const SPEC = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk', deviceOptions: { provider: 'sim', url: process.env.NW_URL, token: process.env.NW_TOKEN } });
test('help, then app.webview()', async ({ app }) => {
  await app.launch({ activity: '.CatalogActivity' });
  await app.getByRole('button', { name: 'Help' }).tap();
  await expect(app).toHaveActivity('.HelpActivity');
  // Without a browser engine the WebView is the box it was before: no page nodes.
  if (process.env.NW_NO_BROWSER) await expect(app.getByText('How do I get a refund?')).toBeHidden();
  else await expect(app.getByText('How do I get a refund?')).toBeVisible();
  await app.webview();
});
`;

let bare: RunningSim;
let noBrowser: RunningSim;
let withoutExtension: InlineRun;
let withoutChromium: InlineRun;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  bare = await startSimServer({ withoutExtensions: ['webview'] });
  noBrowser = await startSimServer({ chromium: '/nonexistent/chromium' });
  [withoutExtension, withoutChromium] = await Promise.all([
    runInline({ 'bare.spec.ts': SPEC }, { env: { NW_URL: bare.url, NW_TOKEN: bare.token } }),
    runInline(
      { 'bare.spec.ts': SPEC },
      { env: { NW_URL: noBrowser.url, NW_TOKEN: noBrowser.token, NW_NO_BROWSER: '1' } },
    ),
  ]);
});

test.afterAll(async () => {
  await bare?.close();
  await noBrowser?.close();
});

test('a runtime without the webview extension: app.webview() fails with NOT_SUPPORTED naming it', () => {
  const r = withoutExtension.result('help, then app.webview()');
  expect(r.status).toBe('failed');
  const error = plain(r.error);
  expect(error).toContain('app.webview: this device runtime does not offer webview_list (NOT_SUPPORTED)');
  expect(error).toContain('lacks the `webview` extension');
});

test('no Chromium: the WebView is a box without page nodes, and app.webview() says how to install one', () => {
  const r = withoutChromium.result('help, then app.webview()');
  expect(r.status).toBe('failed');
  const error = plain(r.error);
  expect(error).toContain('app.webview: the WebView');
  expect(error).toContain("found none at /nonexistent/chromium: install Debian's (apt-get install chromium)");
});

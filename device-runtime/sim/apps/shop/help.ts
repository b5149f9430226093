import { defineActivity } from '../define-app.js';
import { column, iconButton, toolbar, webPage } from '../view.js';
import { assetUrl } from '../../web/web-content.js';
import { HELP_INDEX_HTML } from './help-page.js';
import type { ShopData } from './model.js';

/**
 * The help centre: a WebView loading the app's `help/index.html` asset (help-page.ts) through
 * WebViewAssetLoader, with the app's JavaScript interface `ShopBridge` — its `close()` is how
 * the page's "Back to shop" closes this screen.
 */
export const helpActivity = defineActivity<ShopData, Record<string, never>>({
  initialState: () => ({}),
  render: (ctx) =>
    column([
      toolbar('Help', [iconButton('Navigate up', () => ctx.finish(), { id: 'up' })]),
      webPage(
        {
          url: assetUrl('help/index.html'),
          assets: { 'help/index.html': HELP_INDEX_HTML },
          bridge: { ShopBridge: { close: () => ctx.finish() } },
          fallback: ['Help', '', 'The help centre needs a browser engine.'],
        },
        { id: 'help_webview' },
      ),
    ]),
});

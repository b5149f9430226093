import { defineActivity } from '../define-app.js';
import { column, iconButton, toolbar, webView } from '../view.js';
import type { ShopData } from './model.js';

const PAGE = [
  'Terms of Service',
  '',
  '1. You may use this shop to buy',
  '   simulated products.',
  '2. Prices are in simulated dollars.',
  '3. Orders cannot be cancelled.',
  '4. We store your email to sign',
  '   you in.',
  '',
  '      [ Accept ]      [ Decline ]',
];
const BUTTON_LINE = PAGE.length - 1;
const LINE_TOP = 40;
const LINE_HEIGHT = 64;

/**
 * The terms in a WebView: the page has text and buttons but no accessibility nodes, so only a
 * tap at coordinates (from a screenshot, vision, docs/protocol.md#vision) can accept them.
 */
export const termsActivity = defineActivity<ShopData, Record<string, never>>({
  initialState: () => ({}),
  render: (ctx) =>
    column([
      toolbar('Terms', [iconButton('Navigate up', () => ctx.finish(), { id: 'up' })]),
      webView(
        PAGE,
        (x, y) => {
          if (Math.floor((y - LINE_TOP) / LINE_HEIGHT) !== BUTTON_LINE) return;
          const accept = x < 540;
          ctx.update((d) => void (d.termsAccepted = accept));
          ctx.finish();
        },
        { id: 'terms_webview' },
      ),
    ]),
});

/** @internal App's webview()/webviews() are the public API. */
export { AppWebViews } from './app-webviews.js';
export type { WebView, WebViewOptions } from './app-webviews.js';
export { delegatingToPlaywright } from './web-expect.js';

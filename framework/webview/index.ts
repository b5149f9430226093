export { AppWebViews, type WebView, type WebViewOptions } from './app-webviews.js';
export { delegatingToPlaywright } from './web-expect.js';

/**
 * What an app model puts in a WebView (the simulator's `webPage()` view): the URL it loads, the
 * assets it serves, and the JavaScript interfaces it adds — Android's
 * `WebViewAssetLoader` and `addJavascriptInterface`.
 */
export interface WebContent {
  /** The URL loaded; the app's assets are at {@link ASSET_ORIGIN}`/assets/<path>`. */
  url: string;
  /** The app's assets by path under `assets/` (`help/index.html`), served to its WebViews. */
  assets?: Readonly<Record<string, string>>;
  /**
   * `addJavascriptInterface(object, name)`: the page sees `window[name].method(...args)`; each
   * call runs the app's method with the arguments as strings, on the app's side.
   */
  bridge?: Readonly<Record<string, Readonly<Record<string, (...args: string[]) => void>>>>;
  /** Lines drawn in the box where no browser engine is installed (what the WebView showed before one was). */
  fallback?: string[];
}

/** Where WebViewAssetLoader serves an app's assets (`https://appassets.androidplatform.net/assets/…`). */
export const ASSET_ORIGIN = 'https://appassets.androidplatform.net';

/** The URL of the asset at `path` (`help/index.html`). */
export function assetUrl(path: string): string {
  return `${ASSET_ORIGIN}/assets/${path}`;
}

/** A page's picture, decoded (RGBA rows), as a screenshot draws it. Serialised as its id: paint ops are a cache key. */
export interface WebPicture {
  readonly id: string;
  readonly width: number;
  readonly height: number;
  readonly rgba: Buffer;
  toJSON(): string;
}

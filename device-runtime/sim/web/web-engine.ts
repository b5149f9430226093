import type { BrowserContext } from 'playwright-core';
import type { WebViewInfo } from '../../protocol/index.js';
import { chromiumMissing, chromiumPath, sharedChromium } from './chromium.js';
import type { WebContent } from './web-content.js';
import { SimWebPage, type Bounds, type WebPageOwner } from './web-page.js';

/** Which WebView of which activity of which instance: the engine's key for its page. */
export interface WebViewRef {
  spaceId: string;
  /** `com.example.app@0` */
  instanceKey: string;
  /** The activity record's sequence number: the page lives as long as that activity. */
  seq: number;
  /** The view's resource id, else its place in the tree. */
  view: string;
}

/** How long a call waits for queued browser work before answering with what the page shows so far, ms. */
const SETTLE_MS = 15_000;

const keyOf = (r: WebViewRef) => `${r.spaceId}/${r.instanceKey}/${r.seq}/${r.view}`;

/**
 * The WebViews of one simulated runtime as real pages in Chromium (chromium.ts): one browser
 * context per app instance (its cookies and storage, gone with it), one page per WebView of a
 * live activity, at the WebView's size and the device's density, with touch input.
 *
 * The screen is synchronous and the browser is not, so the two meet at {@link sync}: the screen
 * registers what is on it as it composes a frame ({@link show}), and every tool call that looks
 * at or acts on the screen first awaits `sync`, which waits for queued input, hands the app its
 * bridge calls, closes the pages of activities that ended and reads the nodes of pages that
 * changed.
 */
export class SimWebEngine {
  private readonly pages = new Map<string, SimWebPage>();
  /** Without an engine: the WebViews shown, as boxes (listed with the reason they have no page). */
  private readonly boxes = new Map<string, { id: string; url: string; bounds: Bounds; onScreen: boolean }>();
  private readonly contexts = new Map<string, Promise<BrowserContext>>();
  private readonly missingWhy: string | null;
  private readonly path: string | null;
  private counter = 0;

  /**
   * @param executable Chromium to run (default NESTWRIGHT_CHROMIUM or /usr/bin/chromium); false:
   *   none, WebViews stay boxes with no page.
   * @param scale Screen px per CSS px (the device's density / 160).
   */
  constructor(
    executable: string | false | undefined,
    private readonly scale: number,
  ) {
    this.path = executable === false ? null : (executable ?? chromiumPath());
    this.missingWhy =
      this.path === null
        ? 'this simulator runs without a browser engine (chromium: false)'
        : chromiumMissing(this.path);
  }

  /** Why WebViews have no page here (no Chromium), or null when they do. */
  get missing(): string | null {
    return this.missingWhy;
  }

  /**
   * The WebView `ref` is on screen at `bounds` showing `spec` (called as a frame is composed):
   * its page is made on first sight, and follows a new URL or size. Null when there is no engine.
   */
  show(ref: WebViewRef, spec: WebContent, bounds: Bounds, owner: WebPageOwner): SimWebPage | null {
    const key = keyOf(ref);
    if (this.missingWhy) {
      const box = this.boxes.get(key);
      this.boxes.set(key, { id: box?.id ?? `webview-${++this.counter}`, url: spec.url, bounds, onScreen: true });
      return null;
    }
    let page = this.pages.get(key);
    if (!page || page.closed) {
      const context = `${ref.spaceId}/${ref.instanceKey}`;
      page = new SimWebPage(key, `webview-${++this.counter}`, spec, bounds, owner, this.scale, () =>
        this.contextFor(context),
      );
      this.pages.set(key, page);
    } else page.update(spec, bounds, owner);
    page.onScreen = true;
    return page;
  }

  /** A frame of `spaceId` is being composed: what it shows is on screen, nothing else. */
  beginFrame(spaceId: string): void {
    for (const p of this.pages.values()) if (p.key.startsWith(`${spaceId}/`)) p.onScreen = false;
    for (const [key, box] of this.boxes) if (key.startsWith(`${spaceId}/`)) box.onScreen = false;
  }

  private contextFor(id: string): Promise<BrowserContext> {
    let ctx = this.contexts.get(id);
    if (!ctx) {
      ctx = (async () => {
        const { browser } = await sharedChromium(this.path!);
        const version = browser.version().split('/').pop() ?? '';
        return browser.newContext({
          deviceScaleFactor: this.scale,
          isMobile: true,
          hasTouch: true,
          userAgent: `Mozilla/5.0 (Linux; Android 15; nestwright simulated device; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/${version} Mobile Safari/537.36`,
        });
      })();
      this.contexts.set(id, ctx);
      ctx.catch(() => this.contexts.delete(id));
    }
    return ctx;
  }

  /**
   * Bring the pages of `spaceId` up to date: close those whose activity ended (`live` says which
   * live on), wait for queued input, run bridge calls and crashes in the app, and read the nodes
   * (and with `pictures`, the picture) of pages that changed.
   */
  async sync(spaceId: string, live: (instanceKey: string, seq: number) => boolean, pictures = false): Promise<void> {
    for (const key of this.boxes.keys()) {
      const [space, instanceKey, seq] = key.split('/');
      if (space === spaceId && !live(instanceKey!, Number(seq))) this.boxes.delete(key);
    }
    const mine = [...this.pages.values()].filter((p) => p.key.startsWith(`${spaceId}/`));
    if (!mine.length) return;
    const ended: Array<Promise<void>> = [];
    for (const page of mine) {
      const [, instanceKey, seq] = page.key.split('/');
      if (page.closed || !live(instanceKey!, Number(seq))) {
        this.pages.delete(page.key);
        ended.push(page.close());
      }
    }
    await Promise.all(ended);
    const open = mine.filter((p) => this.pages.get(p.key) === p);
    await Promise.all(open.map((p) => withTimeout(p.settled(), SETTLE_MS)));
    for (const page of open) await page.refresh(pictures && page.onScreen);
    await this.dropIdleContexts(spaceId, live);
  }

  /** Close the browser context of each instance of the space with no live activity (stopped, crashed, gone). */
  private async dropIdleContexts(spaceId: string, live: (instanceKey: string, seq: number) => boolean): Promise<void> {
    for (const [id, ctx] of this.contexts) {
      if (!id.startsWith(`${spaceId}/`)) continue;
      const instanceKey = id.slice(spaceId.length + 1);
      const used = [...this.pages.values()].some((p) => p.key.startsWith(`${id}/`) && live(instanceKey, seqOf(p)));
      if (used) continue;
      this.contexts.delete(id);
      await ctx.then((c) => c.close()).catch(() => undefined);
    }
  }

  /** Browser work is queued or a page on screen changed since its nodes were read (the screen is not idle). */
  busy(spaceId: string): boolean {
    return [...this.pages.values()].some((p) => p.key.startsWith(`${spaceId}/`) && p.onScreen && p.pending);
  }

  /** The WebViews of an instance, those on screen first, as webview_list answers. */
  list(spaceId: string, instanceKey: string, endpoint: string | null): WebViewInfo[] {
    const prefix = `${spaceId}/${instanceKey}/`;
    if (this.missingWhy) {
      const boxes = [...this.boxes].filter(([key]) => key.startsWith(prefix)).map(([, box]) => box);
      return boxes
        .sort((a, b) => Number(b.onScreen) - Number(a.onScreen))
        .map((b) => ({
          id: b.id,
          url: b.url,
          title: '',
          bounds: b.bounds,
          on_screen: b.onScreen,
          devtools: null,
          unavailable: this.missingWhy,
        }));
    }
    const pages = [...this.pages.values()].filter((p) => p.key.startsWith(prefix) && !p.closed);
    pages.sort((a, b) => Number(b.onScreen) - Number(a.onScreen) || seqOf(b) - seqOf(a));
    return pages.map((p) => {
      const ready = !!(p.targetId && endpoint && !p.failed);
      return {
        id: p.id,
        url: p.url,
        title: p.title,
        bounds: p.bounds,
        on_screen: p.onScreen,
        devtools: ready ? { endpoint, socket: null, target_id: p.targetId } : null,
        unavailable: ready
          ? null
          : (p.failed ?? this.missingWhy ?? 'the page is still being created: list again in a moment'),
      };
    });
  }

  /** The CDP endpoint of the browser, once it runs. */
  async endpoint(): Promise<string | null> {
    if (this.missingWhy || !this.contexts.size) return null;
    return (await sharedChromium(this.path!)).endpoint;
  }

  /** Close every context of this runtime (the browser serves the process and stays). */
  async close(): Promise<void> {
    const pages = [...this.pages.values()];
    this.pages.clear();
    await Promise.all(pages.map((p) => p.close()));
    const contexts = [...this.contexts.values()];
    this.contexts.clear();
    await Promise.all(contexts.map((c) => c.then((x) => x.close()).catch(() => undefined)));
  }
}

const seqOf = (p: SimWebPage) => Number(p.key.split('/')[2]);

function withTimeout(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

import { PNG } from 'pngjs';
import type { BrowserContext, CDPSession, Page, Route } from 'playwright-core';
import type { AppFailure, RawAppRequest, RawAppResponse } from '../net/http-client.js';
import { readWebNodes, type WebNode } from './ax-nodes.js';
import { ASSET_ORIGIN, type WebContent, type WebPicture } from './web-content.js';

/** [left, top, right, bottom] on screen, px. */
export type Bounds = [number, number, number, number];

/** What the page calls back into: the app (bridge calls, run on the app's side) and the screen (it changed). */
export interface WebPageOwner {
  /** Run app code for this WebView's instance (its exceptions crash the app). */
  run(fn: () => void): void;
  /** The page's renderer died: the app goes with it, as Android's default `onRenderProcessGone` does. */
  crash(reason: string): void;
  /** A request of the page, sent by the app's network stack (its hosts, proxy, trust store, offline). */
  fetch(req: RawAppRequest): Promise<RawAppResponse>;
}

/** The page's renderer crash, in the words Android's WebView logs before the app dies. */
export const RENDERER_GONE =
  "Render process's crash wasn't handled by all associated webviews, triggering application crash.";

let pictureCounter = 0;

/**
 * One WebView's page in Chromium. Everything that talks to the browser is queued on one chain
 * (creation, navigation, input), so input lands in order and {@link SimWebPage.settled} says
 * when it has; the accessibility nodes and the picture are caches, refreshed when the page says
 * it changed (a mutation observer calls back) or after input.
 */
export class SimWebPage {
  page: Page | null = null;
  targetId: string | null = null;
  nodes: WebNode[] = [];
  /** The page's title as of the last refresh. */
  title = '';
  picture: WebPicture | null = null;
  /** The page changed since the nodes (and the picture) were read. */
  private stale = true;
  private pictureStale = true;
  private loadedUrl: string | null = null;
  private viewport: { width: number; height: number } | null = null;
  private cdp: CDPSession | null = null;
  private chain: Promise<void> = Promise.resolve();
  private calls: Array<() => void> = [];
  private crashedReason: string | null = null;
  /** The creation failed: why (the page stays a box with no nodes). */
  failed: string | null = null;
  closed = false;
  onScreen = false;

  constructor(
    readonly key: string,
    readonly id: string,
    public spec: WebContent,
    public bounds: Bounds,
    public owner: WebPageOwner,
    private readonly scale: number,
    context: () => Promise<BrowserContext>,
  ) {
    this.enqueue(() => this.create(context));
  }

  get url(): string {
    return this.page?.url() ?? '';
  }

  /** Queue browser work after what is queued; a failure is kept as {@link failed}, never thrown at the caller. */
  private enqueue(fn: () => Promise<void>): void {
    this.chain = this.chain
      .then(async () => {
        if (this.closed || this.failed) return;
        await fn();
      })
      .catch((e: unknown) => {
        if (this.closed || this.crashedReason) return;
        this.failed = e instanceof Error ? e.message : String(e);
      });
  }

  private async create(context: () => Promise<BrowserContext>): Promise<void> {
    const ctx = await context();
    const page = await ctx.newPage();
    this.page = page;
    if (this.closed) return void (await page.close());
    page.on('crash', () => {
      this.crashedReason = RENDERER_GONE;
      this.stale = true;
    });
    const cdp = await ctx.newCDPSession(page);
    this.cdp = cdp;
    this.targetId = (
      (await cdp.send('Target.getTargetInfo')) as { targetInfo: { targetId: string } }
    ).targetInfo.targetId;
    // Two bindings: the app's JavaScript interfaces, and "the page changed" from a mutation observer.
    cdp.on('Runtime.bindingCalled', (e: { name: string; payload: string }) => {
      if (e.name === '__nwChanged') this.markStale();
      else if (e.name === '__nwBridge') this.bridgeCall(e.payload);
    });
    await cdp.send('Runtime.enable');
    await cdp.send('Runtime.addBinding', { name: '__nwChanged' });
    await cdp.send('Runtime.addBinding', { name: '__nwBridge' });
    await page.addInitScript({ content: initScript(this.spec) });
    await page.route(`${ASSET_ORIGIN}/**`, async (route) => {
      const path = decodeURIComponent(new URL(route.request().url()).pathname.replace(/^\/assets\//, ''));
      const body = this.spec.assets?.[path];
      if (body === undefined)
        return route.fulfill({ status: 404, contentType: 'text/plain', body: `no asset ${path}` });
      return route.fulfill({ status: 200, contentType: contentType(path), body });
    });
    // Everything else the page loads goes out as the app's own requests do: the WebView is in
    // the app's process, so the instance's network (its routes, offline, conditions) is its too.
    await page.route(
      (url) => url.origin !== ASSET_ORIGIN && /^https?:$/.test(url.protocol),
      (route) => this.forward(route),
    );
    await this.resize();
    await this.navigate();
  }

  private async forward(route: Route): Promise<void> {
    const r = route.request();
    const headers = await r.allHeaders();
    const res = await this.owner.fetch({ method: r.method(), url: r.url(), headers, ...bodyOf(r.postDataBuffer()) });
    if (res.error) return route.abort(abortCode(res.error));
    const out = Object.fromEntries(Object.entries(res.headers).filter(([k]) => !HOP_BY_HOP.has(k)));
    await route.fulfill({ status: res.status, headers: out, body: res.body });
  }

  private async resize(): Promise<void> {
    const width = Math.max(1, Math.round((this.bounds[2] - this.bounds[0]) / this.scale));
    const height = Math.max(1, Math.round((this.bounds[3] - this.bounds[1]) / this.scale));
    if (this.viewport?.width === width && this.viewport.height === height) return;
    this.viewport = { width, height };
    await this.page!.setViewportSize(this.viewport);
    this.markStale();
  }

  private async navigate(): Promise<void> {
    if (this.loadedUrl === this.spec.url) return;
    this.loadedUrl = this.spec.url;
    await this.page!.goto(this.spec.url, { waitUntil: 'load' });
    this.markStale();
  }

  /** The app rendered this WebView again: follow a new URL or a new size. */
  update(spec: WebContent, bounds: Bounds, owner: WebPageOwner): void {
    this.spec = spec;
    this.owner = owner;
    const moved = bounds.some((v, i) => v !== this.bounds[i]);
    this.bounds = bounds;
    if (this.page && (moved || spec.url !== this.loadedUrl))
      this.enqueue(async () => {
        await this.resize();
        await this.navigate();
      });
  }

  markStale(): void {
    this.stale = true;
    this.pictureStale = true;
  }

  private bridgeCall(payload: string): void {
    let call: { object?: unknown; method?: unknown; args?: unknown };
    try {
      call = JSON.parse(payload) as typeof call;
    } catch {
      return;
    }
    const fn = this.spec.bridge?.[String(call.object)]?.[String(call.method)];
    const args = Array.isArray(call.args) ? call.args.map(String) : [];
    if (fn) this.calls.push(() => fn(...args));
    this.stale = true;
  }

  /** Where a rect of the page (CSS px) is on screen, px. */
  toScreen(rect: [number, number, number, number]): Bounds {
    const [l, t] = this.bounds;
    const s = this.scale;
    return [
      Math.round(l + rect[0] * s),
      Math.round(t + rect[1] * s),
      Math.round(l + rect[2] * s),
      Math.round(t + rect[3] * s),
    ];
  }

  /** Page coordinates (CSS px) of a screen point. */
  private css(x: number, y: number): [number, number] {
    return [(x - this.bounds[0]) / this.scale, (y - this.bounds[1]) / this.scale];
  }

  /** A finger's tap at screen (x, y): touch events, as the WebView forwards them. */
  tap(x: number, y: number): void {
    const [cx, cy] = this.css(x, y);
    this.enqueue(async () => {
      await this.page!.touchscreen.tap(cx, cy);
      this.markStale();
    });
  }

  /** A drag from one screen point to another over `durationMs`: a touch scroll gesture in the page. */
  swipe(from: [number, number], to: [number, number], durationMs: number): void {
    const [x, y] = this.css(from[0], from[1]);
    const [x2, y2] = this.css(to[0], to[1]);
    const distance = Math.hypot(x2 - x, y2 - y);
    this.enqueue(async () => {
      await this.cdp!.send('Input.synthesizeScrollGesture', {
        x,
        y,
        xDistance: x2 - x,
        yDistance: y2 - y,
        gestureSourceType: 'touch',
        speed: Math.max(200, Math.round((distance / Math.max(1, durationMs)) * 1000)),
      });
      this.markStale();
    });
  }

  /** ACTION_SET_TEXT on a field of the page: focus it, replace its text, as typing would (input events fire). */
  setText(backendId: number, text: string): void {
    this.enqueue(async () => {
      const cdp = this.cdp!;
      await cdp.send('DOM.focus', { backendNodeId: backendId });
      const { object } = (await cdp.send('DOM.resolveNode', { backendNodeId: backendId })) as {
        object: { objectId: string };
      };
      await cdp.send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        functionDeclaration: 'function () { if (typeof this.select === "function") this.select(); }',
      });
      if (text) await cdp.send('Input.insertText', { text });
      else await this.page!.keyboard.press('Delete');
      this.markStale();
    });
  }

  /** A key event to the page's focused element. */
  press(key: 'Enter' | 'Backspace'): void {
    this.enqueue(async () => {
      await this.page!.keyboard.press(key);
      this.markStale();
    });
  }

  /** Everything queued so far has been done (or failed). */
  settled(): Promise<void> {
    return this.chain;
  }

  /** Whether browser work is queued or the nodes are out of date. */
  get pending(): boolean {
    return this.stale;
  }

  /**
   * Hand queued bridge calls and a renderer crash to the app, then read the nodes again when the
   * page changed (and the picture when asked). Runs inside a tool call, so app code runs where
   * the app's other callbacks do.
   */
  async refresh(picture: boolean): Promise<void> {
    const calls = this.calls.splice(0);
    for (const call of calls) this.owner.run(call);
    if (this.crashedReason) {
      const reason = this.crashedReason;
      this.crashedReason = null;
      this.nodes = [];
      this.closed = true;
      this.owner.crash(reason);
      return;
    }
    if (!this.cdp || this.closed || this.failed) return;
    if (this.stale) {
      this.stale = false;
      try {
        this.nodes = await readWebNodes(this.cdp);
        this.title = await this.page!.title();
      } catch {
        // A navigation or crash in the middle: read again next time.
        this.stale = true;
      }
    }
    if (picture && this.pictureStale && this.page) {
      this.pictureStale = false;
      try {
        const png = PNG.sync.read(await this.page.screenshot({ type: 'png', timeout: 10_000 }));
        const id = `web-${++pictureCounter}`;
        this.picture = { id, width: png.width, height: png.height, rgba: png.data, toJSON: () => id };
      } catch {
        this.pictureStale = true;
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.nodes = [];
    await this.chain;
    await this.page?.close().catch(() => undefined);
  }
}

/** The script every document of the page starts with: the app's JavaScript interfaces, and the change observer. */
function initScript(spec: WebContent): string {
  const objects = Object.entries(spec.bridge ?? {}).map(
    ([name, methods]) =>
      `window[${JSON.stringify(name)}] = {${Object.keys(methods)
        .map(
          (m) =>
            `${JSON.stringify(m)}: (...args) => { window.__nwBridge(JSON.stringify({ object: ${JSON.stringify(name)}, method: ${JSON.stringify(m)}, args: args.map(String) })); }`,
        )
        .join(', ')}};`,
  );
  return `(() => {
  ${objects.join('\n  ')}
  let queued = false;
  const changed = () => { if (queued) return; queued = true; queueMicrotask(() => { queued = false; window.__nwChanged(''); }); };
  new MutationObserver(changed).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  for (const type of ['input', 'scroll', 'focusin', 'focusout', 'load']) addEventListener(type, changed, true);
})();`;
}

function contentType(path: string): string {
  if (path.endsWith('.html') || path.endsWith('.htm')) return 'text/html; charset=utf-8';
  if (path.endsWith('.js')) return 'text/javascript';
  if (path.endsWith('.css')) return 'text/css';
  if (path.endsWith('.json')) return 'application/json';
  if (path.endsWith('.svg')) return 'image/svg+xml';
  return 'application/octet-stream';
}

/** Headers of one connection, not of the answer: the page's own connection to Chromium has its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade']);

const bodyOf = (b: Buffer | null) => (b && b.length > 0 ? { body: b } : {});

/** The network error Chromium reports for a failure of the app's network stack. */
function abortCode(e: AppFailure): string {
  if (e.kind === 'offline') return 'internetdisconnected';
  if (e.code === 'ECONNREFUSED') return 'connectionrefused';
  if (e.code === 'ECONNRESET') return 'connectionreset';
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return 'namenotresolved';
  if (/TIMEOUT/i.test(e.code)) return 'timedout';
  return 'failed';
}

import type { Page } from '@playwright/test';
import type { WebViewInfo } from '../../device-runtime/protocol/index.js';
import { describeScreen, NestwrightError, TimeoutError } from '../core/errors.js';
import type { ApiCall } from '../core/api-call.js';
import type { InstancePort } from '../core/port.js';
import { pageAt } from './cdp-pages.js';
import { recordedPage } from './web-steps.js';

/** Which WebView `app.webview()` means: the only one on screen, or the one whose URL or title matches. */
export interface WebViewOptions {
  /** The page's URL: equal to a string, or matching a RegExp. */
  url?: string | RegExp;
  /** The page's title: equal to a string, or matching a RegExp. */
  title?: string | RegExp;
  /** How long to wait for it to appear, ms (default: the action timeout). */
  timeout?: number;
}

/** One WebView of the instance, as `app.webviews()` lists it. */
export interface WebView {
  /** Names it while it lives. */
  readonly id: string;
  readonly url: string;
  readonly title: string;
  /** Where it is on screen, px: [left, top, right, bottom]. */
  readonly bounds: readonly [number, number, number, number];
  /** Part of the screen now. */
  readonly onScreen: boolean;
  /** Its page, as Playwright's `Page`; fails when the WebView cannot be driven (the message says why). */
  page(): Promise<Page>;
}

/** How often `app.webview()` lists the WebViews again while it waits, ms. */
const POLL_MS = 100;
const EXTENSION = 'webview';

const matches = (want: string | RegExp | undefined, got: string) =>
  want === undefined || (typeof want === 'string' ? want === got : want.test(got));

/** A reason in `unavailable` that waiting will not change (no browser engine, debugging off). */
const permanent = (why: string | null) => !!why && !/still being created/.test(why);

/**
 * The WebViews of one app instance as Playwright pages (docs/webviews.md): listed through the
 * device protocol's `webview` extension, connected to with `chromium.connectOverCDP`, and
 * handed to the test with their actions recorded as steps (web-steps.ts).
 *
 * @internal App's `webview()` and `webviews()` are the public API.
 */
export class AppWebViews {
  constructor(private readonly port: InstancePort) {}

  /** The instance's WebViews now: on screen first. One `webview_list`. */
  list(): Promise<WebView[]> {
    return this.port.wrap('app.webviews', {}, (call) => this.listed(call));
  }

  private async listed(call: ApiCall): Promise<WebView[]> {
    const infos = await this.infos(call);
    return infos.map((info) => ({
      id: info.id,
      url: info.url,
      title: info.title,
      bounds: info.bounds,
      onScreen: info.on_screen,
      page: () =>
        this.port.wrap('webview.page', {}, (c) =>
          this.pageOf(c, info, Date.now() + this.port.timeout(undefined, 'action')),
        ),
    }));
  }

  /** The page of the WebView `opts` names, waiting for it to appear (the action timeout). */
  async webview(opts: WebViewOptions = {}): Promise<Page> {
    const api = 'app.webview';
    const ms = this.port.timeout(opts.timeout, 'action');
    const which = [opts.url && `url ${String(opts.url)}`, opts.title && `title ${String(opts.title)}`]
      .filter(Boolean)
      .join(', ');
    return this.port.wrap(api, { timeout: opts.timeout }, (call) =>
      this.port.step(
        call,
        { kind: 'app', title: `Get the WebView${which ? ` with ${which}` : ''} as a page`, selector: null },
        async () => {
          const deadline = Date.now() + ms;
          let seen: WebViewInfo[] = [];
          for (;;) {
            seen = await this.infos(call);
            const hits = seen.filter((w) => w.on_screen && matches(opts.url, w.url) && matches(opts.title, w.title));
            if (hits.length > 1 && !which) {
              throw new NestwrightError(
                api,
                `${hits.length} WebViews are on screen: ${hits.map((w) => `${w.url} ("${w.title}")`).join(', ')}; say which with { url } or { title }.`,
                { code: 'STRICT_MODE_VIOLATION' },
              );
            }
            const hit = hits[0];
            if (hit && (hit.devtools || permanent(hit.unavailable))) return this.pageOf(call, hit, deadline);
            if (Date.now() >= deadline) break;
            await this.port.clock.sleep(POLL_MS);
          }
          const obs = await this.port.observeAsIs(call).catch(() => null);
          const listed = seen.length
            ? seen.map(
                (w) =>
                  `  ${w.on_screen ? 'on screen' : 'not on screen'}: ${w.url || '(no page yet)'} ("${w.title}")${w.unavailable ? ` — ${w.unavailable}` : ''}`,
              )
            : ['  (none)'];
          throw new TimeoutError(
            api,
            `timeout ${this.port.describeTimeout(ms)} exceeded waiting for a WebView${which ? ` with ${which}` : ''} on screen of ${this.port.who()}.\nIts WebViews:\n${listed.join('\n')}\nOn screen:\n${describeScreen(obs)}`,
            [`waiting for a WebView${which ? ` with ${which}` : ''} of ${this.port.who()} on screen`],
            obs,
          );
        },
      ),
    );
  }

  private async infos(call: ApiCall): Promise<WebViewInfo[]> {
    const api = call;
    if (!(await this.port.offers(EXTENSION))) {
      throw new NestwrightError(
        api,
        `this device runtime does not offer webview_list (NOT_SUPPORTED): it lacks the \`${EXTENSION}\` extension, so the app's WebViews cannot be driven as pages on it. Run on the simulator or a runtime that lists "${EXTENSION}" in runtime_info.extensions (docs/webviews.md).`,
        { code: 'NOT_SUPPORTED' },
      );
    }
    const { webviews } = await this.port.call(call, 'webview_list', {
      space_id: this.port.spaceId,
      package: this.port.pkg,
      ...(this.port.instance ? { instance: this.port.instance } : {}),
    });
    return webviews;
  }

  private async pageOf(call: ApiCall, info: WebViewInfo, deadline: number): Promise<Page> {
    const api = call;
    const endpoint = info.devtools?.endpoint;
    const target = info.devtools?.target_id;
    if (!endpoint || !target) {
      throw new NestwrightError(
        api,
        `the WebView ${info.url || info.id} of ${this.port.who()} cannot be driven: ${info.unavailable ?? (info.devtools?.socket ? `its DevTools socket ${info.devtools.socket} is on the device and this connection cannot forward it` : 'it serves no DevTools endpoint')}.`,
        { code: 'NOT_SUPPORTED' },
      );
    }
    const page = await pageAt(endpoint, target, deadline);
    if (!page) {
      throw new NestwrightError(
        api,
        `the DevTools endpoint ${endpoint} does not serve the WebView's page (target ${target}): the page may have closed; list again with app.webviews().`,
        { code: 'NOT_SUPPORTED' },
      );
    }
    return recordedPage(page, this.port);
  }
}

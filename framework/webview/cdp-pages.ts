import { chromium, type Browser, type Page } from '@playwright/test';

/**
 * Playwright connections to the DevTools endpoints WebViews serve (`chromium.connectOverCDP`),
 * one per endpoint per process, made on first use and kept: a worker's tests share it, as they
 * share the device. Playwright's own `chromium` (from `@playwright/test`) is used so the pages
 * are the test runner's kind of object — its tracing and API steps see them.
 */
const connections = new Map<string, Promise<Browser>>();

function connect(endpoint: string): Promise<Browser> {
  let browser = connections.get(endpoint);
  if (!browser) {
    browser = chromium.connectOverCDP(endpoint);
    connections.set(endpoint, browser);
    browser.then(
      (b) => b.on('disconnected', () => connections.delete(endpoint)),
      () => connections.delete(endpoint),
    );
  }
  return browser;
}

/** The CDP target id of each page seen, asked once (one CDP call per page). */
const targets = new WeakMap<Page, Promise<string | null>>();

function targetOf(page: Page): Promise<string | null> {
  let id = targets.get(page);
  if (!id) {
    id = (async () => {
      const session = await page.context().newCDPSession(page);
      try {
        const info = (await session.send('Target.getTargetInfo')) as { targetInfo: { targetId: string } };
        return info.targetInfo.targetId;
      } finally {
        await session.detach().catch(() => undefined);
      }
    })().catch(() => null);
    targets.set(page, id);
  }
  return id;
}

/** How often to look again for a page the endpoint has not announced yet, ms. */
const LOOK_MS = 50;

/**
 * The page with CDP target `targetId` at `endpoint` — a page among all of the endpoint's
 * (a WebView's socket serves every page of its process; the simulator's browser serves every
 * instance's). Waits until `deadline` (epoch ms) for it to be announced; null when it is not.
 */
export async function pageAt(endpoint: string, targetId: string, deadline: number): Promise<Page | null> {
  const browser = await connect(endpoint);
  for (;;) {
    for (const page of browser.contexts().flatMap((c) => c.pages())) {
      if (page.isClosed()) continue;
      if ((await targetOf(page)) === targetId) return page;
    }
    if (Date.now() >= deadline) return null;
    await new Promise((r) => setTimeout(r, LOOK_MS));
  }
}

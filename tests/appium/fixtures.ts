import { test as base } from '@playwright/test';
import { remote } from 'webdriverio';
import { notesCaps, startAppium, type AppiumServer } from './appium-server.js';

export type Browser = Awaited<ReturnType<typeof remote>>;

/**
 * `appium`: one Appium 3 server per worker (it takes seconds to start), with the NestSpace
 * driver built and installed from its local folder (packing it first, when its sources changed,
 * can take minutes). `open(caps)`: a WebdriverIO 9 session against it, deleted when the test
 * ends if the test has not done so.
 */
export const test = base.extend<
  { open: (extra?: Record<string, unknown>) => Promise<Browser> },
  { appium: AppiumServer }
>({
  appium: [
    async ({}, use) => {
      const server = await startAppium();
      await use(server);
      await server.close();
    },
    { scope: 'worker', timeout: 600_000 },
  ],
  open: async ({ appium }, use) => {
    const sessions: Browser[] = [];
    await use(async (extra = {}) => {
      const b = await remote({
        hostname: '127.0.0.1',
        port: appium.port,
        logLevel: 'silent',
        connectionRetryCount: 0,
        waitforTimeout: 5_000,
        capabilities: notesCaps(extra) as never,
      });
      sessions.push(b);
      return b;
    });
    for (const b of sessions) await b.deleteSession().catch(() => {});
  },
});

export { expect } from '@playwright/test';

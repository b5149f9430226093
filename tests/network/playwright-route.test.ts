import { errors, expect, test } from '@playwright/test';
import { NestwrightError, TimeoutError } from '../../framework/errors.js';
import { test as nwTest } from '../../framework/index.js';
import { AppNetwork, TestNetwork } from '../../framework/network/index.js';
import type { Route } from '../../framework/network/route.js';
import type { Request } from '../../framework/network/messages.js';
import { fakePort, HOST, proxiedClient, startBackend } from './engine-helpers.js';
import { withTestNetwork } from './test-network-scope.js';

/**
 * Playwright's own route, request and response cases (tests/page/*.spec.ts of microsoft/playwright,
 * each named in its title), ported to an instance's network: the real proxy in-process, a real
 * HTTPS backend on 127.0.0.1, and an HTTPS client through the proxy as the app is.
 */
test.describe.configure({ mode: 'default' });

const ORIGIN = `https://${HOST}`;
const CATALOG = `${ORIGIN}/products?page=1`;

let backend: Awaited<ReturnType<typeof startBackend>>;
test.beforeAll(async () => {
  backend = await startBackend();
  await backend.server.forGet('/foo').thenReply(302, '', { location: '/products?page=2' });
  await backend.server.forGet('/loop').thenReply(302, '', { location: '/loop' });
  await backend.server.forPost('/echo').thenCallback(async (req) => ({
    statusCode: 200,
    json: { body: await req.body.getText() },
  }));
});
test.afterAll(async () => {
  await backend.server.stop();
});

async function network() {
  const { port, runtime, trajectory } = fakePort(backend.info);
  const net = new AppNetwork(port);
  await net.wrap('test', (call) => net.start(call));
  const client = proxiedClient(runtime.proxy!);
  return { net, trajectory, client, close: async () => (client.close(), await net.close()) };
}

/** The first route a request meets, held by the test (Playwright's `page.route('**', resolve)`). */
function heldRoute(n: Awaited<ReturnType<typeof network>>): Promise<Route> {
  return new Promise<Route>((resolve) => void n.net.route('**/*', (route) => resolve(route)));
}

test('unroute from inside a handler runs no handler twice (page-route.spec.ts: should work if handler with times parameter was removed from another handler)', async () => {
  const n = await network();
  const intercepted: string[] = [];
  const handler = async (route: Route) => {
    intercepted.push('first');
    await route.continue();
  };
  await n.net.route('**/*', handler, { times: 1 });
  await n.net.route('**/*', async (route) => {
    intercepted.push('second');
    await n.net.unroute('**/*', handler);
    await route.fallback();
  });
  expect((await n.client.get(CATALOG)).status).toBe(200);
  expect(intercepted).toEqual(['second']);
  intercepted.length = 0;
  expect((await n.client.get(CATALOG)).status).toBe(200);
  expect(intercepted).toEqual(['second']);
  await n.close();
});

test('a handler that unroutes itself runs once per request (page-route.spec.ts: should unroute)', async () => {
  const n = await network();
  const intercepted: number[] = [];
  await n.net.route('**/*', (route) => (intercepted.push(1), route.fallback()));
  const self = async (route: Route) => {
    intercepted.push(2);
    await n.net.unroute('**/products*', self);
    await route.fallback();
  };
  await n.net.route('**/products*', self);
  expect((await n.client.get(CATALOG)).status).toBe(200);
  expect(intercepted).toEqual([2, 1]);
  intercepted.length = 0;
  expect((await n.client.get(CATALOG)).status).toBe(200);
  expect(intercepted).toEqual([1]);
  await n.close();
});

test('continue to another protocol is refused (page-request-continue.spec.ts: should not allow changing protocol when overriding url)', async () => {
  const n = await network();
  const error = new Promise<Error | null>((resolve) => {
    void n.net.route('**/*', async (route) => {
      try {
        await route.continue({ url: 'file:///tmp/foo' });
        resolve(null);
      } catch (e) {
        resolve(e as Error);
        await route.abort();
      }
    });
  });
  await n.client.get(CATALOG).catch(() => {});
  const e = await error;
  expect(e?.message).toContain('New URL must have same protocol as overridden URL');
  await n.close();
});

test('postData overridden with an empty string is an empty string (page-request-continue.spec.ts: postData should return empty string when overriding body with empty string)', async () => {
  const n = await network();
  await n.net.route('**/*', (route) => route.continue({ postData: '' }));
  const request = n.net.waitForRequest('**');
  const posted = n.client.post(`${ORIGIN}/echo`, 'original');
  expect((await request).postData()).toBe('');
  expect(JSON.parse((await posted).text)).toEqual({ body: '' });
  await n.close();
});

test('allHeaders of a request and its response (page-route.spec.ts: should contain raw request header / should contain raw response header)', async () => {
  const n = await network();
  await n.net.route('**/*', (route) => route.fulfill({ status: 200, body: 'Hello', contentType: 'text/html' }));
  const request = n.net.waitForRequest('**/*');
  await n.client.get(CATALOG, { foo: 'bar' });
  const headers = await (await request).allHeaders();
  expect(headers['foo']).toBe('bar');
  const response = await (await request).response();
  expect((await response!.allHeaders())['content-type']).toBe('text/html');
  await n.close();
});

test('a fulfilled status has its reason phrase (page-request-fulfill.spec.ts: should work with status code 422 / should allow mocking just status)', async () => {
  const n = await network();
  await n.net.route('**/products*', (route) => route.fulfill({ status: 422, body: 'Yo, page!' }));
  await n.net.route('**/orders', (route) => route.fulfill({ status: 430, body: 'Yo, page!' }));
  const unprocessable = n.net.waitForResponse('**/products*');
  const res = await n.client.get(CATALOG);
  expect(res.status).toBe(422);
  expect((await unprocessable).statusText()).toBe('Unprocessable Entity');
  const unknown = n.net.waitForResponse('**/orders');
  await n.client.post(`${ORIGIN}/orders`, {});
  expect((await unknown).statusText()).toBe('Unknown');
  await n.close();
});

test("a request wait's timeout is Playwright's TimeoutError (page-wait-for-response.spec.ts: should respect timeout)", async () => {
  const n = await network();
  const e = await n.net.waitForResponse(() => false, { timeout: 1 }).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(errors.TimeoutError);
  // Still nestwright's own: its TimeoutError, a NestwrightError with the API and TIMEOUT.
  expect(e).toBeInstanceOf(TimeoutError);
  expect(e).toBeInstanceOf(NestwrightError);
  expect(e).toMatchObject({ api: 'app.waitForResponse', code: 'TIMEOUT', fatal: false });
  expect((e as Error).message).toContain('app.waitForResponse: Timeout 1ms exceeded');
  await n.close();
});

test('an abort code is the failure text net::ERR_* (page-route.spec.ts: should be abortable with custom error codes)', async () => {
  const n = await network();
  await n.net.route('**/*', (route) => route.abort('internetdisconnected'));
  const failed = new Promise<Request>((resolve) => n.net.on('requestfailed', resolve));
  await n.client.get(CATALOG).catch(() => {});
  expect((await failed).failure()?.errorText).toBe('net::ERR_INTERNET_DISCONNECTED');
  await n.net.unrouteAll();
  await n.net.route('**/*', (route) => route.abort('connectionrefused'));
  const refused = n.net.waitForRequest('**/*');
  await n.client.get(CATALOG).catch(() => {});
  const request = await refused;
  await request.response();
  expect(request.failure()?.errorText).toBe('net::ERR_CONNECTION_REFUSED');
  await n.net.unrouteAll();
  await n.net.route('**/*', (route) => route.abort());
  const aborted = n.net.waitForRequest('**/*');
  await n.client.get(CATALOG).catch(() => {});
  await (await aborted).response();
  expect((await aborted).failure()?.errorText).toBe('net::ERR_FAILED');
  await n.close();
});

for (const method of ['fulfill', 'continue', 'fallback', 'abort'] as const) {
  test(`route.${method} twice throws (page-route.spec.ts: route.${method} should throw if called twice)`, async () => {
    const n = await network();
    const held = heldRoute(n);
    const done = n.client.get(CATALOG).catch(() => {});
    const route = await held;
    await route[method]();
    const e = await route[method]().catch((x: unknown) => x);
    expect((e as Error).message).toContain('Route is already handled!');
    await done;
    await n.close();
  });
}

test('route.fetch follows redirects, and not with maxRedirects: 0 (page-request-intercept.spec.ts: should not follow redirects when maxRedirects is set to 0 in route.fetch)', async () => {
  const n = await network();
  const seen: Array<{ status: number; location: string | null; url: string }> = [];
  await n.net.route('**/foo', async (route) => {
    const followed = await route.fetch();
    const not = await route.fetch({ maxRedirects: 0 });
    for (const r of [followed, not])
      seen.push({ status: r.status(), location: r.headerValue('location'), url: r.url() });
    await route.fulfill({ body: 'hello' });
  });
  expect((await n.client.get(`${ORIGIN}/foo`)).text).toBe('hello');
  expect(seen).toEqual([
    { status: 200, location: null, url: `${ORIGIN}/products?page=2` },
    { status: 302, location: '/products?page=2', url: `${ORIGIN}/foo` },
  ]);
  await n.close();
});

test('route.fetch stops after maxRedirects (global-fetch.spec.ts: should throw after hitting max redirects)', async () => {
  const n = await network();
  const error = new Promise<Error | null>((resolve) => {
    void n.net.route('**/loop', async (route) => {
      const e = await route.fetch({ maxRedirects: 3 }).then(
        () => null,
        (x: Error) => x,
      );
      resolve(e);
      await route.abort();
    });
  });
  await n.client.get(`${ORIGIN}/loop`).catch(() => {});
  expect((await error)?.message).toContain('Max redirect count exceeded');
  await n.close();
});

test("a handler's error is the test's even when an assertion failed too (playwright.unhandled.spec.ts: should produce unhandledRejection when page.route raises)", async ({}, testInfo) => {
  const testNetwork = new TestNetwork(undefined);
  const n = await withTestNetwork(testNetwork, () => network());
  await n.net.route('**/products*', () => {
    throw new Error('foobar');
  });
  await n.client.get(CATALOG).catch(() => {});
  n.client.close();
  // The test then failed an assertion: the fixture's view of it at its end.
  const failed = {
    status: 'failed' as const,
    expectedStatus: 'passed' as const,
    outputPath: (name: string) => testInfo.outputPath(name),
    attach: async () => {},
  };
  const { failure } = await testNetwork.finish(failed);
  expect(failure).toBeInstanceOf(NestwrightError);
  expect(failure?.message).toBe('app.route: the handler of route **/products* threw, so its request failed: foobar');
});

nwTest.describe('on the Shop', () => {
  nwTest.use({ apk: 'fixtures/apks/shop.apk' });

  nwTest(
    "a wait started before launch sees the launch's own request (page-wait-for-response.spec.ts: should work)",
    async ({ app }) => {
      const seen: string[] = [];
      app.on('request', (r) => seen.push(r.url()));
      const response = app.waitForResponse('**/products?page=1', { timeout: 10_000 });
      await app.launch({ activity: '.CatalogActivity' });
      // Nothing looks at the screen before the wait ends: the request is the launch's alone.
      const r = await response;
      expect(r.status()).toBe(200);
      expect(((await r.json()) as { items: unknown[] }).items).toHaveLength(20);
      expect(seen).toEqual([r.url()]);
    },
  );
});

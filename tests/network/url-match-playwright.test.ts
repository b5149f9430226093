import { createRequire } from 'node:module';
import vm from 'node:vm';
import { expect, test } from '@playwright/test';
import { NestwrightError } from '../../framework/core/errors.js';
import { AppNetwork } from '../../framework/network/index.js';
import { TestNetwork } from '../../framework/network/test-network.js';
import { globToRegex, playwrightMatcher, urlMatches, type UrlMatcher } from '../../framework/network/url-match.js';
import { catalogPage, fakePort, HOST, proxiedClient, startBackend } from './engine-helpers.js';

/**
 * URL matching (app.route, app.waitForRequest, routeFromHAR's `url`, use.recordHar's urlFilter)
 * against Playwright's own tests of it: every assertion of tests/page/interception.spec.ts that
 * needs no browser, in Playwright's words (`urlMatches(baseURL, url, match)`,
 * `globToRegexPattern(glob)`), and the glob cases of its browser tests (page-route.spec.ts,
 * interception.spec.ts) driven through AppNetwork on a real HTTPS backend. `expect.soft`, so a
 * run lists every assertion that disagrees, not only the first.
 */

/** Playwright's argument order, on nestwright's matcher. */
const pwUrlMatches = (baseURL: string | undefined, url: string, match: UrlMatcher) => urlMatches(match, url, baseURL);
const globToRegexPattern = (glob: string) => globToRegex(glob).source;

test('should work with glob (interception.spec.ts)', () => {
  const soft = expect.soft;
  soft(globToRegex('**/*.js').test('https://localhost:8080/foo.js')).toBeTruthy();
  soft(globToRegex('**/*.css').test('https://localhost:8080/foo.js')).toBeFalsy();
  soft(globToRegex('*.js').test('https://localhost:8080/foo.js')).toBeFalsy();
  soft(globToRegex('https://**/*.js').test('https://localhost:8080/foo.js')).toBeTruthy();
  soft(globToRegex('http://localhost:8080/simple/path.js').test('http://localhost:8080/simple/path.js')).toBeTruthy();
  soft(globToRegex('**/{a,b}.js').test('https://localhost:8080/a.js')).toBeTruthy();
  soft(globToRegex('**/{a,b}.js').test('https://localhost:8080/b.js')).toBeTruthy();
  soft(globToRegex('**/{a,b}.js').test('https://localhost:8080/c.js')).toBeFalsy();

  soft(globToRegex('**/*.{png,jpg,jpeg}').test('https://localhost:8080/c.jpg')).toBeTruthy();
  soft(globToRegex('**/*.{png,jpg,jpeg}').test('https://localhost:8080/c.jpeg')).toBeTruthy();
  soft(globToRegex('**/*.{png,jpg,jpeg}').test('https://localhost:8080/c.png')).toBeTruthy();
  soft(globToRegex('**/*.{png,jpg,jpeg}').test('https://localhost:8080/c.css')).toBeFalsy();
  soft(globToRegex('foo*').test('foo.js')).toBeTruthy();
  soft(globToRegex('foo*').test('foo/bar.js')).toBeFalsy();
  soft(globToRegex('http://localhost:3000/signin-oidc*').test('http://localhost:3000/signin-oidc/foo')).toBeFalsy();
  soft(globToRegex('http://localhost:3000/signin-oidc*').test('http://localhost:3000/signin-oidcnice')).toBeTruthy();

  soft(globToRegex('**/*.js').test('/foo.js')).toBeTruthy();
  soft(globToRegex('asd/**.js').test('/foo.js')).toBeFalsy();
  soft(globToRegex('**/*.js').test('bar_foo.js')).toBeFalsy();

  // range [] is NOT supported
  soft(globToRegex('**/api/v[0-9]').test('http://example.com/api/v[0-9]')).toBeTruthy();
  soft(globToRegex('**/api/v[0-9]').test('http://example.com/api/version')).toBeFalsy();

  // query params
  soft(globToRegex('**/api\\?param').test('http://example.com/api?param')).toBeTruthy();
  soft(globToRegex('**/api\\?param').test('http://example.com/api-param')).toBeFalsy();
  soft(
    globToRegex('**/three-columns/settings.html\\?**id=settings-**').test(
      'http://mydomain:8080/blah/blah/three-columns/settings.html?id=settings-e3c58efe-02e9-44b0-97ac-dd138100cf7c&blah',
    ),
  ).toBeTruthy();

  soft(globToRegex('\\?')).toEqual(/^\?$/);
  soft(globToRegex('\\')).toEqual(/^\\$/);
  soft(globToRegex('\\\\')).toEqual(/^\\$/);
  soft(globToRegex('\\[')).toEqual(/^\[$/);
  soft(globToRegex('[a-z]')).toEqual(/^\[a-z\]$/);
  soft(globToRegex('$^+.\\*()|\\?\\{\\}\\[\\]')).toEqual(/^\$\^\+\.\*\(\)\|\?\{\}\[\]$/);

  soft(pwUrlMatches(undefined, 'http://playwright.dev/', 'http://playwright.dev')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'http://playwright.dev/?a=b', 'http://playwright.dev?a=b')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'http://playwright.dev/', 'h*://playwright.dev')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'http://api.playwright.dev/?x=y', 'http://*.playwright.dev?x=y')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'http://playwright.dev/foo/bar', '**/foo/**')).toBeTruthy();
  soft(pwUrlMatches('http://playwright.dev', 'http://playwright.dev/?x=y', '?x=y')).toBeTruthy();
  soft(pwUrlMatches('http://playwright.dev/foo/', 'http://playwright.dev/foo/bar?x=y', './bar?x=y')).toBeTruthy();

  // '$$', '$&', '$`' and "$'" are special in String.prototype.replace with a string argument.
  soft(pwUrlMatches(undefined, 'http://playwright.dev/foo$$bar', 'http://playwright.dev/foo$$bar')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'http://playwright.dev/a$&b', 'http://playwright.dev/a$&b')).toBeTruthy();
  soft(pwUrlMatches('http://playwright.dev', 'http://playwright.dev/p$$q', './p$$q')).toBeTruthy();

  // Case insensitive matching
  soft(pwUrlMatches(undefined, 'https://playwright.dev/fooBAR', 'HtTpS://pLaYwRiGhT.dEv/fooBAR')).toBeTruthy();
  soft(pwUrlMatches('http://ignored', 'https://playwright.dev/fooBAR', 'HtTpS://pLaYwRiGhT.dEv/fooBAR')).toBeTruthy();
  // Path and search query are case-sensitive
  soft(pwUrlMatches(undefined, 'https://playwright.dev/foobar', 'https://playwright.dev/fooBAR')).toBeFalsy();
  soft(pwUrlMatches(undefined, 'https://playwright.dev/foobar?a=b', 'https://playwright.dev/foobar?A=B')).toBeFalsy();

  // Literal globs are normalized through new URL(), so explicit default ports,
  // percent-encoding and IDN hosts match request.url() which is already normalized.
  soft(pwUrlMatches(undefined, 'http://example.com/path', 'http://example.com:80/path')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'https://example.com/path', 'https://example.com:443/path')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'http://example.com:8080/path', 'http://example.com:8080/path')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'http://localhost/', 'http://localhost:80/**')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'http://example.com/foo%20bar', 'http://example.com/foo bar')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'http://xn--mnchen-3ya.de/', 'http://münchen.de/')).toBeTruthy();

  soft(pwUrlMatches(undefined, 'https://localhost:3000/?a=b', '**/?a=b')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'https://localhost:3000/?a=b', '**?a=b')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'https://localhost:3000/?a=b', '**=b')).toBeTruthy();

  // Custom schema.
  soft(pwUrlMatches(undefined, 'my.custom.protocol://foo', 'my.custom.protocol://**')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'my.p://foo', 'my.{p,y}://**')).toBeFalsy();
  soft(pwUrlMatches(undefined, 'my.p://foo/', 'my.{p,y}://**')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'file:///foo/', 'f*e://**')).toBeTruthy();

  // This is not supported, we treat ? as a query separator.
  soft(globToRegex('http://localhost:8080/?imple/path.js').test('http://localhost:8080/Simple/path.js')).toBeFalsy();
  soft(pwUrlMatches(undefined, 'http://playwright.dev/', 'http://playwright.?ev')).toBeFalsy();
  soft(pwUrlMatches(undefined, 'http://playwright./?ev', 'http://playwright.?ev')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'http://playwright.dev/foo', 'http://playwright.dev/f??')).toBeFalsy();
  soft(pwUrlMatches(undefined, 'http://playwright.dev/f??', 'http://playwright.dev/f??')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'http://playwright.dev/?x=y', 'http://playwright.dev\\?x=y')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'http://playwright.dev/?x=y', 'http://playwright.dev/\\?x=y')).toBeTruthy();
  soft(pwUrlMatches('http://playwright.dev/foo', 'http://playwright.dev/foo?bar', '?bar')).toBeTruthy();
  soft(pwUrlMatches('http://playwright.dev/foo', 'http://playwright.dev/foo?bar', '\\\\?bar')).toBeTruthy();
  soft(pwUrlMatches('http://first.host/', 'http://second.host/foo', '**/foo')).toBeTruthy();
  soft(pwUrlMatches('http://playwright.dev/', 'http://localhost/', '*//localhost/')).toBeTruthy();

  // /**/ should match /.
  soft(pwUrlMatches(undefined, 'https://foo/bar.js', 'https://foo/**/bar.js')).toBeTruthy();
  soft(pwUrlMatches(undefined, 'https://foo/bar.js', 'https://foo/**/**/bar.js')).toBeTruthy();

  const customPrefixes = ['about', 'data', 'chrome', 'edge', 'file'];
  for (const prefix of customPrefixes) {
    soft(pwUrlMatches('http://playwright.dev/', `${prefix}:blank`, `${prefix}:blank`)).toBeTruthy();
    soft(pwUrlMatches('http://playwright.dev/', `${prefix}:blank`, `http://playwright.dev/`)).toBeFalsy();
    soft(pwUrlMatches(undefined, `${prefix}:blank`, `${prefix}:blank`)).toBeTruthy();
    soft(pwUrlMatches(undefined, `${prefix}:blank`, `${prefix}:*`)).toBeTruthy();
    soft(pwUrlMatches(undefined, `not${prefix}:blank`, `${prefix}:*`)).toBeFalsy();
  }
});

test('should throw on unbalanced glob braces (interception.spec.ts)', () => {
  const soft = expect.soft;
  soft(() => globToRegexPattern('{foo')).toThrow(`Invalid glob pattern "{foo": unmatched '{'`);
  soft(() => globToRegexPattern('}foo')).toThrow(`Invalid glob pattern "}foo": unmatched '}'`);
  soft(() => globToRegexPattern('http://*/foo{')).toThrow(`unmatched '{'`);
  soft(() => globToRegexPattern('**/*.png?{')).toThrow(`unmatched '{'`);
  soft(() => globToRegexPattern('https://example.com/{a')).toThrow(`unmatched '{'`);
  soft(() => globToRegexPattern('{{foo}')).toThrow(`nested '{' is not supported`);
  // Escaped braces remain literal and must not throw.
  soft(() => globToRegexPattern('\\{foo')).not.toThrow();
  soft(() => globToRegexPattern('foo\\}')).not.toThrow();
});

test('the glob cases of the browser tests, as matches (interception.spec.ts, page-route.spec.ts)', () => {
  const soft = expect.soft;
  // interception.spec.ts "should intercept by glob": the page fetches server.PREFIX + '/?foo'.
  soft(pwUrlMatches(undefined, 'http://localhost:8907/?foo', 'http://localhos**?*oo')).toBeTruthy();
  // page-route.spec.ts "should not support ? in glob pattern": `?` is a literal `?`, escaped or not.
  for (const glob of ['**/index?hello', '**/index\\?hello']) {
    soft(pwUrlMatches(undefined, 'http://localhost:8907/index?hello', glob), glob).toBeTruthy();
    soft(pwUrlMatches(undefined, 'http://localhost:8907/index', glob), glob).toBeFalsy();
    soft(pwUrlMatches(undefined, 'http://localhost:8907/index1hello', glob), glob).toBeFalsy();
    soft(pwUrlMatches(undefined, 'http://localhost:8907/index123hello', glob), glob).toBeFalsy();
  }
  // interception.spec.ts "should work with regular expression passed from a different context".
  const foreign = vm.runInContext('new RegExp("empty\\\\.html")', vm.createContext()) as RegExp;
  soft(foreign instanceof RegExp).toBe(false);
  soft(pwUrlMatches(undefined, 'http://localhost:8907/empty.html', foreign)).toBeTruthy();
  soft(pwUrlMatches(undefined, 'http://localhost:8907/emptyXhtml', foreign)).toBeFalsy();
  // interception.spec.ts "should intercept every request matching a global regexp": lastIndex.
  const global = /\/intercept-me/g;
  for (let i = 0; i < 3; ++i) soft(pwUrlMatches(undefined, 'http://localhost:8907/intercept-me', global)).toBeTruthy();
});

test("the matcher is playwright-core's own (lib/coreBundle's iso), the runner's copy", () => {
  const iso = (createRequire(import.meta.url)('playwright-core/lib/coreBundle') as { iso: Record<string, unknown> })
    .iso;
  const pw = playwrightMatcher();
  expect(pw.urlMatches).toBe(iso.urlMatches);
  expect(pw.globToRegexPattern).toBe(iso.globToRegexPattern);
});

test('use.recordHar refuses a urlFilter with an unbalanced brace, naming the option', () => {
  const e = (() => {
    try {
      return new TestNetwork({ path: 'x.har', urlFilter: '**/api/{v1' });
    } catch (x) {
      return x;
    }
  })();
  expect(e).toBeInstanceOf(NestwrightError);
  expect((e as NestwrightError).code).toBe('USAGE');
  expect((e as Error).message).toMatch(
    /^use\.recordHar: urlFilter is a glob or a RegExp, got "\*\*\/api\/\{v1" \(.*unmatched '\{'/,
  );
});

test.describe('through app.route on a real backend', () => {
  test.describe.configure({ mode: 'default' });
  let backend: Awaited<ReturnType<typeof startBackend>>;
  test.beforeAll(async () => {
    backend = await startBackend();
  });
  test.afterAll(async () => {
    await backend.server.stop();
  });

  async function network() {
    const { port, runtime } = fakePort(backend.info);
    const net = new AppNetwork(port);
    await net.wrap('test', (call) => net.start(call));
    const client = proxiedClient(runtime.proxy!);
    return { net, client, close: async () => (client.close(), await net.close()) };
  }

  test('should throw on page.route with invalid glob (interception.spec.ts)', async () => {
    const n = await network();
    const e = await n.net.route('http://*/foo{', (route) => route.continue()).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NestwrightError);
    expect((e as NestwrightError).code).toBe('USAGE');
    expect((e as NestwrightError).message).toContain(`unmatched '{'`);
    expect((e as NestwrightError).message).toContain('app.route');
    await n.close();
  });

  test('app.waitForRequest refuses an invalid glob; requests made meanwhile still flow', async () => {
    const n = await network();
    const e = await n.net.waitForRequest('**/orders{', { timeout: 2_000 }).catch((x: unknown) => x);
    expect((e as NestwrightError).code).toBe('USAGE');
    expect((e as Error).message).toMatch(/^app\.waitForRequest: Invalid glob pattern "\*\*\/orders\{": unmatched '\{'/);
    const request = n.net.waitForRequest('**/products?page=1');
    expect((await n.client.get(`https://${HOST}/products?page=1`)).status).toBe(200);
    expect((await request).url()).toBe(`https://${HOST}/products?page=1`);
    await n.close();
  });

  test('should work with regular expression passed from a different context (interception.spec.ts)', async () => {
    const n = await network();
    const regexp = vm.runInContext('new RegExp("products\\\\?page=1")', vm.createContext()) as RegExp;
    let intercepted = false;
    await n.net.route(regexp, (route, request) => {
      expect(request.url()).toContain('products?page=1');
      intercepted = true;
      return route.fulfill({ json: { from: 'route' } });
    });
    const res = await n.client.get(`https://${HOST}/products?page=1`);
    expect(JSON.parse(res.text)).toEqual({ from: 'route' });
    expect(intercepted).toBe(true);
    await n.net.unroute(vm.runInContext('new RegExp("products\\\\?page=1")', vm.createContext()) as RegExp);
    expect(JSON.parse((await n.client.get(`https://${HOST}/products?page=1`)).text)).toEqual(catalogPage(1));
    await n.close();
  });

  test('/**/ matches no directory: **/ before the file name (interception.spec.ts)', async () => {
    const n = await network();
    await n.net.route(`https://${HOST}/**/products?page=1`, (route) => route.fulfill({ json: { from: 'route' } }));
    expect(JSON.parse((await n.client.get(`https://${HOST}/products?page=1`)).text)).toEqual({ from: 'route' });
    await n.close();
  });
});

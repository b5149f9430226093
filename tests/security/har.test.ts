import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type TestInfo } from '@playwright/test';
import { NestwrightError } from '../../framework/errors.js';
import { AppNetwork } from '../../framework/network/index.js';
import { TestNetwork, type RecordHarOptions } from '../../framework/network/test-network.js';
import { fakePort, HOST, proxiedClient, startBackend } from '../network/engine-helpers.js';
import { withTestNetwork } from '../network/test-network-scope.js';

/**
 * HAR files hold what the app sent and got, its Authorization and Cookie headers included (as
 * Playwright's do): the files nestwright writes — use.recordHar's, routeFromHAR's recordings and
 * the network.har attached to a failed test — are the user's alone (0600, even over a file that
 * was readable by others), and `redact` names headers whose values are not kept.
 */
test.describe.configure({ mode: 'default' });

const CATALOG = `https://${HOST}/products?page=1`;
const SECRETS = { authorization: 'Bearer s3cret-token', cookie: 'sid=s3cret-cookie' };

let backend: Awaited<ReturnType<typeof startBackend>>;
let dir: string;
test.beforeAll(async () => {
  backend = await startBackend();
  dir = await mkdtemp(path.join(tmpdir(), 'nw-har-'));
});
test.afterAll(async () => {
  await backend.server.stop();
  await rm(dir, { recursive: true, force: true });
});

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

/**
 * One test's network as the fixture runs it: a TestNetwork with `recordHar`, an instance whose
 * app sends the secrets and gets a cookie set by a route (unless `body` does its own requests),
 * then the test's end with `outcome`.
 */
async function runTest(
  testInfo: TestInfo,
  opts: {
    recordHar?: RecordHarOptions;
    outcome?: 'passed' | 'failed';
    body?: (net: AppNetwork, client: ReturnType<typeof proxiedClient>) => Promise<void>;
  },
) {
  const network = new TestNetwork(opts.recordHar);
  await withTestNetwork(network, async () => {
    const { port, runtime } = fakePort(backend.info);
    const net = new AppNetwork(port);
    await net.wrap('test', (call) => net.start(call));
    const client = proxiedClient(runtime.proxy!);
    try {
      if (opts.body) await opts.body(net, client);
      else {
        await net.route('**/session', (route) =>
          route.fulfill({ headers: { 'set-cookie': 'sid=s3cret-set-cookie; HttpOnly' }, json: { ok: true } }),
        );
        expect((await client.get(CATALOG, SECRETS)).status).toBe(200);
        expect((await client.get(`https://${HOST}/session`, SECRETS)).status).toBe(200);
      }
    } finally {
      client.close();
    }
  });
  // The fixture's end of the test: Playwright's own attach and output folder, this test's outcome.
  const ended = {
    status: opts.outcome ?? 'passed',
    expectedStatus: 'passed',
    attach: testInfo.attach.bind(testInfo),
    outputPath: testInfo.outputPath.bind(testInfo),
  } as unknown as TestInfo;
  return network.finish(ended);
}

/** The standard traffic, recorded by routeFromHAR's `update` with these options. */
const recording = (file: string, extra: object = {}) => ({
  body: async (net: AppNetwork, client: ReturnType<typeof proxiedClient>) => {
    await net.routeFromHAR(file, { update: true, ...extra });
    expect((await client.get(CATALOG, SECRETS)).status).toBe(200);
  },
});

test('use.recordHar writes the HAR for the user alone (0600), also over a file others could read', async ({}, testInfo) => {
  const file = path.join(dir, 'recorded.har');
  await writeFile(file, '{}', { mode: 0o644 });
  expect(await modeOf(file)).toBe(0o644);
  await runTest(testInfo, { recordHar: { path: file } });
  expect(await modeOf(file)).toBe(0o600);
  const har = await readFile(file, 'utf8');
  // Without redact the headers are kept, as Playwright keeps them (docs/network.md says so).
  expect(har).toContain(SECRETS.authorization);
});

test('app.routeFromHAR(path, { update: true }) writes its recording 0600', async ({}, testInfo) => {
  const file = path.join(dir, 'update.har');
  await runTest(testInfo, recording(file, { url: '**/products*' }));
  expect(await modeOf(file)).toBe(0o600);
});

test("a failed test's network.har is attached as a file of mode 0600", async ({}, testInfo) => {
  const { har } = await runTest(testInfo, { outcome: 'failed' });
  expect(har).toBe('network.har');
  const attached = testInfo.attachments.find((a) => a.name === 'network.har');
  expect(attached?.body, 'not handed to reporters as bytes to write as they like').toBeUndefined();
  expect(attached?.path).toBeTruthy();
  expect(await modeOf(attached!.path!)).toBe(0o600);
});

test('redact: the named headers keep their names but not their values, in the file and in the attachment; replay leaves them out', async ({}, testInfo) => {
  const file = path.join(dir, 'redacted.har');
  await runTest(testInfo, {
    recordHar: { path: file, redact: ['Authorization', 'cookie', 'set-cookie'] },
    outcome: 'failed',
  });
  const attached = testInfo.attachments.find((a) => a.name === 'network.har')!;
  for (const text of [await readFile(file, 'utf8'), await readFile(attached.path!, 'utf8')]) {
    for (const secret of ['s3cret-token', 's3cret-cookie', 's3cret-set-cookie']) expect(text).not.toContain(secret);
    const entries = (JSON.parse(text) as HarLike).log.entries;
    const session = entries.find((e) => e.request.url.endsWith('/session'))!;
    expect(session.request.headers).toEqual(
      expect.arrayContaining([
        { name: 'authorization', value: '[redacted]' },
        { name: 'cookie', value: '[redacted]' },
      ]),
    );
    expect(session.response.headers).toContainEqual({ name: 'set-cookie', value: '[redacted]' });
    // Headers not named are kept.
    expect(session.response.headers).toContainEqual({ name: 'content-type', value: 'application/json' });
  }
  // Replayed, the redacted cookie is not served as a cookie named "[redacted]".
  await runTest(testInfo, {
    body: async (net, client) => {
      await net.routeFromHAR(file);
      const seen = net.waitForResponse('**/session');
      expect((await client.get(`https://${HOST}/session`)).headers['set-cookie']).toBeUndefined();
      expect((await seen).headers()['set-cookie']).toBeUndefined();
    },
  });
});

interface HarLike {
  log: {
    entries: Array<{
      request: { url: string; headers: Array<{ name: string; value: string }> };
      response: { headers: Array<{ name: string; value: string }> };
    }>;
  };
}

test('routeFromHAR recordings take redact too', async ({}, testInfo) => {
  const file = path.join(dir, 'update-redacted.har');
  await runTest(testInfo, recording(file, { redact: ['authorization', 'cookie'] }));
  const text = await readFile(file, 'utf8');
  expect(text).not.toContain('s3cret-token');
  expect(text).not.toContain('s3cret-cookie');
  expect(text).toContain('"value": "[redacted]"');
});

test('unknown or malformed HAR options are refused, naming the option and what it takes', async () => {
  const refused = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(NestwrightError);
      return (e as Error).message;
    }
    throw new Error('accepted');
  };
  const file = path.join(dir, 'never.har');
  expect(refused(() => new TestNetwork({ path: file, redcat: ['cookie'] } as unknown as RecordHarOptions))).toMatch(
    /^use\.recordHar: unknown option "redcat".*path, urlFilter, redact/,
  );
  expect(refused(() => new TestNetwork({ path: file, redact: 'cookie' } as unknown as RecordHarOptions))).toMatch(
    /^use\.recordHar: redact is an array of header names/,
  );
  expect(refused(() => new TestNetwork({ path: file, redact: ['bad header'] }))).toMatch(
    /"bad header" is not a header name/,
  );
  expect(refused(() => new TestNetwork({ urlFilter: '**' } as unknown as RecordHarOptions))).toMatch(
    /^use\.recordHar: path is required/,
  );
  const { port } = fakePort(backend.info);
  const net = new AppNetwork(port);
  await expect(
    net.routeFromHAR(file, { update: true, redcat: [] } as unknown as Parameters<AppNetwork['routeFromHAR']>[1]),
  ).rejects.toThrow(/^app\.routeFromHAR: unknown option "redcat".*url, notFound, update, redact/);
});

import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import type { TestInfo } from '@playwright/test';
import { AppNetwork } from '../../framework/network/index.js';
import { TestNetwork, type RecordHarOptions } from '../../framework/network/test-network.js';
import { fakePort, HOST, proxiedClient, startBackend } from './engine-helpers.js';
import { withTestNetwork } from './test-network-scope.js';

/**
 * What the HAR tests share: the backend of engine-helpers.ts with the pages and endpoints
 * Playwright's HAR tests use (tests/assets of microsoft/playwright, written anew), an instance's
 * network over it or over a backend that is gone, and a recording made as the fixture makes it.
 */

export const ORIGIN = `https://${HOST}`;
export const STYLE = 'body { background-color: pink; }';
export const PAGE =
  "<html><head><link rel='stylesheet' href='./one-style.css'></head><body>hello, world!</body></html>";
/** Bytes that are not UTF-8 (a PNG's signature and then some). */
export const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0x80, 0xc3]);
/** A JSON body that gzip shrinks by far more than 4,000 bytes. */
export const BIG_JSON = JSON.stringify({ items: Array.from({ length: 400 }, (_, i) => ({ id: i, name: 'Product' })) });

export type Backend = Awaited<ReturnType<typeof startBackend>>;
export type Client = ReturnType<typeof proxiedClient>;

/** The backend, with Playwright's HAR test endpoints. */
export async function harBackend(): Promise<Backend> {
  const backend = await startBackend();
  const s = backend.server;
  await s.forGet('/one-style.html').thenReply(200, PAGE, { 'content-type': 'text/html; charset=utf-8' });
  await s.forGet('/one-style.css').thenReply(200, STYLE, { 'content-type': 'text/css; charset=utf-8' });
  await s.forGet('/pptr.png').thenReply(200, PNG, { 'content-type': 'image/png' });
  await s.forGet('/empty.html').thenReply(200, '', { 'content-type': 'text/html' });
  await s.forGet('/foo.html').thenReply(302, '', { location: '/empty.html' });
  await s.forGet('/simplezip.json').thenReply(200, gzipSync(BIG_JSON), {
    'content-type': 'application/json',
    'content-encoding': 'gzip',
  });
  await s.forPost('/echo').thenCallback(async (req) => ({ statusCode: 200, body: await req.body.getText() }));
  await s.forPost('/echo-header').thenCallback((req) => ({ statusCode: 200, body: String(req.headers['baz']) }));
  await s.forPost('/post').thenReply(200, 'ok');
  await s.forPost('/form.html').thenReply(200, '<div>done</div>', { 'content-type': 'text/html' });
  await s.forGet('/x').thenCloseConnection();
  await s.forGet('/cookies').thenCallback((req) => {
    const cookies = new URL(req.url).searchParams.getAll('c');
    return { statusCode: 200, headers: { 'content-type': 'text/html', 'set-cookie': cookies }, body: '' };
  });
  return backend;
}

/** An instance's network over `backend` (or over one that is gone: nothing answers there), and its client. */
export async function network(backend: Backend | 'gone') {
  const info =
    backend === 'gone'
      ? { hosts: [{ host: HOST, port: 443, address: '127.0.0.1', address_port: 9 }], system_ca_pem: null }
      : backend.info;
  const { port, runtime, trajectory } = fakePort(info);
  const net = new AppNetwork(port);
  await net.wrap('test', (call) => net.start(call));
  const client = proxiedClient(runtime.proxy!);
  return { net, trajectory, client, close: async () => (client.close(), await net.close()) };
}

/** One test's requests with `use.recordHar` set, ended as the fixture ends a passing test (the HAR written). */
export async function recordWith(
  testInfo: TestInfo,
  backend: Backend,
  recordHar: RecordHarOptions,
  body: (client: Client, net: AppNetwork) => Promise<void>,
): Promise<void> {
  const testNetwork = new TestNetwork(recordHar);
  const n = await withTestNetwork(testNetwork, () => network(backend));
  try {
    await body(n.client, n.net);
  } finally {
    n.client.close();
  }
  await testNetwork.finish({
    status: 'passed',
    expectedStatus: 'passed',
    attach: testInfo.attach.bind(testInfo),
    outputPath: testInfo.outputPath.bind(testInfo),
  });
}

/** The entries of a zip as Info-ZIP's `unzip` reads them (a reader that is not ours). */
export function unzipped(path: string): Map<string, Buffer> {
  const names = execFileSync('unzip', ['-Z1', path], { encoding: 'utf8' }).split('\n').filter(Boolean);
  return new Map(names.map((n) => [n, execFileSync('unzip', ['-p', path, n])]));
}

/** The parts of a HAR entry these tests read. */
export interface HarLog {
  pages?: unknown[];
  entries: Array<{
    time: number;
    request: {
      method: string;
      url: string;
      bodySize: number;
      headers: Array<{ name: string; value: string }>;
      postData?: { mimeType: string; text?: string; params?: unknown[]; _file?: string };
    };
    response: {
      status: number;
      bodySize: number;
      redirectURL: string;
      headers: Array<{ name: string; value: string }>;
      content: {
        size: number;
        mimeType: string;
        text?: string;
        encoding?: string;
        compression?: number;
        _file?: string;
      };
    };
  }>;
}

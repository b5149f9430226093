import { test, expect } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallResult, ToolTransport } from '../../device-runtime/client/index.js';
import { Adb } from '../../device-runtime/providers/adb/adb.js';
import { WebViewSockets } from '../../device-runtime/providers/adb/webview-sockets.js';
import { FakeAndroid } from './fake-android.js';

/**
 * The adb provider and the `webview` extension (docs/webviews.md#real-devices): a runtime on the
 * phone names a WebView's DevTools socket, and the provider forwards it with
 * `adb forward tcp:0 localabstract:webview_devtools_remote_<pid>` and hands the client an
 * endpoint on loopback — here against the fake adb (a real executable and server, forwarding real
 * TCP), with a DevTools-like HTTP server standing in for the app's abstract socket.
 */
const SOCKET = 'webview_devtools_remote_4242';

let fake: FakeAndroid | null = null;
let devtools: Server | null = null;
test.afterEach(async () => {
  await fake?.close();
  fake = null;
  await new Promise((r) => (devtools ? devtools.close(r) : r(null)));
  devtools = null;
});

/** A runtime's answer to webview_list naming `socket`, as a phone's runtime gives it. */
function runtimeListing(socket: string): ToolTransport {
  const webviews = [
    {
      id: 'wv-1',
      url: 'https://shop.example/help',
      title: 'Help',
      bounds: [0, 252, 1080, 2274],
      on_screen: true,
      devtools: { endpoint: null, socket, target_id: 'ABC123' },
      unavailable: null,
    },
  ];
  return {
    sessionId: undefined,
    callTool: async (): Promise<CallResult> => ({
      content: [{ type: 'text', text: '' }],
      structuredContent: { webviews },
    }),
    close: async () => {},
  };
}

test("a WebView's DevTools socket is forwarded once and listed as an endpoint on loopback; close removes the forward", async () => {
  devtools = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(req.url === '/json/version' ? { Browser: 'Chrome/130 (WebView)' } : []));
  });
  await new Promise<void>((r) => devtools!.listen(0, '127.0.0.1', r));
  const port = (devtools.address() as AddressInfo).port;
  fake = (await FakeAndroid.create([{ serial: 'R58M123ABC', usb: '1-1', abstractSockets: { [SOCKET]: port } }])).use();
  const adb = Adb.find('test');
  const transport = new WebViewSockets(runtimeListing(SOCKET), adb, 'R58M123ABC');
  const first = await transport.callTool('webview_list', { space_id: 's', package: 'p' });
  const [w] = (first.structuredContent as { webviews: Array<{ devtools: { endpoint: string; socket: string } }> })
    .webviews;
  expect(w!.devtools.socket).toBe(SOCKET);
  expect(w!.devtools.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const version = (await (await fetch(`${w!.devtools.endpoint}/json/version`)).json()) as { Browser: string };
  expect(version.Browser).toBe('Chrome/130 (WebView)');
  const again = await transport.callTool('webview_list', { space_id: 's', package: 'p' });
  expect(
    (again.structuredContent as { webviews: Array<{ devtools: { endpoint: string } }> }).webviews[0]!.devtools.endpoint,
  ).toBe(w!.devtools.endpoint);
  const listed = (await fake.adb('forward', '--list')).stdout;
  expect(listed).toContain(`localabstract:${SOCKET}`);
  expect(listed.trim().split('\n')).toHaveLength(1);
  await transport.close();
  expect((await fake.adb('forward', '--list')).stdout).not.toContain(SOCKET);
});

test('a socket name that is not a DevTools socket is left alone (no forward)', async () => {
  fake = (await FakeAndroid.create([{ serial: 'R58M123ABC', usb: '1-1' }])).use();
  const transport = new WebViewSockets(runtimeListing('/data/local/tmp/evil'), Adb.find('test'), 'R58M123ABC');
  const r = await transport.callTool('webview_list', {});
  expect(
    (r.structuredContent as { webviews: Array<{ devtools: { endpoint: unknown } }> }).webviews[0]!.devtools.endpoint,
  ).toBeNull();
  expect((await fake.adb('forward', '--list')).stdout.trim()).toBe('');
});

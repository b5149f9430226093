import http from 'node:http';
import net from 'node:net';
import { networkInterfaces } from 'node:os';
import { expect, test } from '@playwright/test';
import type { CallResult, ToolTransport } from '../../device-runtime/client/index.js';
import type { ToolName } from '../../device-runtime/protocol/index.js';
import { product } from '../../device-runtime/sim/apps/shop/model.js';
import { Adb } from '../../device-runtime/providers/adb/adb.js';
import { ProxyReverse } from '../../device-runtime/providers/adb/proxy-reverse.js';
import { AppNetwork } from '../../framework/network/index.js';
import type { InstancePort } from '../../framework/core/port.js';
import { ADB, HAVE_ADB, NO_ADB_MESSAGE, RealAdb } from '../adb/real-adb.js';
import { fakePort, proxiedClient, startBackend, type FakeRuntime } from '../network/engine-helpers.js';
import { SHOP, simSpace } from '../sim-ui/harness.js';

/**
 * The instance's proxy (framework/network/proxy.ts) is the instance's alone: it listens on
 * 127.0.0.1 only, so another host cannot relay through it, and on loopback it answers only the
 * runtime it was set on, which net_proxy_set gave its credentials; anything else gets a 407 and
 * reaches nobody. The attacks are real requests to a server that listens on loopback only, which
 * is what an open proxy would expose.
 */
test.describe.configure({ mode: 'default' });

let backend: Awaited<ReturnType<typeof startBackend>>;
/** A server on loopback only (what a relay must never reach): it counts what it is asked. */
let target: { port: number; hits: string[]; close: () => Promise<void> };

test.beforeAll(async () => {
  backend = await startBackend();
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' }).end('loopback-only secret');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  target = {
    port: (server.address() as net.AddressInfo).port,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
});
test.afterEach(() => {
  target.hits.length = 0;
});
test.afterAll(async () => {
  await backend.server.stop();
  await target.close();
});

/** An instance's network started as `app.route` starts it, over a fake runtime that offers net_proxy. */
async function instanceProxy(instance = '1') {
  const { port, runtime } = fakePort(backend.info, { instance });
  const net = new AppNetwork(port);
  await net.wrap('test', (call) => net.start(call));
  return { net, runtime, proxy: runtime.proxy! };
}

/** What a client with a raw socket gets from `host:port` for `request`: the status line and head, or the connection error. */
function ask(host: string, port: number, request: string): Promise<{ error: string | null; head: string }> {
  return new Promise((resolve) => {
    let got = '';
    const s = net.connect({ host, port });
    s.setTimeout(20_000, () => s.destroy(new Error('ETIMEDOUT')));
    s.on('connect', () => s.write(request));
    s.on('data', (d: Buffer) => (got += d.toString('latin1')));
    s.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message, head: got }));
    s.on('close', () => resolve({ error: null, head: got.split('\r\n\r\n')[0] ?? '' }));
  });
}

const relayTo = (port: number, path: string, extra = '') =>
  `GET http://127.0.0.1:${port}${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra}Connection: close\r\n\r\n`;

const basic = (auth: { username: string; password: string }) =>
  `Proxy-Authorization: Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}\r\n`;

/** The non-loopback addresses of this machine (eth0's, say): local, so connecting to them is allowed. */
const outside = Object.values(networkInterfaces())
  .flat()
  .filter((a): a is NonNullable<typeof a> => !!a && !a.internal && !a.address.startsWith('fe80:'))
  .map((a) => a.address);

test('from another address of this machine the proxy is unreachable: nothing is relayed to a loopback-only server', async () => {
  test.skip(outside.length === 0, 'this machine has no address besides loopback');
  const { net: n, proxy } = await instanceProxy();
  try {
    for (const address of outside) {
      const got = await ask(address, proxy.port, relayTo(target.port, `/via-${address}`));
      expect(got, `${address}:${proxy.port} answered`).toEqual({ error: 'ECONNREFUSED', head: '' });
    }
    expect(target.hits).toEqual([]);
  } finally {
    await n.close();
  }
});

test("on loopback, a request without the instance's credentials is refused with 407 and reaches nobody", async () => {
  const a = await instanceProxy('a');
  const b = await instanceProxy('b');
  try {
    const anonymous = await ask('127.0.0.1', a.proxy.port, relayTo(target.port, '/none'));
    expect({ head: anonymous.head.split('\r\n')[0], relayed: target.hits }).toEqual({
      head: 'HTTP/1.1 407 Proxy Authentication Required',
      relayed: [],
    });
    expect(a.proxy.auth?.password, 'net_proxy_set gives the runtime credentials').toBeTruthy();
    expect(a.proxy.auth!.password).not.toBe(b.proxy.auth!.password);
    const attempts = {
      'a CONNECT with no credentials': `CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\n\r\n`,
      'wrong password': relayTo(target.port, '/wrong', basic({ username: a.proxy.auth!.username, password: 'guess' })),
      "another instance's credentials": relayTo(target.port, '/other', basic(b.proxy.auth!)),
    };
    for (const [what, request] of Object.entries(attempts)) {
      const got = await ask('127.0.0.1', a.proxy.port, request);
      expect(got.head, what).toMatch(/^HTTP\/1\.1 407 /);
      expect(got.head, what).toMatch(/\r\nProxy-Authenticate: Basic realm="[^"]+"/i);
    }
    // Not HTTP at all (a TLS hello to the proxy itself): closed, nothing answered.
    expect(await ask('127.0.0.1', a.proxy.port, '\x16\x03\x01\x00\x05hello')).toEqual({ error: null, head: '' });
    expect(target.hits).toEqual([]);
  } finally {
    await a.net.close();
    await b.net.close();
  }
});

test("with the instance's credentials its own traffic goes through: plain HTTP, HTTPS through CONNECT, routes", async () => {
  const { net: n, proxy } = await instanceProxy();
  const client = proxiedClient(proxy);
  try {
    const got = await ask('127.0.0.1', proxy.port, relayTo(target.port, '/mine', basic(proxy.auth!)));
    expect(got.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(target.hits).toEqual(['GET /mine']);
    const mine = n.exchanges[0]!.request;
    expect(mine.url()).toBe(`http://127.0.0.1:${target.port}/mine`);
    expect(mine.headers()['proxy-authorization'], 'routes and HARs never see the credentials').toBeUndefined();
    expect((await client.get('https://api.shop.example.test/products?page=1')).status).toBe(200);
    await n.route('**/products?page=2', (route) => route.fulfill({ json: { items: [], next: null } }));
    expect(JSON.parse((await client.get('https://api.shop.example.test/products?page=2')).text)).toEqual({
      items: [],
      next: null,
    });
  } finally {
    client.close();
    await n.close();
  }
});

/** An InstancePort whose tools go to a simulated runtime in this process (the shop's instance "0"). */
function simPort(h: Awaited<ReturnType<typeof simSpace>>): { port: InstancePort; runtime: FakeRuntime } {
  const { port, runtime } = fakePort(backend.info, { instance: '0' });
  return {
    runtime,
    port: {
      ...port,
      spaceId: h.space_id,
      call: async (_call: unknown, tool: ToolName, input: Record<string, unknown>) => {
        runtime.calls.push(tool);
        return h.call(tool, input as never);
      },
    } as InstancePort,
  };
}

test("on the simulator, the app's requests carry the credentials: a route answers them; the state and the audit never show the password", async () => {
  const h = await simSpace();
  await h.install('shop.apk');
  await h.call('space_launch', { package: SHOP });
  const n = new AppNetwork(simPort(h).port);
  try {
    await n.route('**/products?page=*', (route) =>
      route.fulfill({ json: { items: [{ id: 1, name: 'Secured Lamp', price: 1999 }], next: null } }),
    );
    await h.call('space_launch', { package: SHOP, activity: '.CatalogActivity' });
    const shown = await h.call('ui_wait_for', { text: 'Secured Lamp', timeout_ms: 10_000 });
    expect(shown.matched, (await h.texts()).join(' | ')).toBe(true);
    expect(n.exchanges.map((x) => x.answeredBy)).toContain('route **/products?page=* (fulfill)');
    const state = await h.call('net_state_get', { package: SHOP });
    expect(state.proxy).toMatchObject({ host: '127.0.0.1', auth: true });
    const audit = JSON.stringify(await h.call('audit_query', { tool: 'net_proxy_set', limit: 10 }));
    expect(audit).toContain('net_proxy_set');
    const seen = n.exchanges[0]!.request.headers();
    expect(seen['proxy-authorization'], 'the proxy does not hand its credentials to routes').toBeUndefined();
    // The password is nowhere but in the runtime's own memory: not read back, not audited.
    const password = await secretOf(h);
    expect(JSON.stringify(state)).not.toContain(password);
    expect(audit).not.toContain(password);
  } finally {
    await n.close();
  }
  await h.call('space_stop', { package: SHOP });
  await h.call('space_launch', { package: SHOP, activity: '.CatalogActivity' });
  const direct = await h.call('ui_wait_for', { text: product(1).name, timeout_ms: 10_000 });
  expect(direct.matched, 'cleared: the app connects directly again').toBe(true);
});

/** The password the simulated instance holds (read from its network state, as only the runtime can). */
async function secretOf(h: Awaited<ReturnType<typeof simSpace>>): Promise<string> {
  const inst = h.space.instance(SHOP, '0') as unknown as { net: { proxy: { auth?: { password: string } } | null } };
  const password = inst.net.proxy?.auth?.password;
  expect(password, 'the simulated instance keeps the credentials net_proxy_set gave').toBeTruthy();
  return password!;
}

test('over adb, the phone reaches the proxy through adb reverse (loopback on both ends) and must send the credentials', async () => {
  test.skip(!HAVE_ADB, NO_ADB_MESSAGE);
  const adb = await RealAdb.create();
  const { net: n, proxy } = await instanceProxy();
  try {
    adb.use();
    const dev = await adb.device();
    const sent: Array<Record<string, unknown>> = [];
    const inner: ToolTransport = {
      callTool: async (_name, args) => {
        sent.push(args);
        return { content: [], structuredContent: { ok: true } } as unknown as CallResult;
      },
      close: async () => {},
    };
    const transport = new ProxyReverse(inner, new Adb(ADB, 'test'), dev.serial);
    await transport.callTool('net_proxy_set', { space_id: 's', package: SHOP, ...proxy });
    const devicePort = sent[0]!.port as number;
    expect(sent[0]!.auth, 'the credentials reach the phone unchanged').toEqual(proxy.auth);
    const refused = await ask('127.0.0.1', devicePort, relayTo(target.port, '/phone-anon'));
    expect(refused.head).toMatch(/^HTTP\/1\.1 407 /);
    expect(target.hits).toEqual([]);
    const relayed = await ask('127.0.0.1', devicePort, relayTo(target.port, '/phone', basic(proxy.auth!)));
    expect(relayed.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(target.hits).toEqual(['GET /phone']);
    await transport.close();
  } finally {
    await n.close();
    await adb.close();
  }
});

import net from 'node:net';
import { test, expect } from '@playwright/test';
import type { CallResult, ToolTransport } from '../../device-runtime/client/index.js';
import { Adb } from '../../device-runtime/providers/adb/adb.js';
import { ProxyReverse } from '../../device-runtime/providers/adb/proxy-reverse.js';
import { ADB, HAVE_ADB, NO_ADB_MESSAGE, RealAdb } from './real-adb.js';

/**
 * The `net_proxy` extension over adb (docs/network.md): a proxy on this machine's loopback is
 * made reachable from the phone with `adb reverse tcp:0 tcp:<port>` before `net_proxy_set` reaches
 * the runtime, which gets the device's port. Google's adb against the simulator's adb daemon,
 * whose device shares this machine's loopback (so the device port differs from the proxy's).
 */
test.skip(!HAVE_ADB, NO_ADB_MESSAGE);

test('net_proxy_set on loopback: adb reverse to the proxy, the runtime gets the device port, close removes it', async () => {
  const adb = await RealAdb.create();
  const proxy = net.createServer((s) => s.once('data', (d) => s.end(`proxy got ${d.toString()}`)));
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  try {
    adb.use();
    const dev = await adb.device();
    const sent: Array<[string, Record<string, unknown>]> = [];
    const inner: ToolTransport = {
      callTool: async (name, args) => {
        sent.push([name, args]);
        return { content: [], structuredContent: { ok: true } } as unknown as CallResult;
      },
      close: async () => {},
    };
    const transport = new ProxyReverse(inner, new Adb(ADB, 'test'), dev.serial);
    const hostPort = (proxy.address() as net.AddressInfo).port;
    const args = { space_id: 's', package: 'p', host: '127.0.0.1', port: hostPort, ca_pem: 'x' };
    await transport.callTool('net_proxy_set', args);
    await transport.callTool('net_proxy_set', args); // once per port
    const devicePort = sent[0]![1].port as number;
    expect(sent.map(([n, a]) => [n, a.port])).toEqual([
      ['net_proxy_set', devicePort],
      ['net_proxy_set', devicePort],
    ]);
    expect(devicePort).not.toBe(hostPort);
    expect((await adb.adb('-s', dev.serial, 'reverse', '--list')).stdout.trim()).toBe(
      `(reverse) tcp:${devicePort} tcp:${hostPort}`,
    );
    // What the phone's app does: connect to its loopback's port, and reach the proxy.
    const answer = await new Promise<string>((resolve, reject) => {
      let got = '';
      const s = net.connect(devicePort, '127.0.0.1', () => s.write('CONNECT'));
      s.on('data', (d) => (got += d.toString()));
      s.on('end', () => resolve(got));
      s.on('error', reject);
    });
    expect(answer).toBe('proxy got CONNECT');
    // A proxy elsewhere is passed on as given; other tools untouched.
    await transport.callTool('net_proxy_set', { ...args, host: '10.0.0.5' });
    expect(sent[2]![1]).toMatchObject({ host: '10.0.0.5', port: hostPort });
    await transport.close();
    expect((await adb.adb('-s', dev.serial, 'reverse', '--list')).stdout.trim()).toBe('');
  } finally {
    proxy.close();
    await adb.close();
  }
});

import { expect, test } from '@playwright/test';
import { McpToolTransport } from '../../device-runtime/client/index.js';
import { errorCodesOf, networkTools, TOOLS } from '../../device-runtime/protocol/index.js';
import { inMemoryTransport } from '../../device-runtime/sim/mcp.js';
import { SimRuntime } from '../../device-runtime/sim/runtime.js';
import { runConformance, renderConformance } from '../../framework/conformance/index.js';
import { CONFORMANCE_CA_PEM } from '../../framework/conformance/extensions/net-proxy.js';
import { SHOP, simSpace } from '../sim-ui/harness.js';

/** The `net_proxy` extension's contract on the simulator: its schemas, errors, and a runtime without it. */

test('every net tool is of the net_proxy family, declares NOT_SUPPORTED, and the setters need a lease', () => {
  expect(networkTools.map((t) => t.name)).toEqual([
    'net_proxy_set',
    'net_proxy_clear',
    'net_offline_set',
    'net_state_get',
    'net_info',
  ]);
  for (const t of networkTools) {
    expect(t.extension && t.group, t.name).toBe('net_proxy');
    expect(errorCodesOf(t.name), t.name).toContain('NOT_SUPPORTED');
  }
  expect(errorCodesOf('net_proxy_set')).toEqual(expect.arrayContaining(['INSTANCE_NOT_FOUND', 'SPACE_NOT_FOUND']));
  expect([TOOLS.net_proxy_set, TOOLS.net_proxy_clear, TOOLS.net_offline_set].every((t) => t.mutating)).toBe(true);
  expect(TOOLS.net_state_get.mutating || TOOLS.net_info.mutating).toBe(false);
});

test('bad input: each bad ca_pem says what is wrong, a bad port is refused, a missing space or instance is named', async () => {
  const h = await simSpace();
  await h.install('shop.apk');
  await h.launch(SHOP);
  const set = (ca_pem: string, port = 8080) =>
    h.fail('net_proxy_set', { package: SHOP, host: '127.0.0.1', port, ca_pem });
  const none = await set('hello');
  expect(none).toMatchObject({ code: 'INVALID_ARGUMENT' });
  expect(none.message).toContain('net_proxy_set: ca_pem has no PEM block');
  expect(none.hint).toContain('BEGIN CERTIFICATE');
  const key = await set('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n');
  expect(key.message).toContain('is a PRIVATE KEY, not a CERTIFICATE');
  const junk = await set('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
  expect(junk.message).toContain('is not a valid X.509 certificate');
  const second = await set(`${CONFORMANCE_CA_PEM}-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n`);
  expect(second.message).toContain('block 2 is not a valid X.509 certificate');
  expect((await set(CONFORMANCE_CA_PEM, 70_000)).code).toBe('INVALID_ARGUMENT');
  expect(await h.call('net_state_get', { package: SHOP })).toEqual({ proxy: null, extra_ca: false, offline: false });
  const missing = await h.fail('net_state_get', { package: SHOP, instance: 'nope' });
  expect(missing.code).toBe('INSTANCE_NOT_FOUND');
  const space = await h.fail('net_offline_set', { space_id: 'sp_none', package: SHOP, offline: true });
  expect(space.code).toBe('SPACE_NOT_FOUND');
  const app = await h.fail('net_proxy_clear', { package: 'com.example.absent' });
  expect(app.code).toBe('APP_NOT_INSTALLED');
});

test('a runtime without net_proxy: not in runtime_info, every net tool NOT_SUPPORTED naming the extension', async () => {
  const h = await simSpace({ withoutExtensions: ['net_proxy'] });
  const info = await h.call('runtime_info', {});
  expect(info.extensions).not.toContain('net_proxy');
  expect(info.tools.filter((t) => t.startsWith('net_'))).toEqual([]);
  const e = await h.fail('net_info', {});
  expect(e.code).toBe('NOT_SUPPORTED');
  expect(e.message).toContain('net_proxy extension');
  for (const [tool, args] of [
    ['net_state_get', {}],
    ['net_proxy_set', { host: '127.0.0.1', port: 8080, ca_pem: CONFORMANCE_CA_PEM }],
    ['net_proxy_clear', {}],
    ['net_offline_set', { offline: true }],
  ] as const) {
    const refused = await h.fail(tool, { package: SHOP, ...args } as never);
    expect(refused.code, tool).toBe('NOT_SUPPORTED');
    expect(refused.message, tool).toContain(tool);
  }
});

test('the conformance checks pass on the simulator, and on a runtime without the extension expect NOT_SUPPORTED', async () => {
  for (const withoutExtensions of [[], ['net_proxy']]) {
    const rt = new SimRuntime({ withoutExtensions });
    try {
      const report = await runConformance(
        {
          connect: async () => McpToolTransport.connect(await inMemoryTransport(rt, `net-${withoutExtensions.length}`)),
        },
        { only: ['extensions.net_proxy', 'extensions.net_proxy_errors'] },
      );
      expect(
        report.checks.map((c) => `${c.id}: ${c.status}`),
        renderConformance(report),
      ).toEqual(['extensions.net_proxy: pass', 'extensions.net_proxy_errors: pass']);
      if (withoutExtensions.length) for (const c of report.checks) expect(c.received).toContain('NOT_SUPPORTED');
    } finally {
      rt.close();
    }
  }
});

import { NetInfoSchema, NetStateSchema, describeIssues } from '../../../device-runtime/protocol/index.js';
import { expectThat, type Check, type ConformanceContext } from '../check.js';
import { SHOP } from '../fixtures.js';
import { describeAnswer } from '../session.js';

/**
 * A CA certificate for the checks to hand to net_proxy_set (self-signed, basicConstraints CA,
 * valid 2026–2056). Only the certificate: nobody can sign with it, and the runtime only has to
 * parse it and keep it in the instance's trust store.
 */
export const CONFORMANCE_CA_PEM = `-----BEGIN CERTIFICATE-----
MIIB7TCCAVagAwIBAgIBATANBgkqhkiG9w0BAQsFADApMScwJQYDVQQDEx5uZXN0
d3JpZ2h0IGNvbmZvcm1hbmNlIHRlc3QgQ0EwIBcNMjYwMTAxMDAwMDAwWhgPMjA1
NjAxMDEwMDAwMDBaMCkxJzAlBgNVBAMTHm5lc3R3cmlnaHQgY29uZm9ybWFuY2Ug
dGVzdCBDQTCBnzANBgkqhkiG9w0BAQEFAAOBjQAwgYkCgYEAs5b/CQsBnd3Hj3xY
A1pf7Ufts38sehYyTtzdWbD86R3R0aV7dThVh9BP+qQHws1Dyou1HMaFkcbCJkD5
y9Tr3JJpJmf/JvVXxOb7A6UO1Ia5q0i9eBxhvQ9pTzrZjvobV4+wpihiW+Zbx8HZ
B5yvUKVh0ZMRuxIU9/NtqUQIfW8CAwEAAaMjMCEwDwYDVR0TAQH/BAUwAwEB/zAO
BgNVHQ8BAf8EBAMCAgQwDQYJKoZIhvcNAQELBQADgYEAlGfRsJvZbaRdwCywGuB+
BTvN6+sdp+IuvImVeaVJi9l6sY/Xzfvf9NTFzjA2o+v596CCIwHcl6h6T9hMFT1D
TbKtFW0cPVZKd4LmlXWnUIsgK2/Q/7TnwdLC5YFRMD3ReqGMAbQfs+kK39NLzQyA
onmKv22FS/KQaT/w6htutEQ=
-----END CERTIFICATE-----
`;

/** Credentials for the checks to hand to net_proxy_set: the runtime keeps them and never reads them back. */
const CONFORMANCE_AUTH = { username: 'nestwright', password: 'conformance-proxy-secret-7f3a' };

const NET_TOOLS: Array<[string, Record<string, unknown>]> = [
  ['net_info', {}],
  ['net_state_get', {}],
  ['net_proxy_set', { host: '127.0.0.1', port: 9, ca_pem: CONFORMANCE_CA_PEM }],
  ['net_offline_set', { offline: false }],
  ['net_proxy_clear', {}],
];

const advertised = (ctx: ConformanceContext) =>
  ((ctx.info?.extensions as string[] | undefined) ?? []).includes('net_proxy');

/** Not advertised: every net tool answers NOT_SUPPORTED (or UNKNOWN_TOOL). */
async function notAdvertised(ctx: ConformanceContext, space_id: string) {
  const got: string[] = [];
  for (const [tool, args] of NET_TOOLS) {
    const a = await ctx.main.call(tool, tool === 'net_info' ? args : { space_id, package: SHOP, ...args });
    expectThat(
      !a.ok && (a.error.code === 'NOT_SUPPORTED' || a.error.code === 'UNKNOWN_TOOL'),
      `net_proxy is not advertised, yet ${tool} answered ${describeAnswer(a)}`,
    );
    got.push(`${tool}: ${a.ok ? 'ok' : a.error.code}`);
  }
  return { status: 'pass' as const, sent: [], received: got.join('; ') };
}

/**
 * Extension `net_proxy`: net_info answers its shape; on a running instance net_proxy_set,
 * net_offline_set and net_proxy_clear change what net_state_get reads, the offline flag
 * independent of the proxy; credentials given with the proxy are kept (`auth: true`) but never
 * read back. Not advertised: NOT_SUPPORTED, so a client fails `app.route()` naming the extension.
 */
export const netProxyCheck: Check = {
  id: 'extensions.net_proxy',
  group: 'extensions',
  title: "net_proxy: an instance's proxy, its credentials, extra CA and offline flag are set, read and cleared",
  section: 'extension net_proxy (not in the design): docs/protocol.md#net_proxy_set',
  expects:
    'advertised: net_info answers {hosts, system_ca_pem}; a fresh instance reads {proxy: null, extra_ca: false, offline: false}; after net_proxy_set {host, port, ca_pem, auth} it reads the proxy with auth true (and nowhere the password) and extra_ca true; net_proxy_set again without auth reads auth false; net_offline_set true reads offline true with the proxy kept; net_proxy_clear reads proxy null, extra_ca false, offline kept; not advertised: NOT_SUPPORTED',
  fix: "Keep each instance's proxy, its credentials, CA and offline flag (and route its app's traffic by them, sending the credentials in Proxy-Authorization), answer net_state_get with what is set — whether there are credentials, never them — or leave net_proxy out of runtime_info.extensions and answer NOT_SUPPORTED.",
  required: true,
  async run(ctx) {
    const space_id = await ctx.space();
    if (!advertised(ctx)) return notAdvertised(ctx, space_id);
    const info = NetInfoSchema.safeParse((await ctx.main.ok('net_info', {})) as unknown);
    expectThat(info.success, info.success ? '' : `net_info: ${describeIssues(info.error, 'result')}`);
    const ref = { space_id, package: SHOP };
    // A stop that clears the data gives a fresh instance: nothing set.
    await ctx.main.ok('space_stop', { ...ref, clear_data: true });
    await ctx.main.ok('space_launch', ref);
    const read = async (when: string) => {
      const r = NetStateSchema.safeParse((await ctx.main.ok('net_state_get', ref)) as unknown);
      expectThat(r.success, r.success ? '' : `net_state_get ${when}: ${describeIssues(r.error, 'result')}`);
      return r.data;
    };
    const same = (got: unknown, want: unknown, when: string) =>
      expectThat(
        JSON.stringify(got) === JSON.stringify(want),
        `net_state_get ${when} read ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`,
      );
    same(await read('on a fresh instance'), { proxy: null, extra_ca: false, offline: false }, 'on a fresh instance');
    const set = { ...ref, host: '127.0.0.1', port: 8899, ca_pem: CONFORMANCE_CA_PEM };
    await ctx.main.ok('net_proxy_set', { ...set, auth: CONFORMANCE_AUTH });
    const withAuth = await read('after net_proxy_set with auth');
    expectThat(
      !JSON.stringify(withAuth).includes(CONFORMANCE_AUTH.password),
      'net_state_get read back the proxy password net_proxy_set gave: it is a secret, answer auth: true only',
    );
    same(
      withAuth,
      { proxy: { host: '127.0.0.1', port: 8899, auth: true }, extra_ca: true, offline: false },
      'after net_proxy_set with auth',
    );
    await ctx.main.ok('net_proxy_set', set);
    same(
      await read('after net_proxy_set without auth'),
      { proxy: { host: '127.0.0.1', port: 8899, auth: false }, extra_ca: true, offline: false },
      'after net_proxy_set without auth (it replaces the earlier setting)',
    );
    await ctx.main.ok('net_offline_set', { ...ref, offline: true });
    same(
      await read('after net_offline_set true'),
      { proxy: { host: '127.0.0.1', port: 8899, auth: false }, extra_ca: true, offline: true },
      'after net_offline_set true',
    );
    await ctx.main.ok('net_proxy_clear', ref);
    same(await read('after net_proxy_clear'), { proxy: null, extra_ca: false, offline: true }, 'after net_proxy_clear');
    await ctx.main.ok('net_offline_set', { ...ref, offline: false });
    same(await read('after net_offline_set false'), { proxy: null, extra_ca: false, offline: false }, 'at the end');
    await ctx.main.call('space_stop', ref);
    return {
      status: 'pass',
      sent: [],
      received: `net_info: ${info.data.hosts.length} host(s), system CA ${info.data.system_ca_pem ? 'given' : 'none'}; state round trip as expected`,
    };
  },
};

/** Extension `net_proxy`: bad input and a missing instance answer the protocol's errors. */
export const netProxyErrorsCheck: Check = {
  id: 'extensions.net_proxy_errors',
  group: 'extensions',
  title:
    'net_proxy: a bad CA is INVALID_ARGUMENT naming ca_pem, bad credentials naming auth; an instance that does not exist is INSTANCE_NOT_FOUND',
  section: 'extension net_proxy (not in the design): docs/protocol.md#net_proxy_set',
  expects:
    'advertised: net_proxy_set with ca_pem "not a certificate" (or a key instead of a certificate) answers INVALID_ARGUMENT whose message names ca_pem; with auth whose username has a colon (or whose password has a line break) INVALID_ARGUMENT naming auth; net_state_get and net_offline_set for instance "no-such-instance-conformance" answer INSTANCE_NOT_FOUND; not advertised: NOT_SUPPORTED',
  fix: "Parse ca_pem as PEM certificates and refuse anything else with INVALID_ARGUMENT saying what is wrong; check auth as net_proxy_set's schema says (a Basic user-id has no colon, neither part a control character); look the instance up as the world tools do.",
  required: true,
  async run(ctx) {
    const space_id = await ctx.space();
    if (!advertised(ctx)) return notAdvertised(ctx, space_id);
    const ref = { space_id, package: SHOP };
    await ctx.main.ok('space_launch', ref);
    const got: string[] = [];
    const bad = [
      'not a certificate',
      '-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA\n-----END PRIVATE KEY-----\n',
      '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n',
    ];
    for (const ca_pem of bad) {
      const a = await ctx.main.call('net_proxy_set', { ...ref, host: '127.0.0.1', port: 8899, ca_pem });
      expectThat(
        !a.ok && a.error.code === 'INVALID_ARGUMENT' && a.error.message.includes('ca_pem'),
        `net_proxy_set with ca_pem ${JSON.stringify(ca_pem.slice(0, 40))} answered ${describeAnswer(a)}`,
      );
      got.push(a.ok ? 'ok' : a.error.message);
    }
    for (const auth of [
      { username: 'a:b', password: 'x' },
      { username: 'a', password: 'x\r\nX-Injected: 1' },
    ]) {
      const a = await ctx.main.call('net_proxy_set', {
        ...ref,
        host: '127.0.0.1',
        port: 8899,
        ca_pem: CONFORMANCE_CA_PEM,
        auth,
      });
      expectThat(
        !a.ok && a.error.code === 'INVALID_ARGUMENT' && a.error.message.includes('auth'),
        `net_proxy_set with auth ${JSON.stringify(auth)} answered ${describeAnswer(a)}`,
      );
      got.push(a.ok ? 'ok' : a.error.message);
    }
    const state = (await ctx.main.ok('net_state_get', ref)) as { proxy: unknown };
    expectThat(state.proxy === null, `a refused net_proxy_set still set a proxy: ${JSON.stringify(state)}`);
    for (const [tool, args] of [
      ['net_state_get', {}],
      ['net_offline_set', { offline: true }],
    ] as const) {
      const a = await ctx.main.call(tool, { ...ref, instance: 'no-such-instance-conformance', ...args });
      expectThat(
        !a.ok && a.error.code === 'INSTANCE_NOT_FOUND',
        `${tool} for a missing instance answered ${describeAnswer(a)}`,
      );
      got.push(`${tool}: ${a.ok ? 'ok' : a.error.code}`);
    }
    await ctx.main.call('space_stop', ref);
    return { status: 'pass', sent: [], received: got.join('; ') };
  },
};

import https from 'node:https';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { NetInfo } from '../device-runtime/protocol/index.js';
import { AppNetwork } from '../framework/network/index.js';
import { fakePort, HOST, proxiedClient, startBackend } from '../tests/network/engine-helpers.js';
import { median, percentile, round, type BenchSection } from './section.js';

/**
 * The network feature's proxy (docs/network.md), on loopback against a real HTTPS backend (the
 * engine tests' backend, in this process): the same GET direct (trusting the backend's CA, as an
 * app without a proxy does) and through an instance's proxy (CONNECT, the proxy's CA, the proxy
 * sending it on to the backend), keep-alive both ways; what starting an instance's proxy costs;
 * and 16 instances at 50 requests/s each for a few seconds, every one counted.
 */
const stats = (xs: number[]) => ({ median_ms: round(median(xs)), p95_ms: round(percentile(xs, 95)) });

async function timed(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 20; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

export async function benchNetwork(): Promise<BenchSection> {
  const n = Number(process.env.BENCH_NETWORK_N ?? 300);
  const seconds = Number(process.env.BENCH_NETWORK_SECONDS ?? 5);
  const backend = await startBackend();
  const url = `https://${HOST}/products?page=1`;
  const direct = new https.Agent({ keepAlive: true, ca: backend.ca });
  const getDirect = () =>
    new Promise<void>((resolve, reject) => {
      const r = https.request(
        {
          host: '127.0.0.1',
          port: backend.server.port,
          servername: HOST,
          path: '/products?page=1',
          agent: direct,
          headers: { host: HOST },
        },
        (res) => res.resume().on('end', () => resolve()),
      );
      r.on('error', reject);
      r.end();
    });
  const one = async () => {
    const { port, runtime } = fakePort(backend.info);
    const net = new AppNetwork(port);
    await net.wrap('bench', (call) => net.start(call));
    return { net, client: proxiedClient(runtime.proxy!) };
  };
  try {
    const starts = await timed(20, async () => (await one()).net.close());
    const p = await one();
    const viaProxy = await timed(n, () => p.client.get(url));
    const viaDirect = await timed(n, getDirect);
    p.client.close();
    await p.net.close();

    // 16 instances, 50 requests/s each, paced, unrouted (each proxy sends them to the backend);
    // the clients and the backend in a process of their own, as the apps are on the device.
    const load = fork(fileURLToPath(new URL('./network-load-worker.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
    });
    const { info } = await new Promise<{ info: NetInfo }>((r) => load.once('message', r));
    const nets = await Promise.all(
      Array.from({ length: 16 }, async () => {
        const { port, runtime } = fakePort(info);
        const net = new AppNetwork(port);
        await net.wrap('bench', (call) => net.start(call));
        return { net, proxy: runtime.proxy! };
      }),
    );
    const result = new Promise<{ done: number; errors: number; latencies: number[]; wall: number }>((r) =>
      load.once('message', r),
    );
    load.send({ proxies: nets.map((x) => x.proxy), seconds, rate: 50 });
    const { done, errors, latencies, wall } = await result;
    load.kill();
    for (const x of nets) await x.net.close();
    const d = median(viaDirect);
    const pm = median(viaProxy);
    return {
      title: 'Network: an instance proxy on loopback (mockttp), HTTPS keep-alive',
      rows: [
        { measure: 'GET direct (the backend)', ...stats(viaDirect), n },
        {
          measure: 'GET through the proxy',
          ...stats(viaProxy),
          n,
          vs: 'direct',
          ratio: `${round(pm / d)}x`,
          added_ms: round(pm - d),
        },
        {
          measure: "start an instance's proxy (net_info, mockttp, net_proxy_set on a fake runtime)",
          ...stats(starts),
          n: 20,
        },
        {
          measure: `16 instances × 50 req/s for ${seconds}s, through the proxies`,
          ...stats(latencies),
          requests: done,
          errors,
          answered_per_s: round(done / wall, 0),
          wall_s: round(wall, 1),
        },
      ],
      notes: ['target: a proxied request adds ≤ 5 ms over direct (median); 16 × 50 req/s without an error'],
    };
  } finally {
    direct.destroy();
    await backend.server.stop();
  }
}

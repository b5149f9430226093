import https from 'node:https';
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

    // 16 instances, 50 requests/s each, paced, unrouted (the proxy sends each to the backend).
    const nets = await Promise.all(Array.from({ length: 16 }, one));
    let errors = 0;
    let done = 0;
    const latencies: number[] = [];
    const began = performance.now();
    const end = began + seconds * 1000;
    await Promise.all(
      nets.map(async ({ client }) => {
        const inFlight: Promise<void>[] = [];
        for (let next = performance.now(); next < end; next += 20) {
          const wait = next - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          const t = performance.now();
          inFlight.push(
            client.get(url).then(
              (r) => {
                if (r.status !== 200) errors++;
                latencies.push(performance.now() - t);
                done++;
              },
              () => void errors++,
            ),
          );
        }
        await Promise.all(inFlight);
      }),
    );
    const wall = (performance.now() - began) / 1000;
    for (const x of nets) {
      x.client.close();
      await x.net.close();
    }
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

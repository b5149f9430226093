import { HOST, proxiedClient, startBackend } from '../tests/network/engine-helpers.js';

/**
 * The far side of bench/network.bench.ts's load figure, in a process of its own as the apps and
 * their backend are on a device: the backend, and one client per instance that sends `rate`
 * requests a second through its instance's proxy for `seconds`, counting answers and errors.
 */
const port = {
  postMessage: (m: unknown) => process.send!(m),
  once: (e: 'message', f: (m: Load) => void) => process.once(e, f as never),
};
const backend = await startBackend();
port.postMessage({ info: backend.info });
type Load = { proxies: Array<Parameters<typeof proxiedClient>[0]>; seconds: number; rate: number };
port.once('message', (m: Load) => void run(m));

async function run(m: Load): Promise<void> {
  const url = `https://${HOST}/products?page=1`;
  let errors = 0;
  let done = 0;
  const latencies: number[] = [];
  const began = performance.now();
  const end = began + m.seconds * 1000;
  await Promise.all(
    m.proxies.map(async (proxy) => {
      const client = proxiedClient(proxy);
      const inFlight: Promise<void>[] = [];
      for (let next = performance.now(); next < end; next += 1000 / m.rate) {
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
      client.close();
    }),
  );
  const wall = (performance.now() - began) / 1000;
  await backend.server.stop();
  port.postMessage({ done, errors, latencies, wall });
  process.disconnect();
}

import { DeviceClient, McpToolTransport } from '../device-runtime/client/index.js';
import { SimRuntime } from '../device-runtime/sim/runtime.js';
import { startSimServer } from '../device-runtime/sim/server.js';
import { median, percentile, round, sample, type BenchSection } from './section.js';

const NOTES_APK = new URL('../fixtures/apks/notes.apk', import.meta.url).pathname;
const N = 400;
const THROUGHPUT_MS = 2000;

/**
 * What MCP over loopback HTTP costs per tool call, against the same call made in-process on
 * SimRuntime (the floor: validation, lease check, handler, audit), and how many calls per second
 * one simulator serves to 1, 4 and 16 concurrent clients.
 */
export async function benchMcp(): Promise<BenchSection> {
  const sim = await startSimServer();
  try {
    const client = new DeviceClient(await McpToolTransport.http(sim.url, sim.token));
    const { space_id } = await client.call('space_create', { name: 'bench' });
    await client.call('session_acquire', { space_id });
    await client.call('space_install_apk', { space_id, apk_paths: [NOTES_APK] });
    await client.call('space_launch', { space_id, package: 'com.nestwright.notes' });

    const rt: SimRuntime = sim.runtime;
    const ctx = { sessionId: client.sessionId!, caller: 'REMOTE_MCP' as const };
    const rows: BenchSection['rows'] = [];
    for (const [tool, args] of [
      ['space_status', { space_id }],
      ['ui_observe', { space_id }],
    ] as const) {
      const local = await sample(N, () => rt.call(tool, args, ctx));
      const remote = await sample(N, () => client.call(tool, args));
      rows.push({
        call: tool,
        'in-process median ms': round(median(local), 3),
        'in-process p95 ms': round(percentile(local, 95), 3),
        'MCP median ms': round(median(remote), 3),
        'MCP p95 ms': round(percentile(remote, 95), 3),
        'MCP / in-process': round(median(remote) / median(local), 1),
      });
    }

    for (const n of [1, 4, 16]) {
      const clients = await Promise.all(
        Array.from({ length: n }, async () => new DeviceClient(await McpToolTransport.http(sim.url, sim.token))),
      );
      let calls = 0;
      const end = performance.now() + THROUGHPUT_MS;
      const t0 = performance.now();
      await Promise.all(
        clients.map(async (c) => {
          while (performance.now() < end) {
            await c.call('space_status', { space_id });
            calls++;
          }
        }),
      );
      const secs = (performance.now() - t0) / 1000;
      rows.push({ call: `space_status, ${n} client${n > 1 ? 's' : ''}`, 'calls/s': Math.round(calls / secs) });
      for (const c of clients) await c.close();
    }
    await client.close();
    return {
      title: 'MCP transport: tool-call latency over loopback vs in-process, and throughput',
      rows,
      notes: [
        `${N} sequential calls per latency row after warm-up; throughput rows run ${THROUGHPUT_MS} ms each against one simulator in this process.`,
        'In-process is SimRuntime.call (validation, lease check, handler, result check, audit); MCP adds JSON-RPC, HTTP and the client’s own validation.',
      ],
    };
  } finally {
    await sim.close();
  }
}

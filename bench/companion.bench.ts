import path from 'node:path';
import { DeviceClient, McpToolTransport } from '../device-runtime/client/index.js';
import { startCompanionServer } from '../device-runtime/providers/companion/server.js';
import { startSimServer } from '../device-runtime/sim/index.js';
import { FakeCompanion } from '../tests/companion/fake-companion.js';
import { median, percentile, round, sample, type BenchSection } from './section.js';

const APK = path.resolve(import.meta.dirname, '../fixtures/apks/notes.apk');
const KEY = 'dc_bench_key_0123456789';
const stats = (xs: number[]) => ({ median_ms: round(median(xs)), p95_ms: round(percentile(xs, 95)) });

/** One space with Notes running, through `client`; a tap on "New note" then back, as one sample. */
async function tapper(client: DeviceClient): Promise<() => Promise<void>> {
  const space_id = (await client.call('space_create', {})).space_id;
  await client.call('session_acquire', { space_id });
  await client.call('space_install_apk', { space_id, apk_paths: [APK] });
  await client.call('space_launch', { space_id, package: 'com.nestwright.notes' });
  const obs = await client.call('ui_observe', { space_id });
  const node = obs.nodes.find((n) => n.text === 'New note')!;
  return async () => {
    await client.call('ui_tap', { space_id, bounds: node.bounds });
    await client.call('ui_key', { space_id, key: 'back' });
  };
}

/**
 * A tap through the companion provider (worker → MCP on loopback → the hub → a WebSocket to the
 * phone, here the fake companion answering from a simulator of its own) against the same tap
 * through the simulator's own protocol (worker → MCP on loopback → the simulator). Both on the
 * instant profile: the figures are the transport and the mapping, not a phone.
 */
export async function benchCompanion(): Promise<BenchSection> {
  const sim = await startSimServer({});
  const companion = await startCompanionServer({ listen: { host: '127.0.0.1', port: 0 }, keys: [KEY] });
  const phone = await new FakeCompanion({ url: companion.phonesUrl, key: KEY, apks: [APK], canClear: true }).start();
  const direct = new DeviceClient(await McpToolTransport.http(sim.url, sim.token));
  const viaPhone = new DeviceClient(await McpToolTransport.http(companion.url, companion.token));
  try {
    const a = await tapper(direct);
    const b = await tapper(viaPhone);
    const simRuns = await sample(100, a, 10);
    const phoneRuns = await sample(100, b, 10);
    return {
      title: 'companion: a tap through a phone that dialled in vs the simulator’s own protocol',
      rows: [
        { measure: 'ui_tap + ui_key back, simulator over MCP', ...stats(simRuns) },
        {
          measure: 'ui_tap + ui_key back, companion (MCP → hub → WebSocket → phone)',
          ...stats(phoneRuns),
          vs: 'ui_tap + ui_key back, simulator over MCP',
          ratio: round(median(phoneRuns) / median(simRuns)),
        },
      ],
      notes: ['Instant profile; the fake companion answers from a simulator in the bench process.'],
    };
  } finally {
    await direct.close();
    await viaPhone.close();
    await phone.close();
    await companion.close();
    await sim.close();
  }
}

import { DeviceClient, DeviceError, McpToolTransport } from '../device-runtime/client/index.js';
import { connectAdb } from '../device-runtime/providers/adb/connect.js';
import { runChecks } from '../cli/commands/doctor.js';
import { FakeAndroid } from '../tests/providers/fake-android.js';
import { median, round, type BenchSection } from './section.js';

const N = 7;

/**
 * The adb provider over the fake adb (tests/providers/fakes): how long a worker's connect takes,
 * how much of that is the device (adb calls, the HTTP probe, the MCP handshake — wall time,
 * parallel calls once) and how much the provider itself (target < 200 ms), beside a direct MCP
 * connect to the same runtime through the same forward; `doctor` with nothing Android and with
 * the fakes (target < 2 s); and how soon a vanished device fails the call in flight (target < 2 s).
 * Every fake adb call is a Node start-up (~40 ms idle): the "device" here is slower than real adb.
 */
export async function benchProviders(): Promise<BenchSection> {
  const rows: BenchSection['rows'] = [];
  const fake = (await FakeAndroid.create([{ serial: 'R58M123ABC', usb: '1-1', runtime: { running: true } }])).use();
  try {
    await fake.runtimesReady();
    await (await connectAdb({})).close(); // warm: the fake server, the runtime's first session
    const total: number[] = [];
    const device: number[] = [];
    const direct: number[] = [];
    for (let i = 0; i < N; i++) {
      const conn = await connectAdb({});
      total.push(conn.timings.totalMs);
      device.push(conn.timings.deviceMs);
      // The comparison: only the MCP handshake, through the forward this connect made.
      const token = await readToken(fake);
      const t = performance.now();
      const bare = new DeviceClient(await McpToolTransport.http(conn.url, token));
      direct.push(performance.now() - t);
      await bare.close();
      await conn.close();
    }
    const overhead = total.map((t, i) => t - device[i]!);
    rows.push(
      { measure: 'adb provider connect (fake adb), median ms', value: round(median(total), 1), target: '' },
      {
        measure: '  of which waiting on the device (adb, probe, handshake)',
        value: round(median(device), 1),
        target: '',
      },
      { measure: '  provider overhead (connect − device wait)', value: round(median(overhead), 1), target: '< 200' },
      {
        measure: 'direct MCP connect through the same forward (nestspace provider), median ms',
        value: round(median(direct), 1),
        target: '',
      },
    );

    // Doctor, with the fakes in place (devices asked) …
    const withFakes = await timeN(3, () => runChecks());
    fake.restore();
    // … and with nothing Android (this machine as it is).
    const saved = {
      PATH: process.env.PATH,
      ANDROID_HOME: process.env.ANDROID_HOME,
      ANDROID_SDK_ROOT: process.env.ANDROID_SDK_ROOT,
    };
    delete process.env.ANDROID_HOME;
    delete process.env.ANDROID_SDK_ROOT;
    const bare = await timeN(3, () => runChecks());
    Object.assign(process.env, saved);
    fake.use();
    rows.push(
      { measure: 'doctor, nothing Android, median ms', value: round(median(bare), 1), target: '< 2000' },
      { measure: 'doctor, fake SDK + 1 device, median ms', value: round(median(withFakes), 1), target: '< 2000' },
    );

    // A device that vanishes: from the unplug to the in-flight call failing with DEVICE_DISCONNECTED.
    const notice: number[] = [];
    for (let i = 0; i < 3; i++) {
      await fake.attach({ serial: 'R58M123ABC', usb: '1-1', runtime: { running: true } });
      await fake.runtimesReady();
      const conn = await connectAdb({});
      const { space_id } = await conn.client.call('space_create', { name: `vanish-${i}` });
      const failed = conn.client.call('ui_wait_for', { space_id, text: 'never', timeout_ms: 60_000 }).then(
        () => null,
        (e: unknown) => (e instanceof DeviceError && e.code === 'DEVICE_DISCONNECTED' ? performance.now() : null),
      );
      await new Promise((r) => setTimeout(r, 200));
      const t = performance.now();
      await fake.vanish('R58M123ABC');
      const at = await failed;
      if (at !== null) notice.push(at - t);
      await conn.close();
    }
    rows.push({
      measure: 'vanished device → call in flight fails (DEVICE_DISCONNECTED), median ms',
      value: notice.length ? round(median(notice), 1) : 'not noticed',
      target: '< 2000',
    });
  } finally {
    await fake.close();
  }
  return {
    title: 'Providers: adb over the fake adb, doctor, a vanished device',
    rows,
    notes: [
      "Overhead = total − wall time waiting on adb, the runtime probe and the MCP handshake. The fake adb starts a Node process per call, so device times here exceed real adb's.",
    ],
  };
}

async function timeN(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

async function readToken(fake: FakeAndroid): Promise<string> {
  const { readFileSync } = await import('node:fs');
  return readFileSync(`${fake.dir}/devices/R58M123ABC/data/com.coke.nestspace/files/mcp_token`, 'utf8').trim();
}

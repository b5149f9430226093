import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  connectDevice,
  EMBEDDED_TOKEN_ENV,
  EMBEDDED_URL_ENV,
  startEmbeddedDevice,
} from '../device-runtime/providers/index.js';
import type { DeviceClient } from '../device-runtime/client/index.js';
import { expect } from '../framework/core/expect.js';
import { Space } from '../framework/core/space.js';
import type { App } from '../framework/core/app.js';
import { median, percentile, round, sample, type BenchSection } from './section.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NOTES_APK = 'fixtures/apks/notes.apk';

const stats = (xs: number[]) => ({ median_ms: round(median(xs)), p95_ms: round(percentile(xs, 95)) });

/** The raw-protocol equivalent of a locator tap: observe, find the node by text, tap it. */
async function rawTap(client: DeviceClient, spaceId: string, text: string): Promise<void> {
  const obs = await client.call('ui_observe', { space_id: spaceId, max_nodes: 400 });
  const node = obs.nodes.find((n) => n.text === text);
  if (!node) throw new Error(`raw tap: no ${text}`);
  await client.call('ui_tap', { space_id: spaceId, node_id: node.id, snapshot_id: obs.snapshot_id });
}

async function rawAssertVisible(client: DeviceClient, spaceId: string, text: string): Promise<void> {
  const obs = await client.call('ui_observe', { space_id: spaceId, max_nodes: 400 });
  if (!obs.nodes.some((n) => n.text === text)) throw new Error(`raw assert: no ${text}`);
}

/** Median ms of `n` taps on "New note" (each followed by an unmeasured back), and round trips per tap. */
async function tapSamples(
  app: App,
  back: () => Promise<unknown>,
  n: number,
): Promise<{ times: number[]; trips: number[] }> {
  const times: number[] = [];
  const trips: number[] = [];
  for (let i = 0; i < n + 5; i++) {
    const before = app.driver.calls.roundTrips;
    const t = performance.now();
    await app.getByText('New note').tap();
    if (i >= 5) {
      times.push(performance.now() - t);
      trips.push(app.driver.calls.roundTrips - before);
    }
    await back();
  }
  return { times, trips };
}

const ratio = (a: number[], b: number[]) => round(median(a) / median(b));

/**
 * What the framework costs on top of the device: a locator tap (on the device in one round trip
 * with the `selector_actions` extension, and from here as against a runtime without it) and a
 * retrying assertion against the simulated device (instant faults, so the device's own time is
 * as small as it gets), the same steps as raw protocol calls and through Appium 3 + its fake
 * driver, in the same run; a tap with a phone's latencies; per-test instances (the long suite is bench/suite.bench.ts).
 */
export async function benchFramework(): Promise<BenchSection> {
  const sim = await startEmbeddedDevice({ faults: 'instant' });
  process.env[EMBEDDED_URL_ENV] = sim.url;
  process.env[EMBEDDED_TOKEN_ENV] = sim.token;
  const rows: BenchSection['rows'] = [];
  const notes: string[] = [];
  const N = 40;
  try {
    const conn = await connectDevice({ provider: 'sim' });
    const client = conn.client;
    const space = await Space.create(client, 'bench');
    const back = () => client.call('ui_key', { space_id: space.id, key: 'back' });
    const opts = (deviceActions: 'auto' | 'off') => ({ actionTimeout: 5_000, expectTimeout: 5_000, deviceActions });
    const onDevice = await space.launch(NOTES_APK, undefined, opts('auto'));
    const device = await tapSamples(onDevice, back, N);
    await onDevice.close();
    const fromHere = await space.launch(NOTES_APK, undefined, opts('off'));
    const client_ = await tapSamples(fromHere, back, N);
    const rawTapTimes: number[] = [];
    for (let i = 0; i < N + 5; i++) {
      const t = performance.now();
      await rawTap(client, space.id, 'New note');
      if (i >= 5) rawTapTimes.push(performance.now() - t);
      await back();
    }
    const assertTimes = await sample(N, () => expect(fromHere.getByText('New note')).toBeVisible(), 5);
    const rawAssertTimes = await sample(N, () => rawAssertVisible(client, space.id, 'New note'), 5);
    const observeTimes = await sample(N, () => client.call('ui_observe', { space_id: space.id, max_nodes: 400 }), 5);
    const peer = await measurePeer();

    rows.push({ measure: 'raw protocol tap (ui_observe + ui_tap)', ...stats(rawTapTimes), round_trips: 2 });
    rows.push({
      measure: 'locator.tap, selector_actions (on the device)',
      ...stats(device.times),
      vs: 'raw protocol tap',
      ratio: ratio(device.times, rawTapTimes),
      round_trips: median(device.trips),
    });
    rows.push({
      measure: 'locator.tap, client-side loop (no extension)',
      ...stats(client_.times),
      vs: 'raw protocol tap',
      ratio: ratio(client_.times, rawTapTimes),
      round_trips: median(client_.trips),
    });
    if (peer) {
      rows.push({ measure: "Appium 3 + fake driver: $('~new_note').click()", ...stats(peer.click) });
      rows.push({
        measure: 'locator.tap, selector_actions vs Appium click',
        median_ms: round(median(device.times)),
        vs: "Appium 3 + fake driver: $('~new_note').click()",
        ratio: ratio(device.times, peer.click),
      });
    } else notes.push(`Appium is not installed for the comparison: ${APPIUM_SETUP}`);
    rows.push({ measure: 'raw protocol assertion (one ui_observe, find)', ...stats(rawAssertTimes) });
    rows.push({
      measure: 'expect(locator).toBeVisible()',
      ...stats(assertTimes),
      vs: 'raw protocol assertion (one ui_observe, find)',
      ratio: ratio(assertTimes, rawAssertTimes),
    });
    if (peer) {
      rows.push({ measure: "Appium 3 + fake driver: $('~empty').isDisplayed()", ...stats(peer.displayed) });
      rows.push({
        measure: 'expect(locator).toBeVisible() vs Appium isDisplayed',
        median_ms: round(median(assertTimes)),
        vs: "Appium 3 + fake driver: $('~empty').isDisplayed()",
        ratio: ratio(assertTimes, peer.displayed),
      });
    }
    rows.push({ measure: 'one ui_observe round trip (MCP over HTTP)', ...stats(observeTimes) });

    const instanceTimes = await sample(
      15,
      async () => {
        const inst = await space.launch(NOTES_APK);
        await inst.close();
      },
      3,
    );
    rows.push({
      measure: 'per-test instance: launch new → close (stop + wipe)',
      ...stats(instanceTimes),
      ...(peer ? { vs: 'Appium session: new → delete', ratio: ratio(instanceTimes, peer.session) } : {}),
    });
    if (peer) rows.push({ measure: 'Appium session: new → delete', ...stats(peer.session) });

    await fromHere.close();
    await space.delete();
    await conn.close();
  } finally {
    delete process.env[EMBEDDED_URL_ENV];
    delete process.env[EMBEDDED_TOKEN_ENV];
    await sim.close();
  }

  rows.push(...(await realisticTap()));

  notes.push(
    'Instant fault profile: the device answers at once, so the figures are the framework and transport, not a phone.',
    'round_trips: tool calls per tap. Client-side loop: at least 2 observations (found, then stable bounds) + the tap + 1 observation to verify it took. selector_actions: 1 (the runtime waits, acts and verifies next to the screen).',
  );
  return {
    title: 'framework: step latency and round trips vs raw protocol and Appium, per-test instance',
    rows,
    notes,
  };
}

/**
 * A phone's latencies (the `realistic` profile: 50–100 ms per accessibility call): a locator tap
 * on the selector_actions path against a bare ui_tap on a node already known, and one ui_observe.
 * Target: the tap costs at most one observation more than the bare tap.
 */
async function realisticTap(): Promise<BenchSection['rows']> {
  const sim = await startEmbeddedDevice({ faults: 'realistic', seed: 1 });
  try {
    const conn = await connectDevice({ provider: 'sim', url: sim.url, token: sim.token });
    const client = conn.client;
    const space = await Space.create(client, 'bench-realistic');
    const app = await space.launch(NOTES_APK, undefined, {
      actionTimeout: 10_000,
      expectTimeout: 10_000,
      deviceActions: 'auto',
    });
    const back = async () => {
      await client.call('ui_key', { space_id: space.id, key: 'back' });
      await client.call('ui_wait_for', { space_id: space.id, text: 'New note', idle: true, timeout_ms: 5_000 });
    };
    const n = 30;
    const tap = await tapSamples(app, back, n);
    const bare: number[] = [];
    for (let i = 0; i < n + 3;) {
      const obs = await client.call('ui_observe', { space_id: space.id, max_nodes: 400 });
      const node = obs.nodes.find((x) => x.text === 'New note');
      if (!node) continue;
      const t = performance.now();
      // A screen still settling answers SNAPSHOT_STALE: look again; only a tap that landed counts.
      const landed = await client
        .call('ui_tap', { space_id: space.id, node_id: node.id, snapshot_id: obs.snapshot_id })
        .then(
          () => true,
          () => false,
        );
      if (!landed) continue;
      if (i++ >= 3) bare.push(performance.now() - t);
      await back();
    }
    const observe = await sample(n, () => client.call('ui_observe', { space_id: space.id, max_nodes: 400 }), 3);
    await app.close();
    await space.delete();
    await conn.close();
    const extra = median(tap.times) - median(bare);
    return [
      { measure: 'realistic: bare ui_tap on a known node', ...stats(bare) },
      { measure: 'realistic: one ui_observe', ...stats(observe) },
      {
        measure: 'realistic: locator.tap, selector_actions',
        ...stats(tap.times),
        vs: 'realistic: bare ui_tap on a known node',
        ratio: ratio(tap.times, bare),
        above_bare_ms: round(extra),
        observations_above_bare: round(extra / median(observe)),
      },
    ];
  } finally {
    await sim.close();
  }
}

/** Where the peer comparison's Appium lives (APPIUM_HOME): a scratch project dir, not a dependency. */
const APPIUM_HOME = process.env.NESTWRIGHT_APPIUM_HOME ?? path.join(ROOT, '.nestwright', 'appium-home');
const APPIUM_SETUP = 'bash bench/peer-setup.sh';

// The fake driver's npm package has no sample app: this is Notes' main screen in its XML format.
const FAKE_APP_XML = `<app>
  <title>Notes</title>
  <MockListView id="notes">
    <MockButton id="new_note">New note</MockButton>
    <MockInputField id="title"></MockInputField>
    <MockButton id="save">Save</MockButton>
    <MockTextView id="empty">No notes yet</MockTextView>
  </MockListView>
</app>
`;

/**
 * The peer: the same two steps through Appium 3 + @appium/fake-driver + WebdriverIO (find by
 * accessibility id, click; find, isDisplayed), and a session as the per-test unit. The fake
 * driver answers from an in-memory XML: like the instant sim, it shows the stack's own cost. No
 * auto-wait, strictness or verification on this side. Null when Appium is not set up.
 */
async function measurePeer(): Promise<{ click: number[]; displayed: number[]; session: number[] } | null> {
  const { existsSync, writeFileSync } = await import('node:fs');
  // Appium and WebdriverIO are devDependencies; APPIUM_HOME holds the installed drivers.
  const appiumMain = path.join(ROOT, 'node_modules/appium/index.js');
  const wdio = path.join(ROOT, 'node_modules/webdriverio/build/index.js');
  if (
    !existsSync(appiumMain) ||
    !existsSync(wdio) ||
    !existsSync(path.join(APPIUM_HOME, 'node_modules/.cache/appium/extensions.yaml'))
  )
    return null;
  const xml = path.join(APPIUM_HOME, 'notes-app.xml');
  writeFileSync(xml, FAKE_APP_XML);
  const port = 4723 + Math.floor(Math.random() * 1000);
  const server = spawn(process.execPath, [appiumMain, 'server', '--port', String(port), '--log-level', 'error'], {
    env: { ...process.env, APPIUM_HOME },
    stdio: 'ignore',
  });
  try {
    for (let i = 0; i < 150; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/status`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const { remote } = (await import(pathToFileURLString(wdio))) as { remote: (o: unknown) => Promise<any> };
    const caps = {
      platformName: 'Fake',
      'appium:automationName': 'Fake',
      'appium:deviceName': 'Fake',
      'appium:app': xml,
    };
    const open = () => remote({ hostname: '127.0.0.1', port, logLevel: 'error', capabilities: caps });
    const d = await open();
    const N = 40;
    const click = await sample(N, async () => (await d.$('~new_note')).click(), 5);
    const displayed = await sample(
      N,
      async () => {
        if (!(await (await d.$('~empty')).isDisplayed())) throw new Error('peer: not displayed');
      },
      5,
    );
    await d.deleteSession();
    const session = await sample(10, async () => (await open()).deleteSession(), 2);
    return { click, displayed, session };
  } finally {
    server.kill();
  }
}

function pathToFileURLString(p: string): string {
  return new URL(`file://${p}`).href;
}

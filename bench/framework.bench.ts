import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectDevice, EMBEDDED_TOKEN_ENV, EMBEDDED_URL_ENV, startEmbeddedDevice } from '../device-runtime/providers/index.js';
import type { DeviceClient } from '../device-runtime/client/index.js';
import { expect } from '../framework/expect.js';
import { Space } from '../framework/space.js';
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

/** Run the example notes spec in a child Playwright; wall-clock ms and test count. */
function runSuite(workers: number, repeat: number): Promise<{ ms: number; tests: number; ok: boolean }> {
  const env: Record<string, string | undefined> = { ...process.env, NESTWRIGHT_FAULTS: 'instant' };
  delete env[EMBEDDED_URL_ENV];
  delete env[EMBEDDED_TOKEN_ENV];
  const args = [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'playwright.config.ts', 'specs/notes.spec.ts', `--workers=${workers}`, `--repeat-each=${repeat}`, '--reporter=json', `--output=test-results/bench-${workers}`];
  const t = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const ms = performance.now() - t;
      let tests = 0;
      try {
        const stats = JSON.parse(out.slice(out.indexOf('{'))).stats;
        tests = stats.expected + stats.unexpected + stats.flaky;
      } catch {
        /* counted as 0 */
      }
      resolve({ ms, tests, ok: code === 0 });
    });
  });
}

/**
 * What the framework costs on top of the device: a locator tap and a retrying assertion against
 * the simulated device (instant faults, so the device's own time is as small as it gets), the
 * same steps as raw protocol calls, a per-test instance, and suite throughput by workers.
 */
export async function benchFramework(): Promise<BenchSection> {
  const sim = await startEmbeddedDevice({ faults: 'instant' });
  process.env[EMBEDDED_URL_ENV] = sim.url;
  process.env[EMBEDDED_TOKEN_ENV] = sim.token;
  const rows: BenchSection['rows'] = [];
  const notes: string[] = [];
  try {
    const conn = await connectDevice({ provider: 'sim' });
    const client = conn.client;
    const space = await Space.create(client, 'bench');
    const app = await space.launch(NOTES_APK);
    const back = () => client.call('ui_key', { space_id: space.id, key: 'back' });
    const N = 40;

    // Each measured tap opens the editor; an unmeasured back returns to the list.
    const tapTimes: number[] = [];
    for (let i = 0; i < N + 5; i++) {
      const t = performance.now();
      await app.getByText('New note').tap();
      if (i >= 5) tapTimes.push(performance.now() - t);
      await back();
    }
    const rawTapTimes: number[] = [];
    for (let i = 0; i < N + 5; i++) {
      const t = performance.now();
      await rawTap(client, space.id, 'New note');
      if (i >= 5) rawTapTimes.push(performance.now() - t);
      await back();
    }
    const assertTimes = await sample(N, () => expect(app.getByText('New note')).toBeVisible(), 5);
    const rawAssertTimes = await sample(N, () => rawAssertVisible(client, space.id, 'New note'), 5);
    const observeTimes = await sample(N, () => client.call('ui_observe', { space_id: space.id, max_nodes: 400 }), 5);

    rows.push({ measure: 'locator.tap (auto-wait, strict, stable, verify)', ...stats(tapTimes), raw_median_ms: round(median(rawTapTimes)), overhead: `${round(median(tapTimes) / median(rawTapTimes))}x` });
    rows.push({ measure: 'expect(locator).toBeVisible()', ...stats(assertTimes), raw_median_ms: round(median(rawAssertTimes)), overhead: `${round(median(assertTimes) / median(rawAssertTimes))}x` });
    rows.push({ measure: 'one ui_observe round trip (MCP over HTTP)', ...stats(observeTimes) });

    const instanceTimes = await sample(15, async () => {
      const inst = await space.launch(NOTES_APK);
      await inst.close();
    }, 3);
    rows.push({ measure: 'per-test instance: launch new → close (stop + wipe)', ...stats(instanceTimes) });

    await app.close();
    await space.delete();
    await conn.close();
  } finally {
    delete process.env[EMBEDDED_URL_ENV];
    delete process.env[EMBEDDED_TOKEN_ENV];
    await sim.close();
  }

  const repeat = 3;
  for (const workers of [1, 2, 4]) {
    const r = await runSuite(workers, repeat);
    rows.push({
      measure: `specs/notes.spec.ts ×${repeat}, ${workers} worker${workers > 1 ? 's' : ''} (child process, incl. startup)`,
      median_ms: round(r.ms, 0),
      tests: r.tests,
      tests_per_s: round(r.tests / (r.ms / 1000)),
      ...(r.ok ? {} : { note: 'FAILED' }),
    });
  }
  notes.push(
    'Instant fault profile: the device answers at once, so the figures are the framework and transport, not a phone.',
    'tap = at least 2 observations (found, then stable bounds) + the tap + 1 observation to verify it took; raw = 1 observation + the tap.',
    'Suite rows include Playwright and simulator start-up; workers share one simulated device, each in its own space.',
  );
  return { title: 'framework: step latency, overhead vs raw protocol, per-test instance, suite throughput', rows, notes };
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
 * driver answers from an in-memory XML: like the instant sim, it shows the stack's own cost.
 */
export async function benchFrameworkPeer(): Promise<BenchSection> {
  const title = 'framework peer: Appium 3 + fake driver + WebdriverIO, same steps';
  const { existsSync, writeFileSync } = await import('node:fs');
  // Appium and WebdriverIO are devDependencies; APPIUM_HOME holds the installed drivers.
  const appiumMain = path.join(ROOT, 'node_modules/appium/index.js');
  const wdio = path.join(ROOT, 'node_modules/webdriverio/build/index.js');
  if (!existsSync(appiumMain) || !existsSync(wdio) || !existsSync(path.join(APPIUM_HOME, 'node_modules/.cache/appium/extensions.yaml'))) {
    return { title, rows: [{ measure: 'skipped', note: 'Appium is not installed for the comparison' }], notes: [`To include it: npm run bench:peer:setup (${APPIUM_SETUP})`] };
  }
  const xml = path.join(APPIUM_HOME, 'notes-app.xml');
  writeFileSync(xml, FAKE_APP_XML);
  const port = 4723 + Math.floor(Math.random() * 1000);
  const server = spawn(process.execPath, [appiumMain, 'server', '--port', String(port), '--log-level', 'error'], { env: { ...process.env, APPIUM_HOME, NODE_OPTIONS: '--import tsx' }, stdio: 'ignore' });
  try {
    for (let i = 0; i < 150; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false);
      if (up) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const { remote } = (await import(pathToFileURLString(wdio))) as { remote: (o: unknown) => Promise<any> };
    const caps = { platformName: 'Fake', 'appium:automationName': 'Fake', 'appium:deviceName': 'Fake', 'appium:app': xml };
    const open = () => remote({ hostname: '127.0.0.1', port, logLevel: 'error', capabilities: caps });
    const d = await open();
    const N = 40;
    const click = await sample(N, async () => (await d.$('~new_note')).click(), 5);
    const displayed = await sample(N, async () => {
      if (!(await (await d.$('~empty')).isDisplayed())) throw new Error('peer: not displayed');
    }, 5);
    await d.deleteSession();
    const session = await sample(10, async () => (await open()).deleteSession(), 2);
    return {
      title,
      rows: [
        { measure: "$('~new_note').click()", ...stats(click) },
        { measure: "$('~empty').isDisplayed()", ...stats(displayed) },
        { measure: 'session: new → delete (the per-test unit)', ...stats(session) },
      ],
      notes: ['Compare with the framework table: locator.tap vs click, toBeVisible vs isDisplayed, instance vs session. No auto-wait, strictness or verification on this side.'],
    };
  } finally {
    server.kill();
  }
}

function pathToFileURLString(p: string): string {
  return new URL(`file://${p}`).href;
}

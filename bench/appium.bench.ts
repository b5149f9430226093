import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { remote } from 'webdriverio';
import { APPIUM_HOME, notesCaps, ROOT, startAppium } from '../tests/appium/appium-server.js';
import { median, percentile, round, sample, type BenchSection } from './section.js';

const stats = (xs: number[]) => ({ median_ms: round(median(xs)), p95_ms: round(percentile(xs, 95)) });

// The fake driver's npm package has no sample app: Notes' main screen in its XML format.
const FAKE_APP_XML = `<app>
  <title>Notes</title>
  <MockListView id="notes">
    <MockButton id="new_note">New note</MockButton>
    <MockTextView id="empty">No notes yet</MockTextView>
  </MockListView>
</app>
`;

/** Run specs/notes.spec.ts in a child Playwright with this use.deviceOptions; wall ms and summed test ms. */
function runNotes(
  device: Record<string, unknown>,
): Promise<{ wall: number; tests: number; testMs: number; ok: boolean }> {
  const dir = path.join(ROOT, 'test-results', 'bench-appium', randomUUID().slice(0, 8));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'playwright.config.ts'),
    `import base from '../../../playwright.config.ts';
export default { ...base, testDir: '../../../specs', outputDir: './out', retries: 0, reporter: [['json']], use: { ...base.use, trajectory: 'on', deviceOptions: ${JSON.stringify(device)} } };
`,
  );
  const env: NodeJS.ProcessEnv = { ...process.env, NESTWRIGHT_FAULTS: 'instant' };
  delete env.NESTWRIGHT_SIM_URL;
  delete env.NESTWRIGHT_SIM_TOKEN;
  const t = performance.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', dir, 'notes.spec.ts', '--workers=1'],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const wall = performance.now() - t;
      let tests = 0;
      let testMs = 0;
      try {
        const report = JSON.parse(out.slice(out.indexOf('{')));
        const walk = (s: any) => {
          for (const c of s.suites ?? []) walk(c);
          for (const spec of s.specs ?? [])
            for (const tt of spec.tests) for (const r of tt.results) (tests++, (testMs += r.duration));
        };
        for (const s of report.suites) walk(s);
      } catch {
        /* counted as 0 */
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({ wall, tests, testMs, ok: code === 0 });
    });
  });
}

/**
 * The Appium bridges, one Appium 3 server for all rows: WebdriverIO's find-and-click through
 * the NestSpace driver vs through @appium/fake-driver (Appium's and WebdriverIO's share is the
 * same on both sides, so the difference is the driver and the device behind it), a session as
 * the per-test unit, and the notes spec through the `appium` provider vs the native provider.
 */
export async function benchAppium(): Promise<BenchSection> {
  const server = await startAppium({ env: { NESTWRIGHT_FAULTS: 'instant' } });
  const rows: BenchSection['rows'] = [];
  try {
    const xml = path.join(APPIUM_HOME, 'notes-app.xml');
    writeFileSync(xml, FAKE_APP_XML);
    const opts = { hostname: '127.0.0.1', port: server.port, logLevel: 'error' as const };
    const fakeCaps = {
      platformName: 'Fake',
      'appium:automationName': 'Fake',
      'appium:deviceName': 'Fake',
      'appium:app': xml,
    };
    const N = 40;

    const ns = await remote({ ...opts, capabilities: notesCaps() as never });
    const fake = await remote({ ...opts, capabilities: fakeCaps as never });
    // Each measured click opens the editor; an unmeasured back returns to the list.
    const nsClick: number[] = [];
    for (let i = 0; i < N + 5; i++) {
      const t = performance.now();
      await ns.$('id=new_note').click();
      if (i >= 5) nsClick.push(performance.now() - t);
      await ns.back();
    }
    const fakeClick = await sample(N, () => fake.$('~new_note').click(), 5);
    const nsDisplayed = await sample(N, () => ns.$('id=empty').isDisplayed(), 5);
    const fakeDisplayed = await sample(N, () => fake.$('~empty').isDisplayed(), 5);
    const nsSource = await sample(N, () => ns.getPageSource(), 5);
    await ns.deleteSession();
    await fake.deleteSession();
    const nsSession = await sample(
      8,
      async () => (await remote({ ...opts, capabilities: notesCaps() as never })).deleteSession(),
      2,
    );
    const fakeSession = await sample(
      8,
      async () => (await remote({ ...opts, capabilities: fakeCaps as never })).deleteSession(),
      2,
    );
    const ratio = (a: number[], b: number[]) => `${round(median(a) / median(b))}x`;
    rows.push({
      measure: 'WebdriverIO $(…).click(): NestSpace driver (id=new_note, opens the editor)',
      ...stats(nsClick),
      peer: 'fake driver (~new_note)',
      peer_median_ms: round(median(fakeClick)),
      ratio: ratio(nsClick, fakeClick),
    });
    rows.push({
      measure: 'WebdriverIO $(…).isDisplayed(): NestSpace driver',
      ...stats(nsDisplayed),
      peer: 'fake driver',
      peer_median_ms: round(median(fakeDisplayed)),
      ratio: ratio(nsDisplayed, fakeDisplayed),
    });
    rows.push({ measure: 'getPageSource (UiAutomator2 XML of the whole tree): NestSpace driver', ...stats(nsSource) });
    rows.push({
      measure: 'session new → delete: NestSpace driver (space + install + fresh instance, then wipe)',
      ...stats(nsSession),
      peer: 'fake driver',
      peer_median_ms: round(median(fakeSession)),
      ratio: ratio(nsSession, fakeSession),
    });

    const native = await runNotes({ provider: 'sim', faults: 'instant' });
    const viaAppium = await runNotes({
      provider: 'appium',
      url: server.url,
      capabilities: { platformName: 'Android', 'appium:automationName': 'NestSpace' },
    });
    rows.push({
      measure: `specs/notes.spec.ts (${native.tests} tests, 1 worker) through the appium provider`,
      median_ms: round(viaAppium.testMs, 0),
      peer: 'native sim provider',
      peer_median_ms: round(native.testMs, 0),
      ratio: `${round(viaAppium.testMs / native.testMs)}x`,
      wall_ms: `${round(viaAppium.wall, 0)} vs ${round(native.wall, 0)}`,
      ...(viaAppium.ok && native.ok ? {} : { note: `FAILED (appium ${viaAppium.ok}, native ${native.ok})` }),
    });
  } finally {
    await server.close();
  }
  return {
    title:
      'appium: WebdriverIO through the NestSpace driver vs the fake driver; specs through the appium provider vs native',
    rows,
    notes: [
      'One Appium 3 server for every row; the NestSpace driver runs its embedded simulator with the instant profile, so the device answers at once.',
      'click = find (one observation) + click (one tap on the found snapshot; a fresh observation only if the screen changed). The fake driver answers from an in-memory XML.',
      'Spec rows: the sum of test durations (fixtures included, Playwright start-up not); wall_ms includes start-up. Through the provider each test is a WebDriver session, each observation a page source.',
    ],
  };
}

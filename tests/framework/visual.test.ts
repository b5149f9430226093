import { expect, test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { startSimServer } from '../../device-runtime/sim/index.js';
import { plain, ROOT, runInline, type InlineResult, type InlineRun } from './inline.js';
import { sharedBatch } from './shared-batch.js';

/**
 * toHaveScreenshot on the simulator, through the real runner, as a user runs it: a first run
 * writes the baselines, the next ones compare. One spec file per behaviour in one directory, and
 * six child runs for them all, each running the files that take part in its step; `CHANGE`
 * names the files whose test changes the screen first in that run, and `FAIL` the tests that
 * step means to fail: declared `test.fail()`, so one worker runs a run's tests (a test failing
 * unexpectedly makes Playwright start a new one), and each result still has its status and error.
 *
 * 1. `--update-snapshots=none`: update.spec, whose baseline is missing.
 * 2. the first run: every file writes its baselines (devices.spec on the plain simulator).
 * 3. `--update-snapshots` with update.spec's screen changed: it rewrites the baseline.
 * 4. the second run: the others compare, the changed ones fail; devices.spec on the Pixel 8
 *    writes its own baseline beside the simulator's.
 * 5. `LARGE`: the tolerant file's large change; devices.spec on the Pixel 8 matches its own.
 * 6. devices.spec on the simulator matches its own.
 */
const SIM = 'sim-1080x2400-420dpi';
const PIXEL = 'sim-pixel-8-1080x2400-420dpi';
// A loaded machine can take seconds per picture: the assertions get room (speed is the bench's).
const ROOMY = 'expect: { timeout: 20_000 },';

// Settings, the system app: no APK needed. A change turns Bluetooth on first (its summary on the home screen changes).
const HOME = (file: string) => `import { test, expect } from 'nestwright';
test.use({ apk: 'com.android.settings' });
async function change(app: any) {
  await app.getByText('Connected devices').tap();
  await app.getByRole('switch', { name: 'Use Bluetooth' }).tap();
  await app.press('back');
}
async function maybeChange(app: any) {
  if ((process.env.CHANGE ?? '').split(',').includes(${JSON.stringify(file)})) await change(app);
}
// The tests this step means to fail (FAIL: their titles) are declared so: they still fail with their
// errors, and Playwright keeps the worker for the next test instead of starting another.
test.beforeEach(() => test.fail((process.env.FAIL ?? '').split(',').includes(test.info().title)));
`;

const SPECS = (pixel: { url: string; token: string }): Record<string, string> => ({
  'written.spec.ts': `${HOME('written')}
test('written: home', async ({ app }) => {
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png');
});`,
  'changed.spec.ts': `${HOME('changed')}
test('changed: home', async ({ app }) => {
  await maybeChange(app);
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png');
});`,
  'mask.spec.ts': `${HOME('mask')}
test('masked', async ({ app }) => {
  await maybeChange(app);
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('masked.png', { mask: [app.getByText(/^Bluetooth (on|off)$/)] });
});
test('unmasked', async ({ app }) => {
  await maybeChange(app);
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('unmasked.png');
});`,
  'tolerant.spec.ts': `${HOME('tolerant')}
test('tolerant', async ({ app }) => {
  await maybeChange(app);
  if (process.env.LARGE) await app.getByText('About phone').tap();
  await expect(app.getByText(process.env.LARGE ? 'Build number' : 'Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png', { maxDiffPixels: 3000 });
});`,
  'button.spec.ts': `${HOME('button')}
test('button', async ({ app }) => {
  const search = app.getByDesc('Search settings');
  await expect(search).toHaveScreenshot('search.png');
});`,
  'spinner.spec.ts': `${HOME('spinner')}
test('spinner allowed', async ({ app }) => {
  await app.getByText('About phone').tap();
  await app.getByText('System update').tap();
  await expect(app).toHaveScreenshot('checking.png', { animations: 'allow', timeout: 6_000 });
});
test('spinner disabled', async ({ app }) => {
  await app.getByText('About phone').tap();
  await app.getByText('System update').tap();
  await expect(app).toHaveScreenshot('checking-idle.png', { timeout: 4_000 });
});`,
  'update.spec.ts': `${HOME('update')}
test('update: home', async ({ app }) => {
  await maybeChange(app);
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png');
});`,
  // One file, so both devices' baselines sit side by side under the same name. A device is a
  // worker option, which Playwright takes only at the top of a file: PIXEL says which for the run.
  'devices.spec.ts': `${HOME('devices')}
if (process.env.PIXEL)
  test.use({ deviceOptions: { provider: 'sim', url: ${JSON.stringify(pixel.url)}, token: ${JSON.stringify(pixel.token)} } });
test('devices: home', async ({ app }) => {
  // The other device with another screen state: no diff against the simulator's baseline.
  if (process.env.PIXEL) await change(app);
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png');
});`,
});

// Every test of SPECS: in the first run each one fails (a baseline missing, or a screen never stable).
const TITLES = [
  'written: home',
  'changed: home',
  'masked',
  'unmasked',
  'tolerant',
  'button',
  'spinner allowed',
  'spinner disabled',
  'update: home',
  'devices: home',
];

const baselineOf = (dir: string, spec: string, name: string, platform = SIM) =>
  path.join(dir, `${spec}.spec.ts-snapshots`, `${name}-${platform}.png`);
const attachments = (r: InlineResult) =>
  r.attachments
    .map((a) => a.name)
    .filter((n) => n.endsWith('.png'))
    .sort();
const visualStep = (r: InlineResult) =>
  JSON.parse(
    Buffer.from(r.attachments.find((a) => a.name === 'nestwright-trajectory')!.body!, 'base64').toString(),
  ).steps.find((s: any) => s.api === 'expect.toHaveScreenshot');
const png = (file: string) => {
  const p = PNG.sync.read(readFileSync(file));
  return { width: p.width, height: p.height, data: p.data };
};

test.describe.configure({ mode: 'default' });

let dir: string;
let none: InlineRun, first: InlineRun, updated: InlineRun, second: InlineRun, large: InlineRun, last: InlineRun;
// What the runs left on disk, read when it was so.
let facts: {
  home: { width: number; height: number };
  maskedPink: number;
  search: { width: number; height: number };
  checkingWritten: boolean[];
  updateAfterNone: boolean;
  updateRewritten: boolean;
  simBaselineBesidePixel: boolean;
};

test.beforeAll(async () => {
  test.setTimeout(900_000);
  ({ dir, none, first, updated, second, large, last, facts } = await sharedBatch('visual', async () => {
    const dir = path.join(ROOT, 'test-results', 'inline-visual', randomUUID().slice(0, 8));
    const pixel = await startSimServer({ model: 'Pixel 8' });
    try {
      const files = SPECS(pixel);
      const run = (step: { args?: string[]; env?: Record<string, string> }) =>
        runInline(files, { dir, config: ROOMY, ...step });
      const none = await run({ args: ['--update-snapshots=none', 'update.spec.ts'], env: { FAIL: 'update: home' } });
      const updateAfterNone = existsSync(baselineOf(dir, 'update', 'home'));
      const first = await run({ env: { FAIL: TITLES.join(',') } });
      const before = readFileSync(baselineOf(dir, 'update', 'home'));
      const updated = await run({ args: ['update.spec.ts', '--update-snapshots'], env: { CHANGE: 'update' } });
      const updateRewritten = !readFileSync(baselineOf(dir, 'update', 'home')).equals(before);
      const second = await run({
        args: Object.keys(files).filter((f) => f !== 'spinner.spec.ts'),
        env: { CHANGE: 'changed,mask,tolerant,update', PIXEL: '1', FAIL: 'changed: home,unmasked,devices: home' },
      });
      const simBaselineBesidePixel = existsSync(baselineOf(dir, 'devices', 'home'));
      const large = await run({
        args: ['tolerant.spec.ts', 'devices.spec.ts'],
        env: { LARGE: '1', PIXEL: '1', FAIL: 'tolerant' },
      });
      const last = await run({ args: ['devices.spec.ts'] });
      const masked = png(baselineOf(dir, 'mask', 'masked'));
      const { width, height } = png(baselineOf(dir, 'written', 'home'));
      const search = png(baselineOf(dir, 'button', 'search'));
      const facts = {
        home: { width, height },
        // The mask is painted in Playwright's pink, in the baseline too.
        maskedPink: Array.from({ length: masked.width * masked.height }, (_, i) => i).filter(
          (i) => masked.data[i * 4] === 255 && masked.data[i * 4 + 1] === 0 && masked.data[i * 4 + 2] === 255,
        ).length,
        search: { width: search.width, height: search.height },
        checkingWritten: ['checking', 'checking-idle'].map((n) => existsSync(baselineOf(dir, 'spinner', n))),
        updateAfterNone,
        updateRewritten,
        simBaselineBesidePixel,
      };
      return { dir, none, first, updated, second, large, last, facts };
    } finally {
      await pixel.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }));
});

test("a missing baseline is written on the first run (Playwright's message) and matched on the second", () => {
  const r1 = first.result('written: home');
  expect(r1.status).toBe('failed');
  expect(plain(r1.error)).toContain(
    `A snapshot doesn't exist at ${baselineOf(dir, 'written', 'home')}, writing actual.`,
  );
  expect(attachments(r1)).toEqual(['home-actual.png', 'home-expected.png']);
  expect([facts.home.width, facts.home.height]).toEqual([1080, 2400]);

  const r2 = second.result('written: home');
  expect(r2.error).toBe('');
  expect(r2.status).toBe('passed');
  // The trajectory step records the comparison.
  expect(visualStep(r2).visual).toMatchObject({
    name: 'home.png',
    outcome: 'matched',
    threshold: 0.2,
    diffPixels: 0,
    excluded: ['status_bar', 'navigation_bar'],
    size: { width: 1080, height: 2400 },
  });
});

test('a changed screen fails with the expected, actual and diff pictures and the differing pixels', () => {
  expect(first.result('changed: home').error).toContain("A snapshot doesn't exist");
  const r = second.result('changed: home');
  expect(r.status).toBe('failed');
  const message = plain(r.error);
  expect(message).toContain('expect(app).toHaveScreenshot("home.png") failed');
  expect(message).toMatch(/\d+ pixels \(ratio 0\.\d\d of all image pixels\) are different\./);
  expect(message).toContain('Snapshot: home.png');
  expect(attachments(r)).toEqual(['home-actual.png', 'home-diff.png', 'home-expected.png']);
  const pixels = Number(/(\d+) pixels/.exec(message)![1]);
  expect(pixels).toBeGreaterThan(0);
  expect(visualStep(r)).toMatchObject({
    result: 'failed',
    visual: {
      outcome: 'different',
      diffPixels: pixels,
      attachments: { expected: 'home-expected.png', actual: 'home-actual.png', diff: 'home-diff.png' },
    },
  });
});

test('mask hides a region whose content changes between runs; without it the same change fails', () => {
  expect(facts.maskedPink).toBeGreaterThan(1000);
  expect(second.result('masked').error).toBe('');
  expect(second.result('unmasked').status).toBe('failed');
  expect(plain(second.result('unmasked').error)).toContain('pixels (ratio');
});

test('maxDiffPixels tolerates a small change and not a large one', () => {
  expect(second.result('tolerant').error).toBe('');
  const r = large.result('tolerant');
  expect(r.status).toBe('failed');
  const pixels = Number(/(\d+) pixels \(ratio/.exec(plain(r.error))![1]);
  expect(pixels).toBeGreaterThan(3000);
});

test("a locator's picture is its one node: the button alone", () => {
  expect(plain(first.result('button').error)).toContain("A snapshot doesn't exist at");
  // The node's bounds, not the screen.
  expect(facts.search.width).toBeLessThan(400);
  expect(facts.search.height).toBeLessThan(400);
  expect(facts.search.width * facts.search.height).toBeGreaterThan(1000);
  expect(second.result('button').error).toBe('');
});

test('a screen that keeps animating fails as unstable, not with a diff, and writes no baseline', () => {
  const allowed = first.result('spinner allowed');
  expect(allowed.status).toBe('failed');
  expect(plain(allowed.error)).toContain('Failed to take two consecutive stable screenshots.');
  expect(plain(allowed.error)).not.toContain("A snapshot doesn't exist");
  expect(attachments(allowed)).toEqual(['checking-actual.png', 'checking-diff.png', 'checking-previous.png']);
  const disabled = first.result('spinner disabled');
  expect(disabled.status).toBe('failed');
  expect(plain(disabled.error)).toContain('The screen never settled: the device still reported it busy');
  expect(facts.checkingWritten).toEqual([false, false]);
});

test('--update-snapshots rewrites a changed baseline; none refuses to write a missing one', () => {
  expect(plain(none.result('update: home').error)).toContain(
    `A snapshot doesn't exist at ${baselineOf(dir, 'update', 'home')}.`,
  );
  expect(facts.updateAfterNone).toBe(false);
  expect(plain(first.result('update: home').error)).toContain("A snapshot doesn't exist");
  expect(updated.result('update: home').error).toBe('');
  expect(facts.updateRewritten).toBe(true);
  expect(second.result('update: home').error).toBe('');
});

test("two devices keep their baselines apart: a simulator standing in for a Pixel 8 never compares with the plain simulator's", () => {
  expect(plain(second.result('devices: home').error)).toContain(
    `A snapshot doesn't exist at ${baselineOf(dir, 'devices', 'home', PIXEL)}, writing actual.`,
  );
  expect(facts.simBaselineBesidePixel).toBe(true);
  expect(large.result('devices: home').error).toBe('');
  expect(last.result('devices: home').error).toBe('');
});

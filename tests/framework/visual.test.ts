import { expect, test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { startSimServer } from '../../device-runtime/sim/index.js';
import { plain, ROOT, runInline, type InlineResult } from './inline.js';

/**
 * toHaveScreenshot on the simulator, through the real runner: each test writes a spec into a
 * directory kept between its runs (the baselines live there) and runs Playwright on it twice or
 * more, as a user would (first run writes, the next compares).
 */
const SIM = 'sim-1080x2400-420dpi';
// A loaded machine can take seconds per picture: the assertions get room (speed is the bench's).
const ROOMY = 'expect: { timeout: 20_000 },';

// Each worker removes only the directories its own tests made: in parallel mode another worker
// may still be running in its own (removing the parent pulled specs from under a running test).
const made: string[] = [];
function workDir(): string {
  const dir = path.join(ROOT, 'test-results', 'inline-visual', randomUUID().slice(0, 8));
  made.push(dir);
  return dir;
}

const baselineOf = (dir: string, name: string, platform = SIM) =>
  path.join(dir, 'visual.spec.ts-snapshots', `${name}-${platform}.png`);
const attachments = (r: InlineResult) =>
  r.attachments
    .map((a) => a.name)
    .filter((n) => n.endsWith('.png'))
    .sort();

// Settings, the system app: no APK needed. CHANGE turns Bluetooth on first (its summary on the home screen changes).
const HOME = `import { test, expect } from 'nestwright';
test.use({ apk: 'com.android.settings' });
async function maybeChange(app: any) {
  if (!process.env.CHANGE) return;
  await app.getByText('Connected devices').tap();
  await app.getByRole('switch', { name: 'Use Bluetooth' }).tap();
  await app.press('back');
}
`;

test.describe.configure({ mode: 'parallel' });
test.afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

test("a missing baseline is written on the first run (Playwright's message) and matched on the second", async () => {
  test.setTimeout(400_000);
  const dir = workDir();
  const spec = `${HOME}
test('home', async ({ app }) => {
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png');
});`;
  const first = await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY });
  const r1 = first.result('home');
  expect(r1.status).toBe('failed');
  expect(plain(r1.error)).toContain(`A snapshot doesn't exist at ${baselineOf(dir, 'home')}, writing actual.`);
  expect(attachments(r1)).toEqual(['home-actual.png', 'home-expected.png']);
  const png = PNG.sync.read(readFileSync(baselineOf(dir, 'home')));
  expect([png.width, png.height]).toEqual([1080, 2400]);

  const second = await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY });
  expect(second.result('home').error).toBe('');
  expect(second.result('home').status).toBe('passed');
  // The trajectory step records the comparison.
  const trajectory = JSON.parse(
    Buffer.from(
      second.result('home').attachments.find((a) => a.name === 'nestwright-trajectory')!.body!,
      'base64',
    ).toString(),
  );
  const step = trajectory.steps.find((s: any) => s.api === 'expect.toHaveScreenshot');
  expect(step.visual).toMatchObject({
    name: 'home.png',
    outcome: 'matched',
    threshold: 0.2,
    diffPixels: 0,
    excluded: ['status_bar', 'navigation_bar'],
    size: { width: 1080, height: 2400 },
  });
});

test('a changed screen fails with the expected, actual and diff pictures and the differing pixels', async () => {
  test.setTimeout(400_000);
  const dir = workDir();
  const spec = `${HOME}
test('home', async ({ app }) => {
  await maybeChange(app);
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png');
});`;
  await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY });
  const run = await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY, env: { CHANGE: '1' } });
  const r = run.result('home');
  expect(r.status).toBe('failed');
  const message = plain(r.error);
  expect(message).toContain('expect(app).toHaveScreenshot("home.png") failed');
  expect(message).toMatch(/\d+ pixels \(ratio 0\.\d\d of all image pixels\) are different\./);
  expect(message).toContain('Snapshot: home.png');
  expect(attachments(r)).toEqual(['home-actual.png', 'home-diff.png', 'home-expected.png']);
  const trajectory = JSON.parse(
    Buffer.from(r.attachments.find((a) => a.name === 'nestwright-trajectory')!.body!, 'base64').toString(),
  );
  const step = trajectory.steps.find((s: any) => s.api === 'expect.toHaveScreenshot');
  const pixels = Number(/(\d+) pixels/.exec(message)![1]);
  expect(pixels).toBeGreaterThan(0);
  expect(step).toMatchObject({
    result: 'failed',
    visual: {
      outcome: 'different',
      diffPixels: pixels,
      attachments: { expected: 'home-expected.png', actual: 'home-actual.png', diff: 'home-diff.png' },
    },
  });
});

test('mask hides a region whose content changes between runs; without it the same change fails', async () => {
  test.setTimeout(400_000);
  const dir = workDir();
  const spec = `${HOME}
test('masked', async ({ app }) => {
  await maybeChange(app);
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('masked.png', { mask: [app.getByText(/^Bluetooth (on|off)$/)] });
});
test('unmasked', async ({ app }) => {
  await maybeChange(app);
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('unmasked.png');
});`;
  await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY });
  // The mask is painted in Playwright's pink, in the baseline too.
  const masked = PNG.sync.read(readFileSync(baselineOf(dir, 'masked')));
  const pinkPixels = Array.from({ length: masked.width * masked.height }, (_, i) => i).filter(
    (i) => masked.data[i * 4] === 255 && masked.data[i * 4 + 1] === 0 && masked.data[i * 4 + 2] === 255,
  ).length;
  expect(pinkPixels).toBeGreaterThan(1000);
  const run = await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY, env: { CHANGE: '1' } });
  expect(run.result('masked').error).toBe('');
  expect(run.result('unmasked').status).toBe('failed');
  expect(plain(run.result('unmasked').error)).toContain('pixels (ratio');
});

test('maxDiffPixels tolerates a small change and not a large one', async () => {
  test.setTimeout(400_000);
  const dir = workDir();
  const spec = `${HOME}
test('tolerant', async ({ app }) => {
  await maybeChange(app);
  if (process.env.LARGE) await app.getByText('About phone').tap();
  await expect(app.getByText(process.env.LARGE ? 'Build number' : 'Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png', { maxDiffPixels: 3000 });
});`;
  await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY });
  const small = await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY, env: { CHANGE: '1' } });
  expect(small.result('tolerant').error).toBe('');
  const large = await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY, env: { LARGE: '1' } });
  expect(large.result('tolerant').status).toBe('failed');
  const pixels = Number(/(\d+) pixels \(ratio/.exec(plain(large.result('tolerant').error))![1]);
  expect(pixels).toBeGreaterThan(3000);
});

test("a locator's picture is its one node: the button alone", async () => {
  test.setTimeout(400_000);
  const dir = workDir();
  const spec = `${HOME}
test('button', async ({ app }) => {
  const search = app.getByDesc('Search settings');
  await expect(search).toHaveScreenshot('search.png');
});`;
  const first = await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY });
  expect(plain(first.result('button').error)).toContain("A snapshot doesn't exist at");
  const png = PNG.sync.read(readFileSync(baselineOf(dir, 'search')));
  // The node's bounds, not the screen.
  expect(png.width).toBeLessThan(400);
  expect(png.height).toBeLessThan(400);
  expect(png.width * png.height).toBeGreaterThan(1000);
  const second = await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY });
  expect(second.result('button').error).toBe('');
});

test('a screen that keeps animating fails as unstable, not with a diff, and writes no baseline', async () => {
  test.setTimeout(400_000);
  const dir = workDir();
  const spec = `${HOME}
test('spinner allowed', async ({ app }) => {
  await app.getByText('About phone').tap();
  await app.getByText('System update').tap();
  await expect(app).toHaveScreenshot('checking.png', { animations: 'allow', timeout: 6_000 });
});
test('spinner disabled', async ({ app }) => {
  await app.getByText('About phone').tap();
  await app.getByText('System update').tap();
  await expect(app).toHaveScreenshot('checking-idle.png', { timeout: 4_000 });
});`;
  const run = await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY });
  const allowed = run.result('spinner allowed');
  expect(allowed.status).toBe('failed');
  expect(plain(allowed.error)).toContain('Failed to take two consecutive stable screenshots.');
  expect(plain(allowed.error)).not.toContain("A snapshot doesn't exist");
  expect(attachments(allowed)).toEqual(['checking-actual.png', 'checking-diff.png', 'checking-previous.png']);
  const disabled = run.result('spinner disabled');
  expect(disabled.status).toBe('failed');
  expect(plain(disabled.error)).toContain('The screen never settled: the device still reported it busy');
  expect(existsSync(baselineOf(dir, 'checking'))).toBe(false);
  expect(existsSync(baselineOf(dir, 'checking-idle'))).toBe(false);
});

test('--update-snapshots rewrites a changed baseline; none refuses to write a missing one', async () => {
  test.setTimeout(500_000);
  const dir = workDir();
  const spec = `${HOME}
test('home', async ({ app }) => {
  await maybeChange(app);
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png');
});`;
  const none = await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY, args: ['--update-snapshots=none'] });
  expect(plain(none.result('home').error)).toContain(`A snapshot doesn't exist at ${baselineOf(dir, 'home')}.`);
  expect(existsSync(baselineOf(dir, 'home'))).toBe(false);
  await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY });
  const before = readFileSync(baselineOf(dir, 'home'));
  const updated = await runInline(
    { 'visual.spec.ts': spec },
    { dir, config: ROOMY, env: { CHANGE: '1' }, args: ['--update-snapshots'] },
  );
  expect(updated.result('home').error).toBe('');
  expect(readFileSync(baselineOf(dir, 'home')).equals(before)).toBe(false);
  const after = await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY, env: { CHANGE: '1' } });
  expect(after.result('home').error).toBe('');
});

test("two devices keep their baselines apart: a simulator standing in for a Pixel 8 never compares with the plain simulator's", async () => {
  test.setTimeout(500_000);
  const dir = workDir();
  const pixel = await startSimServer({ model: 'Pixel 8' });
  try {
    const spec = `${HOME}
test('home', async ({ app }) => {
  await maybeChange(app);
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png');
});`;
    const onPixel = `deviceOptions: { provider: 'sim', url: ${JSON.stringify(pixel.url)}, token: ${JSON.stringify(pixel.token)} },`;
    await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY });
    // The other device with another screen state: no diff against the first one's baseline, its own is written.
    const first = await runInline(
      { 'visual.spec.ts': spec },
      { dir, config: ROOMY, use: onPixel, env: { CHANGE: '1' } },
    );
    expect(plain(first.result('home').error)).toContain(
      `A snapshot doesn't exist at ${baselineOf(dir, 'home', 'sim-pixel-8-1080x2400-420dpi')}, writing actual.`,
    );
    expect(existsSync(baselineOf(dir, 'home'))).toBe(true);
    const again = await runInline(
      { 'visual.spec.ts': spec },
      { dir, config: ROOMY, use: onPixel, env: { CHANGE: '1' } },
    );
    expect(again.result('home').error).toBe('');
    const sim = await runInline({ 'visual.spec.ts': spec }, { dir, config: ROOMY });
    expect(sim.result('home').error).toBe('');
  } finally {
    await pixel.close();
  }
});

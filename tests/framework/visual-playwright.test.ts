import { expect, test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { SimRuntime } from '../../device-runtime/sim/runtime.js';
import { compareImages } from '../../framework/visual/compare.js';
import { Picture } from '../../framework/visual/picture.js';
import { plain, ROOT, runInline, type InlineRun } from './inline.js';
import { sharedBatch } from './shared-batch.js';

/**
 * The config's `expect.toHaveScreenshot` defaults, ported from Playwright's own tests
 * (tests/playwright-test/to-have-screenshot.spec.ts, golden.spec.ts): the top level's, a
 * project's, and a call's over both. One child run holds every case: each project of its
 * config is one case, running `pixels.spec.ts` (the Settings home against a baseline with a
 * black block painted on it, so it differs by COUNT pixels) or `spinner.spec.ts` (a screen
 * that never stops moving). As in Playwright, a project's `expect` replaces the top level's.
 */
const SPECS = {
  'pixels.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'com.android.settings' });
test('pixels', async ({ app }) => {
  await expect(app.getByText('Network & internet')).toBeVisible();
  const call = test.info().project.name === 'call-over-project' ? { maxDiffPixels: 0 } : {};
  await expect(app).toHaveScreenshot('pixels.png', call);
});`,
  'spinner.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'com.android.settings' });
test('spinner', async ({ app }) => {
  await app.getByText('About phone').tap();
  await app.getByText('System update').tap();
  const call = test.info().project.name === 'timeout-call' ? { timeout: 3_000 } : {};
  await expect(app).toHaveScreenshot('checking.png', call);
});`,
};

const CONFIG = (count: number) => `
  snapshotPathTemplate: '{testDir}/__screenshots__/{arg}{ext}',
  expect: { timeout: 20_000, toHaveScreenshot: { maxDiffPixels: ${count} } },
  projects: [
    { name: 'top-level', testMatch: 'pixels.spec.ts' },
    { name: 'project-ratio', testMatch: 'pixels.spec.ts', expect: { timeout: 20_000, toHaveScreenshot: { maxDiffPixelRatio: ${(count + 1) / (1080 * 2400)} } } },
    { name: 'project-threshold', testMatch: 'pixels.spec.ts', expect: { timeout: 20_000, toHaveScreenshot: { threshold: 0.99 } } },
    { name: 'project-replaces-top-level', testMatch: 'pixels.spec.ts', expect: { timeout: 20_000 } },
    { name: 'call-over-project', testMatch: 'pixels.spec.ts', expect: { timeout: 20_000, toHaveScreenshot: { maxDiffPixels: ${count} } } },
    { name: 'timeout-config', testMatch: 'spinner.spec.ts', expect: { timeout: 20_000, toHaveScreenshot: { animations: 'allow', timeout: 3_000 } } },
    { name: 'timeout-call', testMatch: 'spinner.spec.ts', expect: { timeout: 20_000, toHaveScreenshot: { animations: 'allow', timeout: 60_000 } } },
    { name: 'animations-default', testMatch: 'spinner.spec.ts', expect: { timeout: 20_000, toHaveScreenshot: { timeout: 3_000 } } },
  ],`;

/** The Settings home as the simulator draws it, with a black block where the list is. */
async function baseline(): Promise<{ png: Buffer; count: number }> {
  const rt = new SimRuntime({});
  const call = async (name: string, args: object): Promise<any> => {
    const r = await rt.call(name, args, { sessionId: 'baseline', caller: 'REMOTE_MCP' });
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
    return r.result;
  };
  try {
    const { space_id } = await call('space_create', {});
    await call('session_acquire', { space_id });
    await call('space_launch', { space_id, package: 'com.android.settings' });
    const screen = Buffer.from((await call('ui_screenshot', { space_id, scale: 1 })).data, 'base64');
    const block = await sharp({ create: { width: 12, height: 10, channels: 3, background: '#000000' } })
      .png()
      .toBuffer();
    const png = await sharp(screen)
      .composite([{ input: block, left: 480, top: 1300 }])
      .png()
      .toBuffer();
    const { diffPixels } = await compareImages(Picture.fromPng(screen), Picture.fromPng(png), { maxDiffPixels: 1e9 });
    return { png, count: diffPixels };
  } finally {
    rt.close();
  }
}

test.describe.configure({ mode: 'default' });

let run: InlineRun;
let count: number;
const of = (project: string, title: string) => {
  const r = run.results.find((x) => x.title === title && (x as { project?: string }).project === project);
  if (!r) throw new Error(`no ${project} › ${title} in the run`);
  return { ...r, error: plain(r.error) };
};

test.beforeAll(async () => {
  test.setTimeout(600_000);
  ({ run, count } = await sharedBatch('visual-playwright', async () => {
    const dir = path.join(ROOT, 'test-results', 'inline-visual-pw', randomUUID().slice(0, 8));
    try {
      const { png, count } = await baseline();
      mkdirSync(path.join(dir, '__screenshots__'), { recursive: true });
      writeFileSync(path.join(dir, '__screenshots__', 'pixels.png'), png);
      const run = await runInline(SPECS, { dir, config: CONFIG(count) });
      // Which project each result is of: the JSON report names it per test.
      const projects: string[] = [];
      const walk = (suite: any) => {
        for (const s of suite.suites ?? []) walk(s);
        for (const spec of suite.specs ?? []) for (const t of spec.tests ?? []) projects.push(t.projectName);
      };
      for (const s of (run.raw as any).suites ?? []) walk(s);
      run.results.forEach((r, i) => Object.assign(r, { project: projects[i] }));
      return { run, count };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }));
});

test('the painted block differs by a known count of pixels', () => {
  expect(count).toBe(12 * 10);
});

test('the top level maxDiffPixels applies to a project without its own expect (to-have-screenshot.spec.ts: should respect maxDiffPixels option)', () => {
  expect(of('top-level', 'pixels').error).toBe('');
});

test("a project's maxDiffPixelRatio applies (to-have-screenshot.spec.ts: should respect maxDiffPixelRatio option)", () => {
  expect(of('project-ratio', 'pixels').error).toBe('');
});

test("a project's threshold applies (golden.spec.ts: should respect project threshold)", () => {
  expect(of('project-threshold', 'pixels').error).toBe('');
});

test("a project's expect replaces the top level's, so its default applies there (to-have-screenshot.spec.ts: should respect comparator in config)", () => {
  const r = of('project-replaces-top-level', 'pixels');
  expect(r.status).toBe('failed');
  expect(r.error).toContain(`${count} pixels (ratio 0.01 of all image pixels) are different.`);
});

test("a call's option overrides the project's (to-have-screenshot.spec.ts: should let toHaveScreenshot call options override config timeout)", () => {
  const r = of('call-over-project', 'pixels');
  expect(r.status).toBe('failed');
  expect(r.error).toContain(`${count} pixels (ratio 0.01 of all image pixels) are different.`);
});

test("the config's timeout and animations apply (to-have-screenshot.spec.ts: should respect toHaveScreenshot timeout from config; expect config animations option: allow)", () => {
  const r = of('timeout-config', 'spinner');
  expect(r.status).toBe('failed');
  expect(r.error).toContain('Failed to take two consecutive stable screenshots.');
  expect(r.error).toContain('Timeout: 3000ms');
  expect(r.error).toContain('expect.toHaveScreenshot with timeout 3000ms');
});

test("a call's timeout overrides the config's (to-have-screenshot.spec.ts: should let toHaveScreenshot call options override config timeout)", () => {
  const r = of('timeout-call', 'spinner');
  expect(r.status).toBe('failed');
  // The config's animations: 'allow' still holds: option by option, the call's win.
  expect(r.error).toContain('Failed to take two consecutive stable screenshots.');
  expect(r.error).toContain('Timeout: 3000ms');
  expect(r.error).toContain('expect.toHaveScreenshot with timeout 3000ms');
});

test("without animations in the config the default 'disabled' waits for the screen to settle (to-have-screenshot.spec.ts: expect config animations option: disabled)", () => {
  const r = of('animations-default', 'spinner');
  expect(r.status).toBe('failed');
  expect(r.error).toContain('The screen never settled');
  expect(r.error).toContain('Timeout: 3000ms');
});

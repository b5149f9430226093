import { test, expect, type Browser, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { runWithAllure } from '../reporters/run-inline.js';
import { makeProject, nestwrightBin, NOTES_APK, ROOT } from '../mcp-agent/helpers.js';
import { HAVE_CHROMIUM, launch, startCommand } from './helpers.js';

test.describe.configure({ timeout: 240_000 });
test.skip(
  !HAVE_CHROMIUM,
  "/usr/bin/chromium is absent: this test drives the trace viewer in Debian's chromium (apt-get install chromium; CI installs it)",
);

const SPEC = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', screenshot: 'on' });
test('saves a note, then looks for one that is not there', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Buy milk');
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Buy eggs')).toBeVisible();
});
`;

let browser: Browser;
test.beforeAll(async () => (browser = await launch()));
/** One child run of both specs below (a trace each), made on first use and shared by the tests that read them. */
let traces: ReturnType<typeof runWithAllure> | undefined;
const traceOf = async (title: string) => {
  traces ??= runWithAllure({ 'notes.spec.ts': SPEC, 'visual.spec.ts': VISUAL }, { nestwright: true });
  const run = await traces;
  return { run, result: run.result(title) };
};
test.afterAll(async () => browser?.close());

test("the trace viewer steps through a failing test's steps, with their screenshots, locators and error", async () => {
  const { run, result } = await traceOf('saves a note, then looks for one that is not there');
  expect(run.exitCode, run.output).toBe(1);
  const file = path.join(run.resultsDir, `${result.uuid}-result.json`);
  const viewer = await startCommand(['show-trace', file], run.dir);
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(20_000);
  try {
    await page.goto(viewer.url);
    const steps = page.getByTestId('steps').locator('li');
    await expect(steps.filter({ hasText: "Tap text='New note'" })).toHaveCount(1);
    // It opens on the failing step: the assertion, its error and the screen it saw.
    const step = page.getByTestId('step');
    await expect(step).toContainText('Buy eggs');
    await expect(step.locator('.err')).toContainText('toBeVisible');
    // Down the list with the keyboard, and back to the first step, with its screenshot.
    await steps.filter({ hasText: "Tap text='New note'" }).click();
    await expect(step).toContainText('selector: text=');
    await expect(step).toContainText('node: button "New note"');
    await expect(step.locator('img').first()).toHaveAttribute('src', /^data:image\/png;base64,/);
    await page.keyboard.press('ArrowDown');
    await expect(step).toContainText('Buy milk');
  } finally {
    await page.close();
    viewer.child.kill('SIGTERM');
  }
});

const VISUAL = `import { test, expect } from 'nestwright';
test.use({ apk: 'com.android.settings' });
test('the home screen, then the same name on another screen', async ({ app }) => {
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png', { timeout: 20_000 }); // no baseline: written (a soft failure)
  await app.getByText('About phone').tap();
  await expect(app.getByText('Build number')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png', { timeout: 20_000 });
});
`;

test('the trace viewer shows a failed visual comparison: expected, actual and diff side by side', async () => {
  const { run, result } = await traceOf('the home screen, then the same name on another screen');
  expect(run.exitCode, run.output).toBe(1);
  const file = path.join(run.resultsDir, `${result.uuid}-result.json`);
  const viewer = await startCommand(['show-trace', file], run.dir);
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(20_000);
  try {
    await page.goto(viewer.url);
    const comparison = page.getByTestId('step').getByTestId('comparison');
    await expect(comparison).toContainText(/comparison: different: \d+ pixels differ/);
    await expect(comparison.locator('figcaption')).toHaveText(['expected', 'actual', 'diff']);
    await expect(comparison.locator('img').first()).toHaveAttribute('src', /^data:image\/png;base64,/);
  } finally {
    await page.close();
    viewer.child.kill('SIGTERM');
  }
});

test('show-trace refuses what is not a trace, with exit code 2 and what it expected', async () => {
  const dir = path.join(ROOT, 'test-results');
  const bogus = path.join(dir, 'not-a-trace.json');
  await writeFile(bogus, '{"hello": 1}');
  const BIN = await nestwrightBin();
  const r = spawnSync(process.execPath, [BIN, 'show-trace', bogus, '--no-open'], { encoding: 'utf8' });
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('neither a nestwright trajectory');
  const missing = spawnSync(process.execPath, [BIN, 'show-trace', 'nope.json', '--no-open'], { encoding: 'utf8' });
  expect(missing.status).toBe(2);
  expect(missing.stderr).toContain('no such file');
  const codegen = spawnSync(process.execPath, [BIN, 'codegen', '--no-open'], { encoding: 'utf8' });
  expect(codegen.status).toBe(2);
  expect(codegen.stderr).toContain('give one of --app path.apk or --package P');
});

/** The live inspector's controls, by role and name: none of them belongs on a trace. */
const LIVE_CONTROLS = [
  ['radio', 'Pick'],
  ['radio', 'Tap'],
  ['radio', 'Fill'],
  ['button', '◀ Back'],
  ['button', 'Undo'],
  ['button', 'Save'],
  ['button', 'Reconnect'],
  ['heading', /^Recording\b/], // its name holds its Undo button's
  ['img', 'the device screen'],
] as const;

/** Every img on the page that has no picture (not loaded, or loaded as nothing): by alt text or address. */
const brokenImages = (page: Page) =>
  page.$$eval('img', (imgs) =>
    imgs.filter((i) => !(i.complete && i.naturalWidth > 0)).map((i) => i.alt || i.src.slice(0, 60) || '(no src)'),
  );

test('the trace viewer is read-only: no live controls, no picture of a device, no broken image; the live inspector keeps them', async () => {
  // A trajectory file as a test run saves it, with its screenshot beside it.
  const dir = path.join(ROOT, 'test-results', 'show-trace-read-only');
  await mkdir(dir, { recursive: true });
  const png = new PNG({ width: 36, height: 64 });
  png.data.fill(0x80);
  await writeFile(path.join(dir, 'after.png'), PNG.sync.write(png));
  const file = path.join(dir, 'trajectory.json');
  await writeFile(
    file,
    JSON.stringify({
      version: 1,
      steps: [
        {
          title: "Tap text='New note'",
          result: 'passed',
          selector: 'text="New note"',
          durationMs: 12,
          screenshots: { after: 'after.png' },
        },
      ],
    }),
  );
  const viewer = await startCommand(['show-trace', file], dir);
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(20_000);
  try {
    await page.goto(viewer.url);
    await expect(page.getByTestId('step').getByRole('img', { name: 'screenshot after' })).toBeVisible();
    for (const [role, name] of LIVE_CONTROLS)
      await expect(page.getByRole(role, { name, exact: true, includeHidden: true }), `${role} "${name}"`).toHaveCount(
        0,
      );
    await expect(page.getByTestId('save-path')).toHaveCount(0); // the specs/recorded.spec.ts box
    expect(await brokenImages(page)).toEqual([]);
  } finally {
    await page.close();
    viewer.child.kill('SIGTERM');
  }

  const project = await makeProject({});
  const inspector = await startCommand(['codegen', '--app', NOTES_APK], project.dir);
  const live = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  live.setDefaultTimeout(20_000);
  try {
    await live.goto(inspector.url);
    await expect(live.locator('#tree li', { hasText: '"New note"' })).toBeVisible();
    // All but Reconnect, which shows only while the device is disconnected.
    for (const [role, name] of LIVE_CONTROLS.filter(([, name]) => name !== 'Reconnect'))
      await expect(live.getByRole(role, { name, exact: true }), `${role} "${name}"`).toBeVisible();
    await expect(live.getByTestId('save-path')).toHaveValue('specs/recorded.spec.ts');
    expect(await brokenImages(live)).toEqual([]);
  } finally {
    await live.close();
    inspector.child.kill('SIGTERM');
    await project.remove();
  }
});

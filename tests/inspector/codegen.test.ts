import { test, expect, type Browser } from '@playwright/test';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { childEnv } from '../inline-run.js';
import { makeProject, NOTES_APK, ROOT } from '../mcp-agent/helpers.js';
import { clickOnScreen, HAVE_CHROMIUM, launch, startCommand } from './helpers.js';

test.describe.configure({ timeout: 240_000 });
test.skip(
  !HAVE_CHROMIUM,
  "/usr/bin/chromium is absent: these tests drive the inspector in Debian's chromium (apt-get install chromium; CI installs it)",
);

let browser: Browser;
test.beforeAll(async () => (browser = await launch()));
test.afterAll(async () => browser?.close());

test('pick a node on the picture, read its best locator, record tap → fill → tap → assert, save, and the saved spec passes', async () => {
  const project = await makeProject({});
  const inspector = await startCommand(['codegen', '--app', NOTES_APK], project.dir);
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(20_000);
  try {
    await page.goto(inspector.url);
    await expect(page.locator('#tree li', { hasText: '"New note"' })).toBeVisible();

    // Pick: the node's fields and its ranked locators, the best one strict-safe.
    await clickOnScreen(page, '"New note"');
    await expect(page.getByTestId('picked')).toContainText('new_note');
    const best = page.getByTestId('locators').locator('li').first();
    await expect(best).toContainText("app.getById('new_note')");
    await expect(best).toContainText('strict-safe');

    // The locator box: matches highlighted, with the strict-mode verdict.
    await page.getByTestId('locator-box').fill("getByRole('button')");
    await expect(page.getByTestId('verdict')).toContainText('strict mode violation');
    await page.getByTestId('locator-box').fill('text="New note"');
    await expect(page.getByTestId('verdict')).toHaveText('unique: strict-safe');
    await expect(page.locator('#overlay .box.match')).toHaveCount(1);
    await page.getByTestId('locator-box').fill('');

    // Record: tap, fill, tap on the picture; then an assertion on a picked node.
    await page.getByLabel('Tap').check();
    await clickOnScreen(page, '"New note"');
    await expect(page.locator('#tree li', { hasText: 'id=title' })).toBeVisible();
    await page.getByTestId('fill-value').fill('Buy milk');
    await page.getByLabel('Fill').check();
    await clickOnScreen(page, 'id=title');
    await expect(page.getByTestId('code')).toContainText("fill('Buy milk')");
    await page.getByLabel('Tap').check();
    await clickOnScreen(page, '"Save"');
    await expect(page.getByTestId('code')).toContainText("getById('save').tap()");
    await expect(page.locator('#where')).toContainText('.MainActivity');
    // Picking works from the list too: the assertion goes on the new row.
    await page.locator('#tree li', { hasText: '"Buy milk"' }).first().click();
    await expect(page.getByTestId('picked')).toContainText('Buy milk');
    await page.getByTestId('assert-visible').click();
    const code = page.getByTestId('code');
    await expect(code).toContainText("await app.getById('new_note').tap();");
    await expect(code).toContainText('toBeVisible()');

    // Bad path: refused, nothing written; then the right one.
    await page.getByTestId('save-path').fill('../outside.spec.ts');
    await page.getByTestId('save').click();
    await expect(page.getByTestId('saved')).toContainText('PATH_NOT_ALLOWED');
    await page.getByTestId('save-path').fill('specs/recorded.spec.ts');
    await page.getByTestId('save').click();
    await expect(page.getByTestId('saved')).toHaveText('saved specs/recorded.spec.ts');
    const saved = await readFile(path.join(project.dir, 'specs/recorded.spec.ts'), 'utf8');
    expect(saved).toContain("import { test, expect } from 'nestwright';");

    // The saved spec, unchanged, passes on its first run.
    const run = spawn(
      process.execPath,
      [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', project.dir, '--reporter=line'],
      { cwd: project.dir, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    run.stdout.setEncoding('utf8');
    run.stdout.on('data', (d) => (out += d));
    run.stderr.setEncoding('utf8');
    run.stderr.on('data', (d) => (out += d));
    expect(await new Promise((r) => run.on('close', r)), `${saved}\n${out}`).toBe(0);
    expect(out).toContain('1 passed');
  } finally {
    await page.close();
    inspector.child.kill('SIGTERM');
    await project.remove();
  }
});

test('a wrong token is refused; when the device goes away the page says so and offers to reconnect', async () => {
  const project = await makeProject({});
  const simChild = spawn(
    process.execPath,
    [path.join(ROOT, 'bin/nestwright.js'), 'sim', '--port', '0', '--ephemeral', '--print-token'],
    { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let simOut = '';
  simChild.stdout.setEncoding('utf8');
  simChild.stdout.on('data', (d) => (simOut += d));
  await expect.poll(() => simOut, { timeout: 60_000 }).toContain('token: ');
  const simUrl = /listening on (\S+)/.exec(simOut)![1]!;
  const token = /token: (\S+)/.exec(simOut)![1]!;
  const inspector = await startCommand(
    ['codegen', '--package', 'com.android.settings', '--device', simUrl],
    project.dir,
    { NESTSPACE_TOKEN: token },
  );
  const page = await browser.newPage();
  page.setDefaultTimeout(20_000);
  try {
    const wrong = await page.goto(inspector.url.replace(/token=.*/, 'token=nope'));
    expect(wrong!.status()).toBe(403);
    await expect(page.locator('body')).toContainText('wrong or missing token');
    const api = await fetch(new URL('/api/screen', inspector.url));
    expect(api.status).toBe(401);

    await page.goto(inspector.url);
    await expect(page.locator('#tree li').first()).toBeVisible();
    await expect(page.getByTestId('banner')).toBeHidden();
    simChild.kill('SIGKILL');
    await expect(page.getByTestId('banner')).toContainText('Device disconnected');
    await expect(page.getByTestId('reconnect')).toBeVisible();
    await page.getByTestId('reconnect').click();
    await expect(page.getByTestId('banner')).toContainText('Device disconnected');
  } finally {
    await page.close();
    simChild.kill('SIGKILL');
    inspector.child.kill('SIGTERM');
    await project.remove();
  }
});

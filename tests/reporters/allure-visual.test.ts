import { test, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { flatSteps, runWithAllure } from './run-inline.js';

// One test: the first call writes the baseline (a soft failure), the second, on another screen, differs from it.
const SPEC = `import { test, expect } from 'nestwright';
test.use({ apk: 'com.android.settings' });
test('the home screen, then the same name on another screen', async ({ app }) => {
  await expect(app.getByText('Network & internet')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png', { timeout: 20_000 });
  await app.getByText('About phone').tap();
  await expect(app.getByText('Build number')).toBeVisible();
  await expect(app).toHaveScreenshot('home.png', { timeout: 20_000 });
});
`;

test('a failed visual comparison shows expected, actual and diff on its step in Allure, with the pixels differing', async () => {
  test.setTimeout(300_000);
  const run = await runWithAllure({ 'visual.spec.ts': SPEC }, { nestwright: true });
  expect(run.exitCode, run.output).toBe(1);
  const r = run.results[0];
  const steps = flatSteps(r).map(({ step }) => step);
  const failing = steps
    .filter((s: any) => s.name === 'Expect toHaveScreenshot(home.png)' && s.status === 'failed')
    .pop();
  expect(failing, JSON.stringify(steps.map((s: any) => s.name))).toBeTruthy();
  expect(failing.attachments.map((a: any) => a.name)).toEqual([
    'screenshot diff',
    'expected',
    'actual',
    'diff',
    'error',
  ]);
  const diffView = failing.attachments[0];
  expect(diffView.type).toBe('application/vnd.allure.image.diff');
  const body = JSON.parse(await readFile(path.join(run.resultsDir, diffView.source), 'utf8'));
  for (const k of ['expected', 'actual', 'diff']) expect(body[k]).toMatch(/^data:image\/png;base64,/);
  const comparison = failing.parameters.find((p: any) => p.name === 'comparison')?.value;
  expect(comparison).toMatch(/^different: \d+ pixels differ/);
  expect(failing.parameters.find((p: any) => p.name === 'left out')?.value).toBe('status_bar, navigation_bar');
});

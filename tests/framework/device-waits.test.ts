import { test, expect } from '@playwright/test';
import { attachmentText, plain, runInline, type InlineRun } from './inline.js';

/**
 * `locator.scrollIntoView()` and the count waits of `expect` (toBeVisible, toBeHidden,
 * toHaveCount, and their `.not`) on both paths: with the `selector_actions` extension the device
 * scrolls or waits in one round trip (ui_scroll / ui_wait_for with the selector); with
 * `deviceActions: 'off'` the framework looks from here, a tool call per look. Same results, same
 * errors, and the trajectory says how many round trips each step took.
 */
test.describe.configure({ mode: 'default' });

const PATHS = ['auto', 'off'] as const;

const SPEC = (path: string) => `test.describe('${path}', () => {
  test.use({ deviceActions: '${path}' });
  test('scrolls', async ({ app }) => {
    await app.intent({ activity: '.MainActivity', extras: { sample_notes: 40 } });
    await app.getByText('Call 39', { exact: true }).scrollIntoView({ timeout: 30_000 });
    await expect(app.getByText('Call 39', { exact: true })).toBeVisible();
    await app.getByText('Ideas 2', { exact: true }).scrollIntoView({ timeout: 30_000 });
    await expect(app.getByText('Call 39', { exact: true })).toBeHidden();
  });
  test('waits', async ({ app }) => {
    await app.intent({ activity: '.MainActivity', extras: { sample_notes: 3 } });
    await expect(app.getByText('New note')).toBeVisible();
    await expect(app.getById('title')).toBeHidden();
    await expect(app.getById('title')).not.toBeVisible();
    await expect(app.getByText('New note')).not.toBeHidden();
    await app.getByText('New note').tap();
    // The editor comes up after the tap: the waits see it.
    await expect(app.getById('title')).toBeVisible();
    await expect(app.getByRole('button', { name: 'New note' })).toHaveCount(0);
    await expect(app.getById('title')).toHaveCount(1);
    await expect(app.getById('title')).not.toHaveCount(2);
  });
  test('errors', async ({ app }) => {
    await app.intent({ activity: '.MainActivity', extras: { sample_notes: 3 } });
    const e1 = await app.getByText('Nothing like this').scrollIntoView({ timeout: 300 }).catch((e) => e);
    expect(e1.code).toBe('TIMEOUT');
    expect(e1.message).toMatch(/^locator.scrollIntoView: timeout 300ms exceeded/);
    expect(e1.message).toContain('Call log:');
    expect(e1.message).toContain('Screen:');
    const e2 = await app.getByRole('button').scrollIntoView({ timeout: 300 }).catch((e) => e);
    expect(e2.code).toBe('STRICT_MODE_VIOLATION');
    expect(e2.message).toMatch(/^locator.scrollIntoView: /);
    const e3 = await expect(app.getByRole('button')).toBeVisible({ timeout: 300 }).catch((e) => e);
    expect(strip(e3.message)).toContain('nodes (strict mode: use .first() or a more specific locator)');
    const e4 = await expect(app.getByText('New note')).toBeHidden({ timeout: 300 }).catch((e) => e);
    expect(strip(e4.message)).toMatch(/Received: visible: button "New note"/);
    expect(strip(e4.message)).toContain('Timeout: 300ms');
    const e5 = await expect(app.getByText('Nothing like this')).toBeVisible({ timeout: 300 }).catch((e) => e);
    expect(strip(e5.message)).toContain('Received: not on screen');
    expect(strip(e5.message)).toContain('Screen:');
    const e6 = await expect(app.getById('note_row')).toHaveCount(7, { timeout: 300 }).catch((e) => e);
    expect(strip(e6.message)).toContain('Received: 3');
    const e7 = await Promise.resolve().then(() => app.locator('bogus=1')).catch((e) => e);
    expect(e7.code).toBe('USAGE');
  });
});`;

let run: InlineRun;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  run = await runInline(
    {
      'waits.spec.ts': `import { test, expect } from 'nestwright';\ntest.use({ apk: 'fixtures/apks/notes.apk' });\nconst strip = (s: string) => s.replace(/\\u001b\\[[0-9;]*m/g, '');\n${PATHS.map(SPEC).join('\n')}\n`,
    },
    { workers: 2 },
  );
});

type Step = { api: string; roundTrips?: number; error?: unknown };
const stepsOf = (title: string): Step[] =>
  JSON.parse(attachmentText(run.result(title).attachments.find((a) => a.name === 'nestwright-trajectory')!)).steps;
const WAITS = ['expect.toBeVisible', 'expect.toBeHidden', 'expect.toHaveCount'];

for (const path of PATHS) {
  for (const name of ['scrolls', 'waits', 'errors']) {
    test(`${path}: ${name} passes`, () => {
      const r = run.result(`${path} > ${name}`);
      expect(r.status, plain(r.error)).toBe('passed');
    });
  }
}

test('with the extension, scrollIntoView and every count wait take one round trip', () => {
  const steps = [...stepsOf('auto > scrolls'), ...stepsOf('auto > waits')].filter(
    (s) => s.api === 'locator.scrollIntoView' || WAITS.includes(s.api),
  );
  expect(steps.length).toBe(12);
  for (const s of steps) expect(s.roundTrips, s.api).toBe(1);
});

test('without it, the framework looks from here: a call per look and per scroll', () => {
  const scrolls = stepsOf('off > scrolls').filter((s) => s.api === 'locator.scrollIntoView');
  expect(scrolls).toHaveLength(2);
  // Down to row 39 and back up to row 2 take several scrolls and a look after each.
  for (const s of scrolls) expect(s.roundTrips).toBeGreaterThan(2);
  const waits = stepsOf('off > waits').filter((s) => WAITS.includes(s.api));
  expect(waits).toHaveLength(8);
  for (const s of waits) expect(s.roundTrips).toBeGreaterThanOrEqual(1);
});

test('the round trips per step, as the trajectory records them (for the closing note)', () => {
  const perApi = (title: string) =>
    stepsOf(title)
      .filter((s) => s.api === 'locator.scrollIntoView' || WAITS.includes(s.api))
      .map((s) => `${s.api}=${s.roundTrips}`)
      .join(' ');
  for (const path of PATHS)
    test.info().annotations.push({
      type: `round trips (${path})`,
      description: `${perApi(`${path} > scrolls`)} | ${perApi(`${path} > waits`)}`,
    });
});

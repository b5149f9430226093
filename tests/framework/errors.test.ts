import { test, expect } from '@playwright/test';
import { plain, runInline, type InlineRun } from './inline.js';

/**
 * Errors that say what happened (issue 11, items 6 and 7): a test timeout reports the timeout and
 * the step it cut short, not what clean-up does to the device afterwards; every nestwright error
 * has a `code`; a crash a test catches and carries on from still fails the test.
 */
test.describe.configure({ mode: 'default' });

let run: InlineRun;

const TIMEOUT_BODY = `async ({ app }) => {
  test.setTimeout(8_000); // launch included: long enough on a loaded machine to reach the tap
  await expect(app.getById('email')).toBeVisible();
  await app.getByText('Nothing like this').tap({ timeout: 60_000 });
}`;

/** Healing modes × where actions run, besides the default (heal 'suggest', device actions 'auto'). */
const HEAL_AND_PATHS = [
  ['suggest', 'off'],
  ['auto', 'auto'],
  ['off', 'off'],
] as const;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  run = await runInline(
    {
      'timeout.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk' });
test('a test timeout during a tap', ${TIMEOUT_BODY});
test('the worker goes on after it', async ({ app }) => {
  await expect(app.getById('email')).toBeVisible();
});
`,
      // The step's error must reach the report whatever the healing mode and wherever actions
      // wait (on the device in one call, or here between looks, where the timeout finds the body
      // asleep in its backoff rather than in a call).
      'timeout-modes.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk' });
${HEAL_AND_PATHS.map(
  ([heal, deviceActions]) => `test.describe('heal ${heal}, device actions ${deviceActions}', () => {
  test.use({ heal: '${heal}', deviceActions: '${deviceActions}' });
  test('a test timeout during a tap', ${TIMEOUT_BODY});
});`,
).join('\n')}
`,
      'own-device-timeout.spec.ts': `import { test, expect, devices } from 'nestwright';
// A simulator of this worker's own: it is shut down when the worker ends, right after the timeout.
test.use({ apk: 'fixtures/apks/shop.apk', deviceOptions: devices.sim({ slots: 2 }) });
test('a test timeout on a device that clean-up shuts down', ${TIMEOUT_BODY});
`,
      'codes.spec.ts': `import { test, expect, NestwrightError } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk' });
const codeOf = (p: Promise<unknown>) => p.then(() => 'no error', (e) => (e instanceof NestwrightError ? e.code : 'not a NestwrightError: ' + e));
test('every error has a code', async ({ app }) => {
  expect(await codeOf(app.getByText('Nothing like this').tap({ timeout: 200 }))).toBe('TIMEOUT');
  await app.launch({ activity: '.CatalogActivity' });
  // The catalog loads over the network: on a loaded machine, longer than the 2 s action timeout.
  await expect(app.getByRole('button', { name: 'Add to cart' }).first()).toBeVisible({ timeout: 20_000 });
  expect(await codeOf(app.getByRole('button', { name: 'Add to cart' }).tap())).toBe('STRICT_MODE_VIOLATION');
  expect(await codeOf(app.intent({ activity: '.NoSuchActivity' }))).toBe('INVALID_ARGUMENT');
  expect(await codeOf(Promise.resolve().then(() => app.locator('bogus=1')))).toBe('USAGE');
});
// Declared failing (its error is what is checked): Playwright keeps the worker for the next test.
test.fail('a crash caught and carried on from still fails the test', async ({ app }) => {
  await app.launch({ activity: '.CartActivity' });
  await app.getByRole('button', { name: 'Apply' }).tap().catch(() => {});
  // The test goes on as if nothing happened.
});
test('a crash checked on purpose passes', async ({ app }) => {
  await app.launch({ activity: '.CartActivity' });
  const e = await app.getByRole('button', { name: 'Apply' }).tap().catch((x) => x);
  expect(e.code).toBe('APP_CRASHED');
  expect(e.fatal).toBe(true);
  await expect(app).toHaveCrashed();
});
test('not.toHaveCrashed', async ({ app }) => {
  await expect(app).not.toHaveCrashed();
});
`,
    },
    // One worker: a second would cost its start-up (Playwright and nestwright loaded again) and check nothing more.
    { workers: 1 },
  );
});

const TIMEOUT_TITLES = [
  'a test timeout during a tap',
  'a test timeout on a device that clean-up shuts down',
  ...HEAL_AND_PATHS.map(
    ([heal, deviceActions]) => `heal ${heal}, device actions ${deviceActions} > a test timeout during a tap`,
  ),
];

for (const title of TIMEOUT_TITLES) {
  test(`timeout: ${title} reports the timeout and the step, nothing else`, () => {
    const r = run.result(title);
    expect(r.status).toBe('timedOut');
    const msg = plain(r.error);
    expect(msg).toContain('Test timeout of 8000ms exceeded.');
    expect(msg).toContain(
      "locator.tap: Test timeout of 8000ms exceeded. This step was running: Tap text='Nothing like this'",
    );
    expect(msg).toContain('Screen (last seen):');
    expect(msg).not.toMatch(/SPACE_NOT_FOUND|DeviceDisconnected|DEVICE_DISCONNECTED|Connection closed|went away/);
  });
}

test('the worker goes on after a timeout', () => {
  const r = run.result('the worker goes on after it');
  expect(r.status, r.error).toBe('passed');
});

test('every nestwright error has a code', () => {
  const r = run.result('every error has a code');
  expect(r.status, r.error).toBe('passed');
});

test('a caught crash fails the test at its end (CRASH_IGNORED)', () => {
  const r = run.result('a crash caught and carried on from still fails the test');
  expect(r.status).toBe('failed');
  const msg = plain(r.error);
  expect(msg).toContain('test: APP_CRASHED was raised (locator.tap: com.nestwright.shop@');
  expect(msg).toContain('the test carried on. A crash ends the test');
  expect(msg).toContain('expect(app).toHaveCrashed()');
});

test('expect(app).toHaveCrashed() checks a crash on purpose', () => {
  for (const title of ['a crash checked on purpose passes', 'not.toHaveCrashed']) {
    const r = run.result(title);
    expect(r.status, r.error).toBe('passed');
  }
});

import { test, expect } from '@playwright/test';
import { plain, runInline, type InlineRun } from './inline.js';

/**
 * Options and fixtures have different names (`apk` → `app`, `deviceOptions` → `device`), and
 * `test.use` is Playwright's own: a user's `test.extend()` of nestwright's `test` keeps every
 * option, and the old keys fail with OPTION_RENAMED naming the new one. That they are type errors
 * in TypeScript is checked by tsc on options.types.ts.
 */
test.describe.configure({ mode: 'default' });

let run: InlineRun;

// Tests meant to fail whose error is all that is checked are declared test.fail(): a test that
// fails unexpectedly makes Playwright start a new worker for the next one. 'old key in test.use,
// used' fails unexpectedly, as a user's would: its message's verdict tag comes only then.
test.beforeAll(async () => {
  test.setTimeout(180_000);
  run = await runInline(
    {
      'extended.spec.ts': `import { test as base, expect } from 'nestwright';
const test = base.extend<{ greeting: string }>({
  greeting: async ({ app }, use) => use('hello from ' + app.package),
});
test.use({ apk: 'fixtures/apks/shop.apk', trajectory: 'off' });
test('a user fixture beside test.use({ apk })', async ({ app, greeting }) => {
  expect(app.package).toBe('com.nestwright.shop');
  expect(greeting).toBe('hello from com.nestwright.shop');
  await expect(app.getByText('Sign in').first()).toBeVisible();
});
test.describe('per describe', () => {
  test.use({ apk: 'com.android.settings' });
  test('settings in the describe', async ({ app, greeting }) => {
    expect(greeting).toBe('hello from com.android.settings');
  });
});
`,
      'extended-device.spec.ts': `import { test as base, expect, devices } from 'nestwright';
const test = base.extend<{ slots: number }>({
  slots: async ({ device }, use) => use(device.provider === 'sim' ? device.slots ?? 0 : -1),
});
test.use({ apk: 'fixtures/apks/notes.apk', deviceOptions: devices.sim({ slots: 3 }) });
test('test.use({ deviceOptions }) through a user extend', async ({ app, slots }) => {
  expect(slots).toBe(3);
  await expect(app.getByText('New note')).toBeVisible();
});
`,
      'legacy-app.spec.ts': `import { test, expect } from 'nestwright';
test.use({ app: 'fixtures/apks/notes.apk' });
test('old key in test.use, used', async ({ app }) => {
  await app.getByText('New note').tap();
});
test('old key in test.use, unused', async ({ app }) => {
  test.fail(); // the line above stays the code frame checked
  expect(typeof app).toBe('string');
});
`,
      'legacy-extend.spec.ts': `import { test as base, expect } from 'nestwright';
const test = base.extend<{ greeting: string }>({
  greeting: async ({ app }, use) => use('hello from ' + app.package),
});
test.use({ app: 'fixtures/apks/notes.apk' });
test.fail('old key through a user extend, app asked for by a fixture only', async ({ greeting }) => {
  expect(greeting).toBe('hello from com.nestwright.notes');
});
`,
      'setup-fails.spec.ts': `import { test as base, expect } from 'nestwright';
// What \`app\` needs fails in its setup: the test's error is that failure, not a renamed option.
const test = base.extend({
  space: [async ({}, use) => { throw new Error('no space today'); }, { scope: 'worker' }],
});
test.use({ apk: 'fixtures/apks/notes.apk' });
test.fail();
test('app whose space fails in its setup', async ({ app }) => {
  await expect(app.getByText('New note')).toBeVisible();
});
`,
      'setup-hangs.spec.ts': `import { test as base, expect } from 'nestwright';
const test = base.extend({
  space: [async ({}, use) => { await new Promise(() => {}); }, { scope: 'worker', timeout: 1_000 }],
});
test.use({ apk: 'fixtures/apks/notes.apk' });
test.fail();
test('app whose space times out in its setup', async ({ app }) => {
  await expect(app.getByText('New note')).toBeVisible();
});
`,
      'legacy-device.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', device: { provider: 'sim', slots: 2 } });
test('old device key in test.use', async ({ app }) => {
  await expect(app.getByText('New note')).toBeVisible();
});
`,
      'legacy-shots.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', screenshot: 'every-step' });
test('old screenshot value', async ({ app }) => {
  await expect(app.getByText('New note')).toBeVisible();
});
`,
      'typo-device.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', deviceOptions: { provider: 'sim', fault: 'hostile' } });
test('a mistyped key in test.use({ deviceOptions })', async ({ app }) => {
  await expect(app.getByText('New note')).toBeVisible();
});
`,
      'typo-values.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
test.describe('colorScheme', () => {
  test.use({ colorScheme: 'drak' });
  test.fail('a mistyped colorScheme', async ({ app }) => {
    await expect(app.getByText('New note')).toBeVisible();
  });
});
test.describe('heal', () => {
  test.use({ heal: { mdoe: 'auto' } });
  test.fail('a mistyped key of heal, with no app', async () => {});
});
// Worker-scoped options (deviceOptions, screenshot, video), as Playwright's, are set at the top of a file.
test.describe('a user option', () => {
  test.use({ baseURL: 'http://127.0.0.1:1', userAgent: 'nestwright', trajectory: 'off' });
  test("Playwright's own keys beside ours", async ({ app }) => {
    await expect(app.getByText('New note')).toBeVisible();
  });
});
`,
    },
    // One worker: a second would cost its start-up (Playwright and nestwright loaded again) and check nothing more.
    { workers: 1 },
  );
});

test("a user's test.extend() keeps apk, trajectory and the describe-level apk", async () => {
  for (const title of ['a user fixture beside test.use({ apk })', 'per describe > settings in the describe']) {
    const r = run.result(title);
    expect(r.status, `${title}: ${r.error}`).toBe('passed');
    // trajectory: 'off' reached the fixtures too: no trajectory attached.
    expect(r.attachments.map((a) => a.name)).not.toContain('nestwright-trajectory');
  }
});

test("a user's test.extend() keeps deviceOptions (a worker option)", async () => {
  const r = run.result('test.use({ deviceOptions }) through a user extend');
  expect(r.status, r.error).toBe('passed');
});

test('test.use({ app: string }) fails with the rename, the test that asked for app as the code frame', async () => {
  for (const [title, line] of [
    ['old key in test.use, used', 3],
    ['old key in test.use, unused', 6],
  ] as const) {
    const r = run.result(title);
    expect(r.status).toBe('failed');
    const error = plain(r.error);
    expect(error).toContain(
      'test.use({ app }): replaced the `app` fixture with a value; the option is `apk` now: `app` is the fixture, the launched instance of the app. write test.use({ apk: … }) with the value you gave `app`.',
    );
    // The report's code frame is the test that asked for app, not the framework's source.
    expect(error).toContain(`> ${line} | test('${title}'`);
    expect(error).not.toContain('use-options.ts');
  }
  // The rename comes first and alone: what the body then threw on the string is quoted in it,
  // not reported before it (issue 48, item 16f).
  const used = plain(run.result('old key in test.use, used').error);
  expect(used).toMatch(
    /^\[test · OPTION_RENAMED\] NestwrightError: test\.use\(\{ app \}\): replaced the `app` fixture with a value/,
  );
  expect(used).toContain(
    'with the value you gave `app`. (The test then failed on the value it got for `app`: TypeError: app.getByText is not a function.)',
  );
  expect(used.match(/is not a function/g)).toHaveLength(1);
});

test("app's space failing or timing out in its setup is the test's error, not a renamed option", async () => {
  const fails = plain(run.result('app whose space fails in its setup').error);
  expect(fails).toContain('no space today');
  expect(fails).not.toContain('OPTION_RENAMED');
  const hangs = run.result('app whose space times out in its setup');
  expect(hangs.status).toBe('timedOut');
  expect(plain(hangs.error)).toMatch(/Fixture "space" timeout of 1000ms exceeded during setup/);
  expect(plain(hangs.error)).not.toContain('OPTION_RENAMED');
});

test("test.use({ app: string }) through a user's test.extend(), with only a fixture of the user's asking for app, fails (the type check names the rename)", async () => {
  // Playwright hands the value to the user's fixture, not to nestwright's: the test fails on
  // what its fixture made of a string, and tsc rejects the old key (options.types.ts).
  const r = run.result('old key through a user extend, app asked for by a fixture only');
  expect(r.status).toBe('failed');
  expect(plain(r.error)).toContain('Expected: "hello from com.nestwright.notes"');
});

test('test.use({ device: options }) fails with the rename and the corrected call, made from the value', async () => {
  const r = run.result('old device key in test.use');
  expect(r.status).toBe('failed');
  const error = plain(r.error);
  expect(error).toContain(
    'test.use({ device }): replaced the `device` fixture with a value; the option is `deviceOptions` now',
  );
  expect(error).toContain("write test.use({ deviceOptions: { provider: 'sim', slots: 2 } }).");
});

test("screenshot: 'every-step' fails naming Playwright's 'on'", async () => {
  const r = run.result('old screenshot value');
  expect(r.status).toBe('failed');
  expect(plain(r.error)).toContain("use.screenshot: 'every-step' is Playwright's 'on' now: write screenshot: 'on'");
});

test('a mistyped key of test.use({ deviceOptions }) fails the worker with OPTION_INVALID, naming the nearest key', async () => {
  const r = run.result('a mistyped key in test.use({ deviceOptions })');
  expect(r.status).toBe('failed');
  expect(plain(r.error)).toContain(
    'use.deviceOptions.fault: no such option; did you mean `faults`? The options here are provider, url, token, faults, seed, slots.',
  );
});

test('a mistyped value or key of a test option in test.use() fails the test with OPTION_INVALID; other keys pass', async () => {
  const scheme = run.result('colorScheme > a mistyped colorScheme');
  expect(scheme.status).toBe('failed');
  expect(plain(scheme.error)).toContain(
    "use.colorScheme: 'drak' is not one of 'light', 'dark', 'no-preference'; did you mean 'dark'?",
  );
  const heal = run.result('heal > a mistyped key of heal, with no app');
  expect(heal.status).toBe('failed');
  expect(plain(heal.error)).toContain('use.heal.mdoe: no such option; did you mean `mode`?');
  const other = run.result("a user option > Playwright's own keys beside ours");
  expect(other.status, other.error).toBe('passed');
});

test('mistyped options in a nestwright config fail the run before any worker, naming the nearest key', async () => {
  const r = await runInline(
    { 'a.spec.ts': `import { test } from 'nestwright';\ntest('never runs', async ({ app }) => {});\n` },
    {
      use: "apk: 'fixtures/apks/notes.apk', deviceOptions: { provider: 'sim', fault: 'hostile' }, colorScheme: 'drak'",
    },
  );
  expect(r.exitCode).not.toBe(0);
  expect(r.results.every((x) => x.status !== 'passed')).toBe(true);
  expect(plain(r.stderr)).toContain(
    'use.deviceOptions.fault: no such option; did you mean `faults`? The options here are provider, url, token, faults, seed, slots. (and use.colorScheme)',
  );
});

test('use.app in a nestwright config fails the run before any worker, naming use.apk', async () => {
  const r = await runInline(
    { 'a.spec.ts': `import { test } from 'nestwright';\ntest('never runs', async ({ app }) => {});\n` },
    { use: "app: 'fixtures/apks/notes.apk'" },
  );
  expect(r.exitCode).not.toBe(0);
  expect(r.results.every((x) => x.status !== 'passed')).toBe(true);
  expect(plain(r.stderr)).toContain(
    "use.app: the option is `apk` now: `app` is the fixture, the launched instance of the app. In playwright.config.ts write use: { apk: 'fixtures/apks/notes.apk' }.",
  );
});

test('use.device in a nestwright config (a project) fails the run before any worker, naming use.deviceOptions', async () => {
  const r = await runInline(
    { 'a.spec.ts': `import { test } from 'nestwright';\ntest('never runs', async ({ app }) => {});\n` },
    { config: "projects: [{ name: 'phone', use: { device: { provider: 'sim', slots: 2 } } }]," },
  );
  expect(r.exitCode).not.toBe(0);
  expect(r.results.every((x) => x.status !== 'passed')).toBe(true);
  expect(plain(r.stderr)).toContain(
    "use.device: the option is `deviceOptions` now: `device` is the fixture, the connected device. In playwright.config.ts write use: { deviceOptions: { provider: 'sim', slots: 2 } }.",
  );
});

test('use.app and use.device in a plain Playwright config fail in the fixtures, naming the new keys', async () => {
  const r = await runInline({
    // Playwright's own config object: no nestwright global setup, so the fixtures catch the old keys.
    'playwright.config.ts': `export default {
  testDir: '.',
  outputDir: './test-results',
  projects: [
    { name: 'app', testMatch: 'a.spec.ts', use: { app: 'fixtures/apks/notes.apk' } },
    { name: 'device', testMatch: 'b.spec.ts', use: { device: { provider: 'sim' }, apk: 'fixtures/apks/notes.apk' } },
  ],
};
`,
    'a.spec.ts': `import { test } from 'nestwright';\ntest('config app', async ({ app }) => {});\n`,
    'b.spec.ts': `import { test } from 'nestwright';\ntest('config device', async ({ app }) => {});\n`,
  });
  expect(r.result('config app').status).toBe('failed');
  expect(plain(r.result('config app').error)).toContain(
    "use.app: the option is `apk` now: `app` is the fixture, the launched instance of the app. In playwright.config.ts write use: { apk: 'fixtures/apks/notes.apk' }.",
  );
  expect(r.result('config device').status).toBe('failed');
  expect(plain(r.result('config device').error)).toContain(
    "use.device: the option is `deviceOptions` now: `device` is the fixture, the connected device. In playwright.config.ts write use: { deviceOptions: { provider: 'sim' } }.",
  );
});

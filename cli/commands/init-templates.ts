/** What `nestwright init` writes into a project: a config, an example spec, scripts, ignores. */

export const CONFIG_FILE = 'playwright.config.ts';
export const SPEC_FILE = 'specs/notes.spec.ts';
/**
 * The sample apps, copied where every page of the docs names them (`fixtures/apks/shop.apk`), so
 * an example copied from the docs runs in the project as written.
 */
export const SAMPLE_APKS = [
  { file: 'fixtures/apks/notes.apk', what: 'the sample Notes app' },
  { file: 'fixtures/apks/shop.apk', what: 'the sample Shop app (the docs: network, WebViews, world, accessibility)' },
  { file: 'fixtures/apks/chat.apk', what: 'the sample Chat app (the docs: two users, one device)' },
] as const;
export const APK_FILE = SAMPLE_APKS[0].file;

export const CONFIG = `import { defineConfig } from 'nestwright';

/**
 * Tests of Android apps, each test in a fresh instance of its app. With no device configured,
 * one embedded simulated NestSpace device, started for the run, serves every worker. For a phone
 * running NestSpace (e.g. after \`adb forward tcp:8765 tcp:8765\`):
 *   use: { deviceOptions: { provider: 'nestspace', url: 'http://127.0.0.1:8765/mcp', token: process.env.NESTSPACE_TOKEN! } }
 */
export default defineConfig({
  testDir: './specs',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  fullyParallel: true,
  reporter: [['list'], ['nestwright/reporters/allure', { resultsDir: 'allure-results' }]],
  use: {
    deviceOptions: { provider: 'sim' },
    actionTimeout: 5_000,
    trajectory: 'on',
    screenshot: 'only-on-failure',
  },
});
`;

export const SPEC = `import { test, expect } from 'nestwright';

// The sample Notes app. Each test gets a fresh instance of it, with its own data.
test.use({ apk: '${APK_FILE}' });

test('creates a note and sees it in the list', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Buy milk');
  await app.getByRole('button', { name: 'Save' }).tap();

  await expect(app.getByText('Buy milk')).toBeVisible();
});

test('a new test starts with no notes', async ({ app }) => {
  await expect(app.getByText('No notes yet')).toBeVisible();
});
`;

export const SCRIPTS: Record<string, string> = {
  test: 'playwright test',
  'test:report': 'nestwright report',
};

/** Output of test runs and of `nestwright sim` (its state directory). */
export const GITIGNORE = [
  'node_modules/',
  'test-results/',
  'playwright-report/',
  'allure-results/',
  'allure-report/',
  '.nestwright/',
];

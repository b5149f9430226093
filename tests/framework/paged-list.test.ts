import { test, expect } from '@playwright/test';
import { plain, runInline, type InlineRun } from './inline.js';

/**
 * A paged list that is still loading (issue 11, item 5): a progress indicator at its end means
 * "wait", not "turn back up". Under `hostile` (pages take 2.4 s, latencies ~2.6× a phone's),
 * product 150 of Shop's catalog is reached with no timeout given: the profile's timing scales
 * the defaults (×3), as the runtime reports in runtime_info.
 */
test.describe.configure({ mode: 'default' });

let run: InlineRun;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  run = await runInline(
    {
      'paged.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk' });
test('scrolls to product 150 while pages load', async ({ app, device }) => {
  expect(device.timing).toEqual({ profile: 'hostile', timeoutScale: 3 });
  await app.launch({ activity: '.CatalogActivity' });
  const row = app.getById('product_row').filter({ hasText: 'Classic Umbrella 150' });
  // On a phone, 7 pages of 0.8 s and 30 scrolls take ~15 s: the timeout is the app's, not the profile's.
  await row.scrollIntoView({ timeout: 30_000 });
  await expect(row.getById('product_price')).toBeVisible();
});
test('a timeout message says it was scaled', async ({ app }) => {
  await app.getByText('Nothing like this').tap({ timeout: 100 });
});
`,
    },
    { env: { NESTWRIGHT_FAULTS: 'hostile', NESTWRIGHT_SEED: '3' } },
  );
});

test('scrollIntoView waits for the next page instead of turning back', () => {
  const r = run.result('scrolls to product 150 while pages load');
  expect(r.status, r.error).toBe('passed');
});

test('timeouts are scaled by the fault profile, and the message says so', () => {
  const r = run.result('a timeout message says it was scaled');
  expect(r.status).toBe('failed');
  expect(plain(r.error)).toContain('timeout 300ms (100ms × 3, the device\'s timing "hostile") exceeded');
});

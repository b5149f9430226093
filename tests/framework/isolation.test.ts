import { test, expect } from '@playwright/test';
import { plain, runInline, type InlineRun } from './inline.js';

/**
 * Runtime permissions do not leak between tests (issue 11, item 3): a test's instance starts
 * with none, whatever an earlier test in the worker granted at the prompt or up front;
 * `use.permissions` grants them up front through space_permissions. The tests run in order in
 * one worker, so each sees what the previous one left in the space.
 */
test.describe.configure({ mode: 'default' });

let run: InlineRun;

const FLOW = `
const PROMPT = "role=button[name=\\"Don't allow\\"]";
const openCheckout = (app: any) => app.launch({ activity: '.CheckoutActivity' });
const ADDRESS = '1600 Amphitheatre Pkwy, Mountain View';
`;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  run = await runInline(
    {
      'perm.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk' });
${FLOW}
test('1 grants location at the prompt', async ({ app }) => {
  await openCheckout(app);
  await app.getByRole('button', { name: 'Use my location' }).tap();
  await app.getByRole('button', { name: 'While using the app' }).tap();
  await expect(app.getById('address')).toHaveText(ADDRESS);
});
test('2 the next test is asked again', async ({ app }) => {
  await openCheckout(app);
  await app.getByRole('button', { name: 'Use my location' }).tap();
  await app.locator(PROMPT).tap();
  await expect(app.getByText('Location permission denied')).toBeVisible();
});
test.describe('granted up front', () => {
  test.use({ permissions: ['android.permission.ACCESS_FINE_LOCATION'] });
  test('3 use.permissions: no prompt', async ({ app, device, space }) => {
    const { granted } = await device.client.call('space_permissions', { space_id: space.id, package: app.package, action: 'list' });
    expect(granted).toEqual(['android.permission.ACCESS_FINE_LOCATION']);
    await openCheckout(app);
    await app.getByRole('button', { name: 'Use my location' }).tap();
    await expect(app.getById('address')).toHaveText(ADDRESS);
    // A second instance in the same test has them too.
    const other = await app.newInstance();
    await other.launch({ activity: '.CheckoutActivity' });
    await other.getByRole('button', { name: 'Use my location' }).tap();
    await expect(other.getById('address')).toHaveText(ADDRESS);
  });
});
test('4 after a test with permissions, none again', async ({ app }) => {
  await openCheckout(app);
  await app.getByRole('button', { name: 'Use my location' }).tap();
  await expect(app.locator(PROMPT)).toBeVisible();
});
test.describe('a permission the app does not request', () => {
  test.use({ permissions: ['android.permission.CAMERA'] });
  test('5 is refused with what the app requests', async ({ app }) => {});
});
`,
    },
    { config: 'fullyParallel: false,' },
  );
});

for (const title of [
  '1 grants location at the prompt',
  '2 the next test is asked again',
  'granted up front > 3 use.permissions: no prompt',
  '4 after a test with permissions, none again',
]) {
  test(title, () => {
    const r = run.result(title);
    expect(r.status, r.error).toBe('passed');
  });
}

test('a permission the app does not request is a usage error', () => {
  const r = run.result('a permission the app does not request > 5 is refused with what the app requests');
  expect(r.status).toBe('failed');
  expect(plain(r.error)).toContain(
    'use.permissions: com.nestwright.shop does not request android.permission.CAMERA; the runtime permissions in its manifest are: android.permission.ACCESS_FINE_LOCATION',
  );
});

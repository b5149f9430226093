import { test, expect } from '@playwright/test';
import { plain, runInline, type InlineRun } from './inline.js';

/**
 * The soft keyboard as a phone has it (issue 11, items 1 and 2): the window pans so the focused
 * field stays visible, Enter goes to the focused field, an action on something under the
 * keyboard hides it first, `fill` reads the field back and types once, `app.hideKeyboard()`,
 * and failure messages say when the keyboard covers part of the screen.
 */
test.describe.configure({ mode: 'default' });

let run: InlineRun;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  run = await runInline(
    {
      'login.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk' });
const signedIn = async (app: any) => {
  await expect(app).toHaveActivity('.CatalogActivity', { timeout: 20_000 });
  expect((await app.logcat()).some((l: string) => l.includes('ShopAuth: signing in ana@example.com'))).toBe(true);
};
test('app.press enter signs in from the password field', async ({ app }) => {
  await app.getById('email').fill('ana@example.com');
  await app.press('back');
  await app.getByRole('checkbox', { name: 'I accept the terms' }).tap();
  await app.getById('password').fill('hunter22');
  // adjustPan: the field being typed into is above the keyboard, so it is on screen.
  await expect(app.getById('password')).toBeVisible();
  await expect(app.getById('password')).toBeFocused();
  await app.press('enter');
  await signedIn(app);
});
test('locator.press enter signs in', async ({ app }) => {
  await app.getById('email').fill('ana@example.com');
  await app.press('back');
  await app.getByRole('checkbox', { name: 'I accept the terms' }).tap();
  await app.getById('password').fill('hunter22');
  await app.getById('password').press('enter');
  await signedIn(app);
});
test('enter reaches the focused field after the keyboard was hidden', async ({ app }) => {
  await app.getById('email').fill('ana@example.com');
  await app.getByRole('checkbox', { name: 'I accept the terms' }).tap();
  await app.getById('password').fill('hunter22');
  await app.hideKeyboard();
  await app.press('enter');
  await signedIn(app);
});
test('actions on what the keyboard covers hide it first', async ({ app }) => {
  await app.getById('email').fill('ana@example.com');
  // The checkbox, the password and Log in are under the keyboard: no back needed.
  await app.getByRole('checkbox', { name: 'I accept the terms' }).tap();
  await app.getById('password').fill('hunter22');
  await app.getByRole('button', { name: 'Log in' }).tap();
  await signedIn(app);
});
test('hideKeyboard shows what was under it, and does nothing when it is down', async ({ app }) => {
  await app.getById('email').fill('ana@example.com');
  await expect(app.getByRole('button', { name: 'Log in' })).toBeHidden();
  await app.hideKeyboard();
  await expect(app.getByRole('button', { name: 'Log in' })).toBeVisible();
  await app.hideKeyboard();
  await expect(app).toHaveActivity('.LoginActivity');
  await expect(app.getById('email')).toHaveText('ana@example.com');
});
test('the screen in a failure shows the keyboard', async ({ app }) => {
  await app.getById('email').fill('ana@example.com');
  await expect(app.getByText('Nothing like this')).toBeVisible({ timeout: 300 });
});
`,
      'fill.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk' });
test('fill with a toast up types once and reads the field', async ({ app, device, space }) => {
  await app.launch({ activity: '.CartActivity' });
  await app.getById('coupon').fill('BAD');
  await app.press('enter');
  await expect(app.getByText('Coupon BAD is not valid')).toBeVisible();
  const since = Date.now();
  await app.getById('coupon').fill('SAVE10');
  await expect(app.getById('coupon')).toHaveText('SAVE10');
  const { entries } = await device.client.call('audit_query', { space_id: space.id, tool: 'ui_set_text', since });
  expect(entries.length).toBe(1);
});
`,
    },
    { use: "apk: 'fixtures/apks/shop.apk'" },
  );
});

for (const title of [
  'app.press enter signs in from the password field',
  'locator.press enter signs in',
  'enter reaches the focused field after the keyboard was hidden',
  'actions on what the keyboard covers hide it first',
  'hideKeyboard shows what was under it, and does nothing when it is down',
  'fill with a toast up types once and reads the field',
]) {
  test(title, () => {
    const r = run.result(title);
    expect(r.status, r.error).toBe('passed');
  });
}

test('a failure message shows the keyboard area', () => {
  const r = run.result('the screen in a failure shows the keyboard');
  expect(r.status).toBe('failed');
  expect(plain(r.error)).toContain(
    '[soft keyboard up over 0,1394,1080,2274: nodes under it are not on screen; app.hideKeyboard() hides it]',
  );
});

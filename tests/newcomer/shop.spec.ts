import { test, expect } from 'nestwright';

test.use({ apk: 'fixtures/apks/shop.apk' });

test.describe('login', () => {
  test('signs in with Enter from the password field', async ({ app }) => {
    await app.getById('email').fill('ana@example.com');
    await app.getByRole('checkbox', { name: 'I accept the terms' }).tap();
    await app.getById('password').fill('hunter22');
    await app.press('enter');
    await expect(app).toHaveActivity('.CatalogActivity', { timeout: 10_000 });
    expect((await app.logcat()).join('\n')).toContain('ShopAuth: signing in ana@example.com');
  });

  test('signs in with the button after hiding the keyboard', async ({ app }) => {
    await app.getById('email').fill('ben@example.com');
    await app.hideKeyboard();
    await app.getByRole('checkbox', { name: 'I accept the terms' }).tap();
    await app.getById('password').fill('hunter22');
    await app.hideKeyboard();
    await app.getByRole('button', { name: 'Log in' }).tap();
    await expect(app.getByText('Catalog', { exact: true })).toBeVisible({ timeout: 10_000 });
  });

  test('a wrong password is refused', async ({ app }) => {
    await app.getById('email').fill('ana@example.com');
    await app.getByRole('checkbox', { name: 'I accept the terms' }).tap();
    await app.getById('password').fill('wrong-password');
    await app.getById('password').press('enter');
    await expect(app.getById('error')).toHaveText('Invalid email or password', { timeout: 10_000 });
  });

  test('the form says what is missing', async ({ app }) => {
    await app.getById('email').fill('not-an-email');
    await app.getByRole('button', { name: 'Log in' }).tap();
    await expect(app.getById('error')).toHaveText('Enter a valid email address');
  });
});

test.describe('catalog', () => {
  test.beforeEach(async ({ app }) => {
    await app.launch({ activity: '.CatalogActivity' });
  });

  test('adds a product from the first page', async ({ app }) => {
    const row = app.getById('product_row').filter({ hasText: 'Smart Speaker 1' }).first();
    await row.getByRole('button', { name: 'Add to cart' }).tap();
    await expect(app.getById('cart_badge')).toHaveText('1');
    await expect(app.getByDesc('Cart, 1 items')).toBeVisible();
  });

  test('a row reads as its name and price', async ({ app }) => {
    const row = app.getById('product_row').filter({ hasText: 'Smart Speaker 1' }).first();
    await expect(row).toContainText('Smart Speaker 1');
    await expect(row).toContainText('$');
  });

  test('checkout asks for location, then places the order', async ({ app }) => {
    await app.getByRole('button', { name: 'Add to cart' }).first().tap();
    await app.getByDesc('Cart, 1 items').tap();
    await app.getByRole('button', { name: 'Checkout' }).tap();
    await app.getByRole('button', { name: 'Use my location' }).tap();
    await app.getByRole('button', { name: 'While using the app' }).tap();
    await expect(app.getById('address')).toHaveText('1600 Amphitheatre Pkwy, Mountain View');
    await app.getByRole('button', { name: 'Place order' }).tap();
    await app.getById('confirm_order').tap();
    await expect(app.getById('status')).toHaveText('Order #1001 confirmed', { timeout: 15_000 });
  });

  test('the next test is asked for location again', async ({ app }) => {
    await app.launch({ activity: '.CheckoutActivity' });
    await app.getByRole('button', { name: 'Use my location' }).tap();
    await app.getByRole('button', { name: "Don't allow" }).tap();
    await expect(app.getByText('Location permission denied')).toBeVisible();
  });
});

test.describe('with location granted up front', () => {
  test.use({ permissions: ['android.permission.ACCESS_FINE_LOCATION'] });
  test('no prompt', async ({ app }) => {
    await app.launch({ activity: '.CheckoutActivity' });
    await app.getByRole('button', { name: 'Use my location' }).tap();
    await expect(app.getById('address')).toHaveText('1600 Amphitheatre Pkwy, Mountain View');
  });
});

test('a coupon takes 10% off', async ({ app }) => {
  await app.launch({ activity: '.CatalogActivity' });
  await app.getByRole('button', { name: 'Add to cart' }).first().tap();
  await app.getByDesc('Cart, 1 items').tap();
  const before = await app.getById('total').textContent();
  await app.getById('coupon').fill('SAVE10');
  await app.getByRole('button', { name: 'Apply' }).tap();
  await expect(app.getByText('Coupon applied: 10% off')).toBeVisible();
  await expect(app.getById('total')).not.toHaveText(before!);
});

test('a deep link opens a product', async ({ app }) => {
  await app.intent({ data: 'nwshop://product/42' });
  await expect(app).toHaveActivity('.ProductActivity');
  await expect(app.getByText('42', { exact: false }).first()).toBeVisible();
});

test('an empty coupon crashes the app', async ({ app }) => {
  await app.launch({ activity: '.CartActivity' });
  await app
    .getByRole('button', { name: 'Apply' })
    .tap()
    .catch(() => {});
  await expect(app).toHaveCrashed();
});

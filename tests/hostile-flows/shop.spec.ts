import { test, expect, type App } from 'nestwright';

test.use({ apk: 'fixtures/apks/shop.apk' });

async function cartWithOne(app: App) {
  await app.launch({ activity: '.CatalogActivity' });
  await app.getByRole('button', { name: 'Add to cart' }).first().tap();
  await expect(app.getById('cart_badge')).toHaveText('1');
  await app.getByDesc('Cart, 1 items').tap();
  await expect(app).toHaveActivity('.CartActivity');
}

test.describe('login', () => {
  test('signs in with Enter from the password field', async ({ app }) => {
    await app.getById('email').fill('ana@example.com');
    await app.getByRole('checkbox', { name: 'I accept the terms' }).tap();
    await app.getById('password').fill('hunter22');
    await app.press('enter');
    await expect(app).toHaveActivity('.CatalogActivity', { timeout: 10_000 });
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
  test('adds two products from the first page', async ({ app }) => {
    await app.launch({ activity: '.CatalogActivity' });
    await app
      .getById('product_row')
      .filter({ hasText: 'Smart Speaker 1' })
      .first()
      .getByRole('button', { name: 'Add to cart' })
      .tap();
    await expect(app.getById('cart_badge')).toHaveText('1');
    await app.getByRole('button', { name: 'Add to cart' }).nth(1).tap();
    await expect(app.getById('cart_badge')).toHaveText('2');
    await expect(app.getByDesc('Cart, 2 items')).toBeVisible();
  });

  test('a deep link opens a product, and its button adds it', async ({ app }) => {
    await app.intent({ data: 'nwshop://product/42' });
    await expect(app).toHaveActivity('.ProductActivity');
    await app.getById('add_to_cart').tap();
    await expect(app.getByText('Added to cart')).toBeVisible();
  });

  test('removing the only item empties the cart', async ({ app }) => {
    await cartWithOne(app);
    await app.getByDesc(/^Remove /).tap();
    await expect(app.getById('empty')).toHaveText('Your cart is empty');
    await expect(app.getByRole('button', { name: 'Checkout' })).toBeDisabled();
  });
});

test.describe('coupons', () => {
  test('a coupon takes 10% off', async ({ app }) => {
    await cartWithOne(app);
    const before = await app.getById('total').textContent();
    await app.getById('coupon').fill('SAVE10');
    await app.getByRole('button', { name: 'Apply' }).tap();
    await expect(app.getByText('Coupon applied: 10% off')).toBeVisible();
    await expect(app.getById('total')).not.toHaveText(before);
  });

  test('an invalid coupon, then the right one at once', async ({ app }) => {
    await cartWithOne(app);
    const before = await app.getById('total').textContent();
    await app.getById('coupon').fill('NOPE');
    await app.getByRole('button', { name: 'Apply' }).tap();
    await expect(app.getByText('Coupon NOPE is not valid')).toBeVisible();
    await app.getById('coupon').fill('SAVE10');
    await app.getByRole('button', { name: 'Apply' }).tap();
    await expect(app.getById('total')).not.toHaveText(before);
    await expect(app.getByText('Coupon applied: 10% off')).toBeVisible();
  });

  test('two invalid coupons in a row, then the right one', async ({ app }) => {
    await cartWithOne(app);
    const before = await app.getById('total').textContent();
    for (const code of ['NOPE', 'WRONG']) {
      await app.getById('coupon').fill(code);
      await app.getByRole('button', { name: 'Apply' }).tap();
      await expect(app.getByText(`Coupon ${code} is not valid`)).toBeVisible();
    }
    await app.getById('coupon').fill('SAVE10');
    await app.getByRole('button', { name: 'Apply' }).tap();
    await expect(app.getById('total')).not.toHaveText(before);
  });
});

test.describe('checkout', () => {
  test('the location prompt "While using the app", then the order', async ({ app }) => {
    await cartWithOne(app);
    await app.getByRole('button', { name: 'Checkout' }).tap();
    await app.getByRole('button', { name: 'Use my location' }).tap();
    await app.getByRole('button', { name: 'While using the app' }).tap();
    await expect(app.getById('address')).toHaveText('1600 Amphitheatre Pkwy, Mountain View');
    await app.getByRole('button', { name: 'Place order' }).tap();
    await app.getById('confirm_order').tap();
    await expect(app.getById('status')).toHaveText('Order #1001 confirmed', { timeout: 15_000 });
  });

  test('the location prompt, answered at once, fills the address', async ({ app }) => {
    await app.launch({ activity: '.CheckoutActivity' });
    await app.getByRole('button', { name: 'Use my location' }).tap();
    await app.getByRole('button', { name: 'While using the app' }).tap();
    await expect(app.getById('address')).toHaveText('1600 Amphitheatre Pkwy, Mountain View');
  });

  test('denying the prompt says so', async ({ app }) => {
    await app.launch({ activity: '.CheckoutActivity' });
    await app.getByRole('button', { name: 'Use my location' }).tap();
    await app.getByRole('button', { name: "Don't allow" }).tap();
    await expect(app.getByText('Location permission denied')).toBeVisible();
  });

  test('a cleared address is refused, a typed one is taken', async ({ app }) => {
    await app.launch({ activity: '.CheckoutActivity' });
    const address = app.getById('address');
    await address.fill('221B Baker Street');
    await address.clear();
    await expect(address).toHaveText('');
    await app.hideKeyboard();
    await app.getByRole('button', { name: 'Place order' }).tap();
    await expect(app.getByText('Enter a delivery address')).toBeVisible();
    await address.fill('221B Baker Street');
    await app.hideKeyboard();
    await app.getByRole('button', { name: 'Place order' }).tap();
    await expect(app.getByText('Place order?')).toBeVisible();
  });
});

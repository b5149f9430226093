import { test, expect, secret } from 'nestwright';

test.use({ apk: 'fixtures/apks/shop.apk' });

test('signs in and adds a product to the cart, by instruction', async ({ app }) => {
  // The password is a secret: the model sees only {password}; the framework types the value
  // into the password field, and it never reaches a prompt, the cache, the trajectory or a report.
  await app.ai.act('sign in as {user} with password {password}, accepting the terms', {
    params: { user: 'ana@example.com', password: secret(process.env.SHOP_PASSWORD ?? 'hunter22') },
  });
  await expect(app.getByText('Catalog', { exact: true })).toBeVisible({ timeout: 20_000 });

  await expect(app.getByText('Smart Speaker 1', { exact: true })).toBeVisible({ timeout: 20_000 });
  await app.ai.act('add the first product to the cart');
  await expect(app.getById('cart_badge')).toHaveText('1');
});

import { test, expect, type App } from 'nestwright';

/**
 * The instance's network in the test's hands (docs/network.md): the catalog the app loads over
 * HTTPS is answered by the test, and a real response is changed on its way to the app.
 */
test.use({ apk: 'fixtures/apks/shop.apk' });

// The network is per instance: a runtime needs the `net_proxy` extension (the Appium provider has none).
test.skip(({ device }) => device.provider === 'appium', 'the appium provider offers no net_proxy extension');

const row = (app: App, name: string) => app.getById('product_row').filter({ hasText: name });

test('the catalog shows the products the test serves', async ({ app }) => {
  await app.route('**/products?page=*', (route) =>
    route.fulfill({
      json: {
        items: [
          { id: 1, name: 'Test Lamp', price: 1999 },
          { id: 2, name: 'Test Desk', price: 25000 },
        ],
        next: null,
      },
    }),
  );
  await app.launch({ activity: '.CatalogActivity' });
  await expect(row(app, 'Test Lamp').getById('product_price')).toHaveText('$19.99', { timeout: 20_000 });
  await expect(app.getByText('Test Desk')).toBeVisible();
  await expect(app.getByText('Smart Speaker 1', { exact: true })).toBeHidden();
});

test('a real catalog with one product on sale', async ({ app }) => {
  await app.route('**/products?page=1', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as { items: Array<{ name: string; price: number }> };
    json.items[0]!.price = 1;
    await route.fulfill({ response, json });
  });
  await app.launch({ activity: '.CatalogActivity' });
  await expect(row(app, 'Smart Speaker 1').getById('product_price')).toHaveText('$0.01', { timeout: 20_000 });
});

import { test, expect } from 'nestwright';

/**
 * The app's world (docs/app-world.md): where the phone is, what time it is, its language. Each is
 * set on this test's instance only; the next test's instance starts from the defaults again.
 */
test.use({ apk: 'fixtures/apks/shop.apk', permissions: ['android.permission.ACCESS_FINE_LOCATION'] });

// The world is per instance: a runtime needs the `world` extension (the Appium provider has none).
test.skip(({ device }) => device.provider === 'appium', 'the appium provider offers no world extension');

test.describe('in Berlin, in German', () => {
  test.use({ geolocation: { latitude: 52.52, longitude: 13.405 }, locale: 'de-DE', timezoneId: 'Europe/Berlin' });

  test('checkout fills a Berlin address and shows euros-style prices', async ({ app }) => {
    await app.launch({ activity: '.CatalogActivity' });
    const speaker = app.getById('product_row').filter({ hasText: 'Smart Speaker 1' });
    await expect(speaker.getById('product_price')).toHaveText('6,36 $', { timeout: 20_000 });
    await speaker.getByRole('button', { name: 'Add to cart' }).tap();
    await app.getByDesc('Cart, 1 items').tap();
    await app.getByRole('button', { name: 'Checkout' }).tap();
    await app.getByRole('button', { name: 'Use my location' }).tap();
    await expect(app.getById('address')).toContainText('Berlin', { timeout: 15_000 });
  });
});

test('moving the phone moves the address: Tokyo, then Sydney', async ({ app }) => {
  await app.launch({ activity: '.CheckoutActivity' });
  await app.setGeolocation({ latitude: 35.676, longitude: 139.65 });
  await app.getByRole('button', { name: 'Use my location' }).tap();
  await expect(app.getById('address')).toContainText('Tokyo', { timeout: 15_000 });
  await app.setGeolocation({ latitude: -33.869, longitude: 151.209 });
  await app.getByRole('button', { name: 'Use my location' }).tap();
  await expect(app.getById('address')).toContainText('Sydney', { timeout: 15_000 });
});

test.describe('the clock', () => {
  test.use({ apk: 'fixtures/apks/notes.apk', permissions: [], timezoneId: 'Asia/Tokyo' });

  test('a note saved at 09:00 in Tokyo reminds an hour later', async ({ app }) => {
    await app.clock.setFixedTime('2026-01-15T09:00:00+09:00');
    await app.getByText('New note').tap();
    await app.getById('title').fill('Buy milk');
    await app.getByRole('checkbox', { name: 'Remind me in 1 hour' }).tap();
    await app.getByRole('button', { name: 'Save' }).tap();
    await expect(app.getById('note_date')).toHaveText('Today');
    await app.clock.fastForward('01:00:00');
    await expect(app).toHaveNotification({ title: 'Reminder', text: 'Buy milk' });
    const [reminder] = await app.notifications.list();
    await reminder!.tap();
    await expect(app.getById('created')).toHaveText('Created 09:00');
  });
});

import { test, expect } from 'nestwright';

// Each test gets a fresh instance of Notes, with its own data, in its worker's space.
test.use({ app: 'fixtures/apks/notes.apk' });

test('creates a note and sees it in the list', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Buy milk');
  await app.getByRole('button', { name: 'Save' }).tap();

  await expect(app.getByText('Buy milk')).toBeVisible();
  await expect(app).toHaveActivity('.MainActivity');
});

test('a new test never sees the notes of another', async ({ app }) => {
  // The test above saved "Buy milk" in its own instance; this instance starts empty.
  await expect(app.getByText('Buy milk')).toBeHidden();
  await app.getByText('New note').tap();
  await app.getById('title').fill('Call Ana');
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Call Ana')).toBeVisible();
  await expect(app.getByText('Buy milk')).toBeHidden();
});

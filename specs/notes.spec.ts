import { test, expect } from 'nestwright';

// Each test gets a fresh instance of Notes, with its own data, in its worker's space.
test.use({ apk: 'fixtures/apks/notes.apk' });

test('creates a note and sees it in the list', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Buy milk');
  await app.getByRole('button', { name: 'Save' }).tap();

  await expect(app.getByText('Buy milk')).toBeVisible();
  await expect(app).toHaveActivity('.MainActivity');
});

test('a new test never sees the notes of another', async ({ app }) => {
  // The test above saved "Buy milk" in its own instance; this instance starts empty.
  await expect(app.getByText('No notes yet')).toBeVisible();
  await app.getByText('New note').tap();
  await app.getById('title').fill('Call Ana');
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Call Ana')).toBeVisible();
  await expect(app.getByText('Buy milk')).toBeHidden();
});

test('edits a note', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Draft');
  await app.getByRole('button', { name: 'Save' }).tap();

  // Tapping a row opens the note; the same screen edits it.
  await app.getByText('Draft', { exact: true }).tap();
  await expect(app.getById('toolbar_title')).toHaveText('Edit note');
  await app.getById('title').fill('Final');
  await app.getByRole('button', { name: 'Save' }).tap();

  await expect(app.getByText('Final', { exact: true })).toBeVisible();
  await expect(app.getByText('Draft', { exact: true })).toBeHidden();
});

test('deletes a note from its long-press menu, after confirming', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Old receipt');
  await app.getByRole('button', { name: 'Save' }).tap();

  await app.getByText('Old receipt').longPress();
  await app.getByText('Delete', { exact: true }).tap();
  // The confirmation dialog names the note; its own "Delete" button is the one to press.
  await expect(app.getByText('"Old receipt" will be deleted.')).toBeVisible();
  await app.getByRole('button', { name: 'Delete' }).tap();

  await expect(app.getByText('No notes yet')).toBeVisible();
});

test('finds a note far down a long list', async ({ app }) => {
  await app.getByDesc('More options').tap();
  await app.getByText('Load sample notes').tap();
  await expect(app.getByText('Ideas 2', { exact: true })).toBeVisible();

  // "Recipe 95" is far below the screen: the tap scrolls the list until it is there.
  await app.getByText('Recipe 95', { exact: true }).tap({ timeout: 30_000 });
  await expect(app.getById('body')).toHaveText('Sample note number 95');
});

test('searches notes', async ({ app }) => {
  await app.getByDesc('More options').tap();
  await app.getByText('Load sample notes').tap();
  await app.getByDesc('Search notes').tap();
  await app.getById('search_field').fill('Budget 27');
  // Search matches on substrings: "Budget 27" and "Budget 277".
  await expect(app.getById('note_title')).toHaveCount(2);
  await app.getById('search_field').fill('Budget 277');
  await expect(app.getById('note_title')).toHaveText('Budget 277');
  await app.getById('search_field').fill('zebra');
  await expect(app.getByText('No matching notes')).toBeVisible();
});

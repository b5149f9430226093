import { test, expect } from 'nestwright';

// Plain-language steps. The model drives the app only through the framework's own actions, on
// node ids of the current screen. A passing step is stored in specs/__ai-cache__/ (committed):
// later runs replay it through the same locators with zero model calls, so this file runs with
// no API key and no network. Check the outcome with plain, exact assertions.
test.use({ apk: 'fixtures/apks/notes.apk' });

test('creates and deletes a note, by instruction', async ({ app }) => {
  await app.ai.act('create a note titled {title}', { params: { title: 'Buy milk' } });
  await expect(app.getByText('Buy milk', { exact: true })).toBeVisible();

  await app.ai.act('delete the note {title}, confirming the dialog', { params: { title: 'Buy milk' } });
  await expect(app.getByText('No notes yet')).toBeVisible();
});

import { test, expect } from 'nestwright';

// Written against Notes 1.0. Notes 2.0 renamed its resource ids and says "Create note" where 1.0
// said "New note". Every locator that resolves leaves a fingerprint of its node in
// specs/__fingerprints__/heal.spec.ts.json; with heal: 'auto', a step whose locator no longer
// matches runs on the node the fingerprint points to — if it is clearly the one — and the test is
// marked healed. `npx nestwright heal` then lists the proposed locators, `--apply` edits this file.
test.use({ apk: 'fixtures/apks/notes.apk', heal: 'auto' });

test('creates a note on Notes 1.0', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Buy milk');
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Buy milk')).toBeVisible();
});

test('the same steps heal after the update to Notes 2.0', async ({ device }) => {
  // A space of its own, so the update does not reach the other tests' Notes 1.0.
  const space = await device.newSpace('notes-update');
  await space.install('fixtures/apks/notes.apk');
  await space.install('fixtures/apks/notes-v2.apk'); // an update: versionCode 2, same signer
  const app = await space.launch('fixtures/apks/notes-v2.apk');

  await app.getByText('New note').tap(); // healed: text=Create note
  await app.getById('title').fill('Buy milk'); // healed: id=note_title
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Buy milk')).toBeVisible();
});

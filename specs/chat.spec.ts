import { test, expect } from 'nestwright';

test.use({ apk: 'fixtures/apks/chat.apk' });

test('two people talk: a second instance of the app in the same test', async ({ app }) => {
  // `app` is Ana's instance; Ben gets his own, with his own data, in the same space.
  const ana = app;
  const ben = await app.newInstance();

  await ana.getById('name').fill('Ana');
  await ana.getByRole('button', { name: 'Join' }).tap();
  await ben.getById('name').fill('Ben');
  await ben.getByRole('button', { name: 'Join' }).tap();

  await ana.getById('message_input').fill('Lunch at noon?');
  await ana.getByDesc('Send').tap();
  // The server delivers after a round trip: Ana sees "Sent", Ben sees the message, from Ana.
  await expect(ana.getById('message_status')).toHaveText('Sent');
  const received = ben.getById('incoming').filter({ hasText: 'Lunch at noon?' });
  await expect(received).toBeVisible();
  await expect(received.getById('message_sender')).toHaveText('Ana');

  await ben.getById('message_input').fill('Yes!');
  await ben.getByDesc('Send').tap();
  await expect(ana.getById('incoming').filter({ hasText: 'Yes!' })).toBeVisible();
});

test('leaving the room asks for a name again', async ({ app }) => {
  // The chat server belongs to the space, so the room may hold messages of earlier tests;
  // the instance's own data (the name) is new in every test.
  await expect(app.getByText('Choose a display name')).toBeVisible();
  await app.getById('name').fill('Solo');
  await app.getByRole('button', { name: 'Join' }).tap();
  await expect(app.getById('toolbar_title')).toHaveText('General (Solo)');
  await app.getByDesc('Leave room').tap();
  await expect(app.getByText('Choose a display name')).toBeVisible();
});

import { test, expect, type App } from 'nestwright';

test.use({ apk: 'fixtures/apks/chat.apk' });

async function join(app: App, name: string) {
  await app.getById('name').fill(name);
  await app.getByRole('button', { name: 'Join' }).tap();
  await expect(app.getByText(`General (${name})`)).toBeVisible();
}

test('two users talk', async ({ app }) => {
  const ben = await app.newInstance();
  await join(app, 'Ana');
  await join(ben, 'Ben');
  const hello = `hello ${test.info().testId}`;
  await app.getById('message_input').fill(hello);
  await app.getByDesc('Send').tap();
  await expect(ben.getById('incoming').filter({ hasText: hello })).toContainText('Ana');
  await expect(app.getById('outgoing').filter({ hasText: hello })).toContainText('Sent');
});

test('enter sends a message', async ({ app }) => {
  await join(app, 'Cy');
  const text = `via enter ${test.info().testId}`;
  await app.getById('message_input').fill(text);
  await app.press('enter');
  await expect(app.getById('outgoing').filter({ hasText: text })).toHaveText(`${text} Sent`);
});

test('the input is empty after sending, and the next message follows', async ({ app }) => {
  await join(app, 'Dee');
  const input = app.getById('message_input');
  for (const m of [`first ${test.info().testId}`, `second ${test.info().testId}`]) {
    await input.fill(m);
    await app.getByDesc('Send').tap();
    await expect(input).toHaveText('');
    await expect(app.getById('outgoing').filter({ hasText: m })).toContainText('Sent');
  }
});

test('a fresh space has an empty room', async ({ device }) => {
  const space = await device.newSpace();
  const app = await space.launch('fixtures/apks/chat.apk');
  await join(app, 'Eli');
  await expect(app.getById('empty')).toHaveText('No messages yet');
});

test('leaving the room asks for a name again', async ({ app }) => {
  await join(app, 'Fay');
  await app.getByDesc('Leave room').tap();
  await expect(app.getById('name')).toBeVisible();
  await expect(app.getById('name')).toHaveText('');
});

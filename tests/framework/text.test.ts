import { test, expect } from '@playwright/test';
import { plain, runInline, type InlineRun } from './inline.js';

/**
 * Text as Playwright reads it (issue 11, item 4): a node's text is its own and its descendants',
 * the same for toHaveText, toContainText, textContent() and filter({ hasText }); the array forms
 * check every match in order; locator.or() and locator.and() combine locators.
 */
test.describe.configure({ mode: 'default' });

let run: InlineRun;

// The chat server lives per space (shared by every instance in it): each test takes a space of
// its own so the messages of earlier tests are not in its room.
const CHAT = `import { test as base, expect, type App } from 'nestwright';
const test = base.extend<{ chat: App }>({
  chat: async ({ device }, use) => {
    const space = await device.newSpace();
    const app = await space.launch('fixtures/apks/chat.apk');
    await app.getById('name').fill('Ana');
    await app.getByRole('button', { name: 'Join' }).tap();
    for (const m of ['row text check', 'second one']) {
      await app.getById('message_input').fill(m);
      await app.getByDesc('Send').tap();
    }
    await expect(app.getById('message_status')).toHaveText(['Sent', 'Sent']);
    await use(app);
  },
});
`;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  run = await runInline({
    'text.spec.ts': `${CHAT}
test('a row reads as the text of its children', async ({ chat: app }) => {
  const row = app.getById('outgoing').filter({ hasText: 'row text check' });
  await expect(row).toContainText('row text check');
  await expect(row).toHaveText('row text check Sent');
  expect(await row.textContent()).toBe('row text check Sent');
  // hasText reads the same text, across children.
  await expect(app.getById('outgoing').filter({ hasText: 'check Sent' })).toHaveCount(1);
  await expect(row).not.toContainText('ROW TEXT');
  await expect(row).toContainText('ROW TEXT', { ignoreCase: true });
  expect(await app.getById('message_text').allTextContents()).toEqual(['row text check', 'second one']);
});
test('array forms check every match in order', async ({ chat: app }) => {
  const texts = app.getById('message_text');
  await expect(texts).toHaveText(['row text check', 'second one']);
  await expect(texts).toHaveText([/row/, /^second/]);
  await expect(texts).not.toHaveText(['second one', 'row text check']);
  await expect(texts).not.toHaveText(['row text check']);
  await expect(texts).toContainText(['text', 'second']);
  await expect(texts).toContainText(['second']);
  await expect(texts).not.toContainText(['second', 'row']);
});
test('the array form fails like Playwright', async ({ chat: app }) => {
  await expect(app.getById('message_text')).toHaveText(['row text check'], { timeout: 300 });
});
test('or and and', async ({ chat: app }) => {
  await expect(app.getByText('row text check').or(app.getByText('second one'))).toHaveCount(2);
  await expect(app.getByText('row text check').or(app.getByText('no such text'))).toHaveText('row text check');
  await expect(app.getById('message_text').and(app.getByText('second one'))).toHaveText('second one');
  await expect(app.getById('message_text').and(app.getByText('Sent'))).toHaveCount(0);
  await app.getById('message_input').or(app.getByText('no such')).fill('typed via or');
  await expect(app.getById('message_input')).toHaveText('typed via or');
});
test('or across app instances is refused', async ({ chat: app }) => {
  const ben = await app.newInstance();
  const error = (() => {
    try {
      app.getByText('a').or(ben.getByText('b'));
    } catch (e) {
      return e as { code?: string; message: string };
    }
  })();
  expect(error?.code).toBe('USAGE');
  expect(error?.message).toContain('locator.or: the two locators belong to different app instances');
});
`,
  });
});

for (const title of [
  'a row reads as the text of its children',
  'array forms check every match in order',
  'or and and',
  'or across app instances is refused',
]) {
  test(title, () => {
    const r = run.result(title);
    expect(r.status, r.error).toBe('passed');
  });
}

test('a failed array form shows what every match holds', () => {
  const r = run.result('the array form fails like Playwright');
  expect(r.status).toBe('failed');
  const msg = plain(r.error);
  expect(msg).toContain('toHaveText');
  expect(msg).toContain('Received: ["row text check","second one"]');
});

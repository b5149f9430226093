import { test, expect } from '@playwright/test';
import { plain, runInline, type InlineRun } from './inline.js';

/**
 * An empty editable field has the text `''` (issue 28, item 1), as an empty `<input>` has in
 * Playwright: `toHaveText('')`, `toHaveText(/^$/)`, `not.toHaveText(/./)`, `toContainText('')`,
 * `textContent()` and `filter({ hasText: '' })` agree on it, on both action paths (the device's
 * `selector_actions` and the client-side loop). A failed matcher prints what it expected
 * (`Expected: ""`), never a placeholder.
 */
test.describe.configure({ mode: 'default' });

const PATHS = ['auto', 'off'] as const;

/** Every way of asking "is this field empty", in one helper the specs call. */
const EMPTY = `
async function expectEmpty(field: Locator) {
  await expect(field).toHaveText('');
  await expect(field).toHaveText(/^$/);
  await expect(field).not.toHaveText(/./);
  await expect(field).toContainText('');
  expect(await field.textContent()).toBe('');
  expect(await field.allTextContents()).toEqual(['']);
  await expect(field.filter({ hasText: '' })).toHaveCount(1);
  await expect(field.filter({ hasText: /^$/ })).toHaveCount(1);
  await expect(field.filter({ hasNotText: /./ })).toBeVisible();
}
const strip = (s: string) => s.replace(/\\u001b\\[[0-9;]*m/g, '');
`;

const SPEC = (path: string) => `test.describe('${path}', () => {
  test.use({ deviceActions: '${path}' });

  test('chat: the message input after sending', async ({ device }) => {
    // A space of its own: the chat room is per space.
    const space = await device.newSpace();
    const app = await space.launch('fixtures/apks/chat.apk');
    await app.getById('name').fill('Ana');
    await app.getByRole('button', { name: 'Join' }).tap();
    const input = app.getById('message_input');
    await input.fill('Lunch at noon?');
    await expect(input).toHaveText('Lunch at noon?');
    await app.getByDesc('Send').tap();
    await expect(app.getById('message_text')).toHaveText('Lunch at noon?');
    await expectEmpty(input);
    // The row that holds the input reads as the input's empty text plus nothing else.
    await expect(app.getByRole('textbox').filter({ hasText: /^$/ })).toHaveCount(1);
  });

  test('shop: a freshly cleared address field', async ({ app }) => {
    await app.launch({ activity: '.CheckoutActivity' });
    const address = app.getById('address');
    await address.fill('221B Baker Street');
    await expect(address).toHaveText('221B Baker Street');
    await expect(address).not.toHaveText('');
    await address.clear();
    await expectEmpty(address);
  });

  test('shop: a field never typed into', async ({ app }) => {
    const email = app.getById('email');
    await expect(email).toBeVisible();
    await expectEmpty(email);
    // The password field is empty too (it shows no bullets).
    await expectEmpty(app.getById('password'));
  });

  test('failure messages print the expected value', async ({ app }) => {
    const email = app.getById('email');
    const messages: string[] = [];
    const fail = async (p: Promise<unknown>) => {
      const e = await p.then(() => null, (x: Error) => x);
      expect(e, 'the assertion should have failed').not.toBeNull();
      messages.push(strip(e!.message));
      return strip(e!.message);
    };
    let m = await fail(expect(email).not.toHaveText('', { timeout: 200 }));
    expect(m).toContain('expect(locator).not.toHaveText("") failed');
    expect(m).toContain('Expected: not ""');
    expect(m).toContain('Received: ""');
    m = await fail(expect(email).toHaveText('ana@example.com', { timeout: 200 }));
    expect(m).toContain('Expected: "ana@example.com"');
    expect(m).toContain('Received: ""');
    m = await fail(expect(email).toHaveText(/./, { timeout: 200 }));
    expect(m).toContain('Expected: /./');
    m = await fail(expect(email).not.toContainText('', { timeout: 200 }));
    expect(m).toContain('Expected: not ""');
    m = await fail(expect(email).toHaveText(['', 'x'], { timeout: 200 }));
    expect(m).toContain('Expected: ["", "x"]');
    // The matchers without an argument say the state they wanted.
    m = await fail(expect(app.getById('nothing_like_this')).toBeVisible({ timeout: 200 }));
    expect(m).toContain('expect(locator).toBeVisible() failed');
    expect(m).toContain('Expected: visible');
    m = await fail(expect(email).toBeHidden({ timeout: 200 }));
    expect(m).toContain('Expected: hidden');
    const terms = app.getByRole('checkbox', { name: 'I accept the terms' });
    m = await fail(expect(terms).toBeChecked({ timeout: 200 }));
    expect(m).toContain('Expected: checked');
    expect(m).toContain('Received: unchecked');
    m = await fail(expect(email).not.toBeEnabled({ timeout: 200 }));
    expect(m).toContain('Expected: not enabled');
    m = await fail(expect(email).toBeDisabled({ timeout: 200 }));
    expect(m).toContain('Expected: disabled');
    m = await fail(expect(terms).toBeFocused({ timeout: 200 }));
    expect(m).toContain('Expected: focused');
    m = await fail(expect(app.getById('email')).toHaveCount(0, { timeout: 200 }));
    expect(m).toContain('Expected: 0');
    expect(m).toContain('Received: 1');
    m = await fail(expect(app).toHaveActivity('', { timeout: 200 }));
    expect(m).toContain('expect(app).toHaveActivity("") failed');
    expect(m).toContain('Expected: ""');
    expect(m).toContain('Received: .LoginActivity');
    m = await fail(expect(app).not.toBeInForeground({ timeout: 200 }));
    expect(m).toContain('Expected: not in foreground');
    expect(m).toMatch(/Received: com\\.nestwright\\.shop(@\\S+)? in front/);
    m = await fail(expect(app).toHaveCrashed({ timeout: 200 }));
    expect(m).toContain('Expected: crashed');
    await email.fill('ana@example.com');
    m = await fail(expect(email).toHaveText('', { timeout: 200 }));
    expect(m).toContain('expect(locator).toHaveText("") failed');
    expect(m).toContain('Expected: ""');
    expect(m).toContain('Received: "ana@example.com"');
    // No message says what it wanted with the matcher's name in words.
    for (const x of messages) expect(x).not.toMatch(/Expected: (not )?(have|be|contain) /);
  });
});`;

let run: InlineRun;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  run = await runInline({
    'empty.spec.ts': `import { test, expect, type Locator } from 'nestwright';\ntest.use({ apk: 'fixtures/apks/shop.apk' });\n${EMPTY}\n${PATHS.map(SPEC).join('\n')}\n`,
  });
});

for (const path of PATHS) {
  for (const name of [
    'chat: the message input after sending',
    'shop: a freshly cleared address field',
    'shop: a field never typed into',
    'failure messages print the expected value',
  ]) {
    test(`${path}: ${name}`, () => {
      const r = run.result(`${path} > ${name}`);
      expect(r.status, plain(r.error)).toBe('passed');
    });
  }
}

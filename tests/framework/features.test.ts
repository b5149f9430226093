import { test, expect } from '@playwright/test';
import { attachmentText, plain, runInline, type InlineRun } from './inline.js';

/**
 * Framework features beyond the basics, end to end: screenshots in trajectories, lists scrolled
 * into view, several instances and spaces in one test, intents.
 */
test.describe.configure({ mode: 'default' });

const PNG_MAGIC = '89504e470d0a1a0a';

let run: InlineRun;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  run = await runInline(
    {
      // Playwright's screenshot option is worker-scoped: set per file, not per describe.
      'shots-every.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', screenshot: 'on' });
test.describe('every step', () => {
  test('every-step shots', async ({ app }) => {
    await app.getByText('New note').tap();
    await app.getById('title').fill('Pic');
    await expect(app.getById('title')).toHaveText('Pic');
  });
});
`,
      'shots-failure.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', screenshot: 'only-on-failure' });
test.describe('only on failure', () => {
  test('failure shot', async ({ app }) => {
    await app.getByText('New note').tap();
    await app.getByText('Nope').tap({ timeout: 300 });
  });
});
`,
      'shots.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
test('app.screenshot', async ({ app }) => {
  const png = await app.screenshot();
  expect(png?.subarray(0, 8).toString('hex')).toBe('${PNG_MAGIC}');
});
`,
      'scroll.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
test('tap scrolls a long list to the note', async ({ app }) => {
  await app.intent({ activity: '.MainActivity', extras: { sample_notes: 300 } });
  await expect(app.getByText('Ideas 2', { exact: true })).toBeVisible();
  await app.getByText('Budget 57', { exact: true }).tap({ timeout: 30_000 });
  await expect(app.getById('title')).toHaveText('Budget 57');
});
test('scrollIntoView goes back up too', async ({ app }) => {
  await app.intent({ activity: '.MainActivity', extras: { sample_notes: 40 } });
  await app.getByText('Call 39', { exact: true }).scrollIntoView({ timeout: 30_000 });
  await expect(app.getByText('Call 39', { exact: true })).toBeVisible();
  await app.getByText('Ideas 2', { exact: true }).scrollIntoView({ timeout: 30_000 });
  await expect(app.getByText('Ideas 2', { exact: true })).toBeVisible();
});
test('swipe moves the list', async ({ app }) => {
  await app.intent({ activity: '.MainActivity', extras: { sample_notes: 40 } });
  await expect(app.getByText('Ideas 2', { exact: true })).toBeVisible();
  await app.getById('notes').swipe('up', { distance: 0.8 });
  await expect(app.getByText('Ideas 2', { exact: true })).toBeHidden();
});
`,
      'own-device.spec.ts': `import { test, expect, devices } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', deviceOptions: devices.sim({ slots: 2 }) });
test('a file with its own simulator options', async ({ app, device }) => {
  expect((await device.info())?.capabilities.process_slots).toBe(2);
  await expect(app.getByText('New note')).toBeVisible();
});
`,
      'multi.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/chat.apk' });
test('two instances talk', async ({ app }) => {
  const ben = await app.newInstance();
  expect(ben.instance).not.toBe(app.instance);
  await app.getById('name').fill('Ana');
  await app.getByRole('button', { name: 'Join' }).tap();
  await ben.getById('name').fill('Ben');
  await ben.getByRole('button', { name: 'Join' }).tap();
  await app.getById('message_input').fill('Hi Ben');
  await app.getByDesc('Send').tap();
  await expect(ben.getByText('Hi Ben')).toBeVisible();
  await expect(ben.getById('incoming').getByText('Ana')).toBeVisible();
});
test('space.launch and device.newSpace', async ({ app, space, device }) => {
  const notes = await space.launch('fixtures/apks/notes.apk');
  await expect(notes.getByText('New note')).toBeVisible();
  const other = await device.newSpace('second-screen');
  const remote = await other.launch('fixtures/apks/notes.apk');
  await remote.getByText('New note').tap();
  await remote.getById('title').fill('Only in space two');
  await remote.getByRole('button', { name: 'Save' }).tap();
  await expect(remote.getByText('Only in space two')).toBeVisible();
  await expect(notes.getByText('Only in space two')).toBeHidden();
  await expect(app.getById('name')).toBeVisible();
});
`,
    },
    // One worker: a second would cost its start-up (Playwright and nestwright loaded again) and check nothing more.
    { workers: 1 },
  );
});

const trajectoryOf = (title: string) =>
  JSON.parse(attachmentText(run.result(title).attachments.find((a) => a.name === 'nestwright-trajectory')!));

test("screenshot: 'on' attaches a PNG after each step, named in the trajectory", async () => {
  const r = run.result('every step > every-step shots');
  expect(r.status, r.error).toBe('passed');
  const t = trajectoryOf('every step > every-step shots');
  expect(t.steps).toHaveLength(3);
  for (const s of t.steps) {
    const a = r.attachments.find((x) => x.name === s.screenshots.after);
    expect(a?.contentType).toBe('image/png');
    expect(Buffer.from(a!.body!, 'base64').subarray(0, 8).toString('hex')).toBe(PNG_MAGIC);
  }
});

test("screenshot: 'only-on-failure' attaches one PNG, for the failed step", async () => {
  const r = run.result('only on failure > failure shot');
  expect(r.status).toBe('failed');
  const t = trajectoryOf('only on failure > failure shot');
  expect(t.steps.map((s: any) => [s.result, !!s.screenshots.after])).toEqual([
    ['ok', false],
    ['failed', true],
  ]);
  expect(r.attachments.filter((a) => a.contentType === 'image/png')).toHaveLength(1);
});

test('app.screenshot() returns a PNG', async () => {
  expect(run.result('app.screenshot').status, run.result('app.screenshot').error).toBe('passed');
});

test('actions scroll a virtualized list to bring the node into view', async () => {
  const r = run.result('tap scrolls a long list to the note');
  expect(r.status, r.error).toBe('passed');
});

test('scrollIntoView scrolls down, and back up at the end of the list', async () => {
  const r = run.result('scrollIntoView goes back up too');
  expect(r.status, r.error).toBe('passed');
  expect(
    trajectoryOf('scrollIntoView goes back up too').steps.filter((s: any) => s.api === 'locator.scrollIntoView'),
  ).toHaveLength(2);
});

test('locator.swipe drags the list', async () => {
  const r = run.result('swipe moves the list');
  expect(r.status, r.error).toBe('passed');
});

test('app.newInstance(): two instances of one app in one test, each with its own data', async () => {
  const r = run.result('two instances talk');
  expect(r.status, plain(r.error)).toBe('passed');
  const instances = new Set(trajectoryOf('two instances talk').steps.map((s: any) => s.instance));
  expect(instances.size).toBe(2);
});

test('test.use({ deviceOptions: devices.sim({ slots }) }) gets a simulator with those options', async () => {
  const r = run.result('a file with its own simulator options');
  expect(r.status, plain(r.error)).toBe('passed');
});

test('space.launch() and device.newSpace(): another app, another screen', async () => {
  const r = run.result('space.launch and device.newSpace');
  expect(r.status, plain(r.error)).toBe('passed');
});

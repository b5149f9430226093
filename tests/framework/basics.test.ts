import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { childBundle } from '../child-bundle.js';
import { childEnv } from '../inline-run.js';
import { attachmentText, plain, runInline, type InlineRun } from './inline.js';

/**
 * The basics of the framework, end to end: one Playwright run (child process) of inline specs
 * against the embedded simulated device, and one test here per behaviour, asserting on the JSON
 * report. One run for all, because starting Playwright and the simulator is what costs.
 */
test.describe.configure({ mode: 'default' });

const NOTES = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
`;

let run: InlineRun;

// Tests meant to fail whose error is all that is checked are declared test.fail(): a test that
// fails unexpectedly makes Playwright start a new worker for the next one. 'wrong text' fails
// unexpectedly: a failed test's device log and tree, checked on it, are kept only then.
test.beforeAll(async () => {
  test.setTimeout(240_000);
  run = await runInline(
    {
      'flow.spec.ts':
        NOTES +
        `
test('creates a note', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Buy milk');
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Buy milk')).toBeVisible();
  await expect(app).toHaveActivity('.MainActivity');
});
`,
      'strict.spec.ts':
        NOTES +
        `
test.fail('two notes', async ({ app }) => {
  for (const t of ['Milk', 'Milk and honey']) {
    await app.getByText('New note').tap();
    await app.getById('title').fill(t);
    await app.getByRole('button', { name: 'Save' }).tap();
  }
  await app.getByText('Milk').tap();
});
`,
      'missing.spec.ts':
        NOTES +
        `
test.fail('missing', async ({ app }) => {
  await app.getByText('Delete all').tap({ timeout: 500 });
});
`,
      'text.spec.ts':
        NOTES +
        `
test('wrong text', async ({ app }) => {
  await expect(app.getById('empty')).toHaveText('Nothing here', { timeout: 300 });
});
`,
      'iso.spec.ts':
        NOTES +
        `
test.describe.configure({ mode: 'serial' });
test('first', async ({ app }) => {
  console.log('INSTANCE', app.instance);
  await app.getByText('New note').tap();
  await app.getById('title').fill('Secret of first');
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Secret of first')).toBeVisible();
});
test('second', async ({ app }) => {
  console.log('INSTANCE', app.instance);
  await expect(app.getByText('No notes yet')).toBeVisible();
  await expect(app.getByText('Secret of first')).toBeHidden();
});
`,
      'use-a.spec.ts':
        NOTES +
        `
test('notes from a.spec', async ({ app }) => {
  expect(app.package).toBe('com.nestwright.notes');
  await expect(app.getByText('New note')).toBeVisible();
});
`,
      'use-b.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'com.android.settings' });
test('settings from b.spec', async ({ app }) => {
  expect(app.package).toBe('com.android.settings');
  await expect(app.getByText('Network & internet')).toBeVisible();
});
test.describe('inner override', () => {
  test.use({ apk: 'fixtures/apks/notes.apk' });
  test('notes again', async ({ app }) => {
    expect(app.package).toBe('com.nestwright.notes');
  });
});
`,
      'traj.spec.ts':
        NOTES +
        `
test('traj', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Eggs');
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Eggs')).toBeVisible();
});
`,
      // The package's classes at a spec's top level: stand-ins in Playwright's runner (which only
      // lists the tests), the real classes (or stand-ins that become their subclasses) in the
      // worker that runs them (framework/entry.ts).
      'entry.spec.ts':
        NOTES +
        `
import { App, Locator, Space } from 'nestwright';
class SignedInApp extends App {}
try {
  Reflect.construct(App, []);
} catch (e) {
  if (!process.env.TEST_WORKER_INDEX) console.error('runner: ' + (e as Error).message);
}
test('the classes', async ({ app }) => {
  expect(app).toBeInstanceOf(App);
  expect(app.getByText('New note')).toBeInstanceOf(Locator);
  // Declared at the top level, maybe before the worker had loaded App: a subclass of it either way.
  expect(SignedInApp.prototype).toBeInstanceOf(App);
  expect(typeof Space.create).toBe('function');
});
`,
    },
    // One worker: a second would cost its start-up (Playwright and nestwright loaded again) and check nothing more.
    { workers: 1 },
  );
});

test('a notes flow passes: tap, fill, save, assert', async () => {
  const r = run.result('creates a note');
  expect(r.status, r.error).toBe('passed');
  const steps = r.steps.join('\n');
  expect(steps).toContain("Tap text='New note'");
  expect(steps).toContain('Type "Buy milk" into id=title');
  expect(steps).toContain("Tap role=button[name='Save']");
});

test('strict mode: an action on a locator with two matches fails and lists them', async () => {
  const r = run.result('two notes');
  expect(r.status).toBe('failed');
  const msg = plain(r.error);
  expect(msg).toContain("locator.tap: strict mode violation: text='Milk' resolved to 2 nodes:");
  expect(msg).toMatch(/1\) text "Milk" id=note_title \[/);
  expect(msg).toMatch(/2\) text "Milk and honey" id=note_title \[/);
  expect(msg).toContain('Use .first(), .nth(i), .filter({ hasText }) or a more specific locator.');
});

test('a missing element: locator.tap times out with its call log and the screen', async () => {
  const r = run.result('missing');
  expect(r.status).toBe('failed');
  const msg = plain(r.error);
  expect(msg).toContain('locator.tap: timeout 500ms exceeded.');
  expect(msg).toContain("Call log:\n  - waiting for text='Delete all'\n    - no match yet");
  expect(msg).toMatch(/Screen:\n  com\.nestwright\.notes \.MainActivity — snapshot s_\d+/);
  expect(msg).toContain('button "New note" id=new_note');
});

test('toHaveText failure shows Expected, Received, the call log and the screen', async () => {
  const r = run.result('wrong text');
  expect(r.status).toBe('failed');
  const msg = plain(r.error);
  expect(msg).toContain('expect(locator).toHaveText("Nothing here") failed');
  expect(msg).toContain('Locator: id=empty');
  expect(msg).toContain('Expected: "Nothing here"');
  expect(msg).toContain('Received: "No notes yet"');
  expect(msg).toContain('Call log:\n  - id=empty: "No notes yet"');
  expect(msg).toContain('Screen:\n  com.nestwright.notes .MainActivity');
});

test("a failed test carries its instance's device log and the full tree, named in the trajectory", async () => {
  const r = run.result('wrong text');
  const logcat = r.attachments.find((a) => a.name.startsWith('logcat '));
  expect(logcat?.name).toMatch(/^logcat com\.nestwright\.notes@\S+$/);
  expect(logcat?.contentType).toBe('text/plain');
  // The instance's own lines: its launch, not another instance's or the device's.
  expect(attachmentText(logcat!)).toContain('com.nestwright.notes');
  const tree = r.attachments.find((a) => a.name === 'full tree');
  expect(JSON.parse(attachmentText(tree!)).nodes.length).toBeGreaterThan(0);
  const traj = JSON.parse(attachmentText(r.attachments.find((a) => a.name === 'nestwright-trajectory')!));
  expect(traj.failure).toEqual({ logs: [logcat!.name], tree: 'full tree' });
  expect(traj.meta).toMatchObject({ device: 'sim', package: 'com.nestwright.notes' });
  // A passing test carries neither.
  expect(run.result('creates a note').attachments.map((a) => a.name)).toEqual(['nestwright-trajectory']);
});

test('isolation: each test has its own instance and sees none of the data of another', async () => {
  expect(run.result('first').status, run.result('first').error).toBe('passed');
  expect(run.result('second').status, run.result('second').error).toBe('passed');
  const out = (title: string) =>
    (
      (run.raw as any).suites.find((s: any) => s.title === 'iso.spec.ts').specs.find((sp: any) => sp.title === title)
        .tests[0].results[0].stdout as any[]
    )
      .map((o) => o.text)
      .join('');
  expect(out('first')).toMatch(/^INSTANCE \S+/);
  expect(out('second')).toMatch(/^INSTANCE \S+/);
  expect(out('first')).not.toBe(out('second'));
});

test('test.use({ apk }) per file and per describe', async () => {
  for (const title of ['notes from a.spec', 'settings from b.spec', 'inner override > notes again']) {
    expect(run.result(title).status, `${title}: ${run.result(title).error}`).toBe('passed');
  }
});

test('the trajectory attachment records every step', async () => {
  const r = run.result('traj');
  expect(r.status, r.error).toBe('passed');
  const a = r.attachments.find((x) => x.name === 'nestwright-trajectory');
  expect(a?.contentType).toBe('application/json');
  const t = JSON.parse(attachmentText(a!));
  expect(t.version).toBe(1);
  expect(t.steps.map((s: any) => s.api)).toEqual(['locator.tap', 'locator.fill', 'locator.tap', 'expect.toBeVisible']);
  for (const [i, s] of t.steps.entries()) {
    expect(s).toMatchObject({ index: i, result: 'ok', source: 'locator', error: null });
    expect(typeof s.kind).toBe('string');
    expect(typeof s.selector).toBe('string');
    expect(s.before).toMatch(/^s_\d+$/);
    expect(s.after).toMatch(/^s_\d+$/);
    expect(typeof s.startedAt).toBe('number');
    expect(typeof s.durationMs).toBe('number');
  }
  expect(t.steps[0]).toMatchObject({
    kind: 'action',
    selector: "text='New note'",
    node: { role: 'button', text: 'New note' },
  });
  expect(t.steps[1]).toMatchObject({ title: expect.stringContaining('Eggs'), node: { editable: true } });
  expect(t.steps[3]).toMatchObject({ kind: 'assertion', selector: "text='Eggs'" });
});

test("App, Locator and Space: stand-ins at a spec's top level in the runner, the classes in the worker", async () => {
  const r = run.result('the classes');
  expect(r.status, r.error).toBe('passed');
  expect(run.stderr).toContain(
    "runner: App: not loaded yet: nestwright loads it in Playwright's workers, for the tests, hooks and fixtures (Playwright's runner only lists the tests).",
  );
});

test('the bundled entry (framework/entry.ts) exports every value framework/index.ts declares, the classes bound', async () => {
  const declared = Object.keys(await import('../../framework/index.js')).sort();
  const entry = pathToFileURL(path.join(await childBundle(), 'dist/framework/index.js')).href;
  // A process that is not Playwright's runner: the entry loads the rest and binds the classes.
  // The entry loads the rest without holding up its import: the probe waits for the classes.
  const probe = `const m = await import(${JSON.stringify(entry)});
for (let i = 0; i < 500 && typeof m.App.prototype.close !== 'function'; i++) await new Promise((r) => setTimeout(r, 10));
console.log(JSON.stringify({ keys: Object.keys(m).sort(), tap: typeof m.Locator.prototype.tap, close: typeof m.App.prototype.close, create: typeof m.Space.create }));`;
  const out = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8', env: childEnv() }),
  );
  expect(out).toEqual({ keys: declared, tap: 'function', close: 'function', create: 'function' });
});

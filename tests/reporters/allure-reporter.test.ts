import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { reportCommand } from '../../cli/commands/report.js';
import { FAKE_DRIVER, flatSteps, label, param, runWithAllure, type AllureRun } from './run-inline.js';

const SPEC = `
import { test, expect, screen } from ${JSON.stringify(FAKE_DRIVER)};
const home = screen(1);
const editor = screen(2);
const newNote = { role: 'button', text: 'New note', id: 'new_note', bounds: [0, 348, 1080, 492] as [number, number, number, number] };
const save = { role: 'button', text: 'Save', id: 'save', bounds: [0, 412, 1080, 556] as [number, number, number, number] };

test('creates a note', async ({ nw }) => {
  nw.meta = { device: 'sim', space: 'sp_7', instance: 'i1', package: 'com.example.notes', versionName: '1.2.0', versionCode: 12,
    channel: 'accessibility', faultProfile: 'flaky-tree', options: { apk: 'fixtures/apks/notes.apk', channel: 'accessibility', actionTimeout: 2000 } };
  await test.step('add a note', async () => {
    await nw.step({ title: "Tap text='New note'", selector: "text='New note'", node: newNote, before: home, after: editor, durationMs: 321,
      observation: { snapshot_id: 's_0', screen: { width: 1080, height: 2400, rotation: 0 }, nodes: [] } });
    await nw.step({ title: "Tap role=button[name='Save']", selector: "role=button[name='Save']", node: save, before: editor, after: home });
  });
  await nw.step({ title: "Tap role=button[name='Save']", selector: "role=button[name='Save']", node: save, before: editor, after: home });
  await expect(async () => nw.step({ title: "Expect text='Buy milk' toBeVisible", kind: 'assertion', selector: "text='Buy milk'" })).toPass();
});

test('screens after each step only', async ({ nw }) => {
  await nw.step({ title: "Tap text='New note'", selector: "text='New note'", node: newNote, after: editor });
  await nw.step({ title: 'Type "Milk" into id=title', selector: 'id=title', node: { role: 'textbox', id: 'title', bounds: [0, 252, 1080, 412] }, after: screen(3) });
});

test('crashes as a known bug', async ({ nw }) => {
  test.fail(true, 'BUG-12: Save crashes on an empty title');
  await nw.step({ title: "Tap role=button[name='Save']", selector: "role=button[name='Save']", node: save,
    error: { code: 'APP_CRASHED', message: 'locator.tap: com.example.notes@i1 crashed', name: 'AppCrashedError' } });
});

test('malformed trajectory', async ({}, info) => {
  await info.attach('nestwright-trajectory', { body: JSON.stringify({ version: 1, steps: [{ index: 'zero' }] }), contentType: 'application/json' });
});

// The tests that fail unexpectedly (what the reporter's failed and broken statuses are for) come
// last: Playwright starts a new worker after each of them for the tests still to run.
test('app crash', async ({ nw }) => {
  await nw.step({ title: "Tap text='New note'", selector: "text='New note'", node: newNote });
  await nw.fail({ nodes: [{ id: 'n1', role: 'button' }] }, ['E AndroidRuntime: FATAL EXCEPTION: main', 'E AndroidRuntime: java.lang.NullPointerException']);
  await nw.step({ title: "Tap role=button[name='Save']", selector: "role=button[name='Save']", node: save, before: editor,
    error: { code: 'APP_CRASHED', message: 'locator.tap: com.example.notes@i1 crashed: java.lang.NullPointerException', name: 'AppCrashedError' } });
});

test('device fault', async ({ nw }) => {
  await nw.step({ title: "Tap text='New note'", selector: "text='New note'",
    error: { code: 'DEVICE_DISCONNECTED', message: 'locator.tap: the device runtime went away', name: 'DeviceDisconnectedError' } });
});

test('element not found', async ({ nw }) => {
  // What nestwright's failure fixture writes for this failure (framework/failure/); the reporter reads it.
  test.info().annotations.push({ type: 'failure', description: "test · TIMEOUT · locator.tap · step 0: Tap text='Nope' · the locator matched nothing usable on a screen that was stable" });
  await nw.step({ title: "Tap text='Nope'", selector: "text='Nope'", before: home,
    error: { message: "locator.tap: timeout 2000ms exceeded.\\nCall log:\\n  - waiting for text='Nope'\\n    - no match yet", name: 'TimeoutError' } });
});

test('failed assertion', async ({ nw }) => {
  await nw.step({ title: "Expect text='Buy milk' toBeVisible", kind: 'assertion', selector: "text='Buy milk'", before: home,
    error: { message: 'expect(locator).toBeVisible() failed' } });
});

test('takes too long', async ({ nw }) => {
  test.setTimeout(1_000);
  await nw.step({ title: "Tap text='New note'", selector: "text='New note'", node: newNote });
  await new Promise((r) => setTimeout(r, 5_000));
});
`;

let run: AllureRun;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(240_000); // nine tests whose screenshots are rendered: over a minute on a loaded 2-core machine
  run = await runWithAllure({ 'report.spec.ts': SPEC });
});

test('each step of the trajectory is an Allure step, nested as the test nested it, with selector, node and duration', async () => {
  const r = run.result('creates a note');
  expect(r.status, run.output).toBe('passed');
  const steps = flatSteps(r).map(({ step, depth }) => `${'  '.repeat(depth)}${step.name}`);
  expect(steps).toEqual([
    'add a note',
    "  Tap text='New note'",
    "  Tap role=button[name='Save']",
    "Tap role=button[name='Save']",
    "Expect text='Buy milk' toBeVisible",
  ]);
  const tap = r.steps[0].steps[0];
  expect(param(tap, 'selector')).toBe("text='New note'");
  expect(param(tap, 'node')).toBe('button "New note" id=new_note [0,348,1080,492]');
  expect(param(tap, 'duration')).toBe('321 ms');
  expect(tap.stop - tap.start).toBe(321);
  // The target is outlined where the tap happened; the screen after it (another one) is shown as it is.
  expect(tap.attachments.map((a: any) => a.name)).toEqual([
    'screenshot before (target highlighted)',
    'screenshot after',
    'observation before',
  ]);
  // The raw screenshots are not repeated: the trajectory names them, the step shows them highlighted.
  const everywhere = [...r.attachments, ...flatSteps(r).flatMap(({ step }) => step.attachments)].map(
    (a: any) => a.name,
  );
  expect(everywhere.filter((n: string) => /^step-\d+-(before|after)\.png$/.test(n))).toEqual([]);
});

test('the target is highlighted on the screenshot, and identical screenshots are stored once', async () => {
  const r = run.result('creates a note');
  const before = r.steps[0].steps[0].attachments[0];
  const png = PNG.sync.read(await readFile(path.join(run.resultsDir, before.source)));
  const px = (img: PNG, x: number, y: number) => [
    ...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3),
  ];
  expect([png.width, png.height]).toEqual([720, 1600]); // scaled from 1080×2400 (screenshotWidth default)
  expect(px(png, 1, 267)).toEqual([255, 45, 85]); // on the outline of [0,348,1080,492], scaled by 2/3
  expect(px(png, 360, 232)).toEqual([255, 45, 85]);
  expect(px(png, 360, 1500)).toEqual([250, 250, 250]); // far from it: the screen's background
  expect(before.source).toMatch(/^[0-9a-f]{64}-attachment\.png$/);
  // Two taps on Save, same screens, same target: the same files.
  const inGroup = r.steps[0].steps[1].attachments.map((a: any) => a.source);
  const atTop = r.steps[1].attachments.map((a: any) => a.source);
  expect(atTop).toEqual(inGroup);
});

test("with only an after screenshot per step (as the framework takes them), a step starts from the previous step's", async () => {
  const r = run.result('screens after each step only');
  expect(r.steps.map((s: any) => s.attachments.map((a: any) => a.name))).toEqual([
    ['screenshot after (target highlighted)'], // nothing before it: the only picture shows the target
    ['screenshot before (target highlighted)', 'screenshot after'],
  ]);
  const [tap, type] = r.steps;
  expect(type.attachments[0].source).not.toBe(tap.attachments[0].source); // same screen, another target
});

test('labels say where the test ran; test.use options are parameters', async () => {
  const r = run.result('creates a note');
  expect(label(r, 'device')).toBe('sim');
  expect(label(r, 'space')).toBe('sp_7');
  expect(label(r, 'instance')).toBe('i1');
  expect(label(r, 'appPackage')).toBe('com.example.notes');
  expect(label(r, 'appVersion')).toBe('1.2.0 (12)');
  expect(label(r, 'channel')).toBe('accessibility');
  expect(label(r, 'faultProfile')).toBe('flaky-tree');
  expect(label(r, 'suite')).toBe('report.spec.ts');
  expect(r.parameters).toEqual(
    expect.arrayContaining([
      { name: 'apk', value: 'fixtures/apks/notes.apk' },
      { name: 'actionTimeout', value: '2000' },
    ]),
  );
  expect(r.descriptionHtml).toContain('com.example.notes');
});

test('failures are tagged with their class and code for categories.json: crash, device fault, not found, assertion, timeout', async () => {
  const tagOf = (name: string) => /^\[([a-z]+ · [A-Z_]+)\]/.exec(run.result(name).statusDetails.message)?.[1];
  expect(tagOf('app crash')).toBe('app · APP_CRASHED');
  expect(tagOf('device fault')).toBe('device · DEVICE_DISCONNECTED');
  expect(tagOf('element not found')).toBe('test · TIMEOUT');
  expect(tagOf('failed assertion')).toBe('app · ASSERTION_FAILED');
  expect(tagOf('takes too long')).toBe('test · TEST_TIMEOUT');
  expect(run.result('element not found').labels).toContainEqual({
    name: 'failure',
    value: expect.stringMatching(/^test · TIMEOUT · locator\.tap · /),
  });
  expect(run.result('device fault').status).toBe('broken');
  expect(run.result('failed assertion').status).toBe('failed');
  const categories = JSON.parse(await readFile(path.join(run.resultsDir, 'categories.json'), 'utf8'));
  expect(categories.map((c: any) => c.name)).toEqual([
    'App faults',
    'Test faults',
    'Device or infrastructure faults',
    'Network set-up faults',
    'AI faults',
    "nestwright's own faults",
    'Other errors',
  ]);
});

test('a failed test carries the error with its code, the full tree and the logcat', async () => {
  const r = run.result('app crash');
  const names = r.attachments.map((a: any) => a.name);
  expect(names).toEqual(expect.arrayContaining(['error', 'full tree', 'logcat', 'nestwright-trajectory']));
  const body = async (name: string) =>
    readFile(path.join(run.resultsDir, r.attachments.find((a: any) => a.name === name).source), 'utf8');
  expect(JSON.parse(await body('error'))).toMatchObject({
    code: 'APP_CRASHED',
    class: 'app',
    step: { index: 1, code: 'APP_CRASHED' },
  });
  expect(await body('logcat')).toContain('FATAL EXCEPTION');
  const failedStep = r.steps.find((s: any) => s.status !== 'passed');
  expect(failedStep.statusDetails.message).toBe(
    '[APP_CRASHED] locator.tap: com.example.notes@i1 crashed: java.lang.NullPointerException',
  );
  expect(param(failedStep, 'error code')).toBe('APP_CRASHED');
});

test('a test.fail() test that fails as expected is passed, and says why', async () => {
  const r = run.result('crashes as a known bug');
  expect(r.status).toBe('passed');
  expect(r.statusDetails.message).toMatch(/^Failed as expected \(test\.fail\): \[app · APP_CRASHED\] /);
});

test('a malformed trajectory is reported on its test with the path of the bad field', async () => {
  const r = run.result('malformed trajectory');
  expect(r.steps.map((s: any) => s.name)).toEqual([
    expect.stringMatching(/^Trajectory not shown: nestwright-trajectory: steps\[0\]\.index: /),
  ]);
});

test('Allure sorts the failures into a category per class', async () => {
  test.skip(spawnSync('java', ['-version']).status !== 0, 'Allure 2 needs Java: apt-get install default-jre-headless');
  test.setTimeout(120_000);
  const out = path.join(run.dir, 'allure-report');
  const log: string[] = [];
  const code = await reportCommand(['--results', run.resultsDir, '--output', out], {
    out: (t) => log.push(t),
    err: (t) => log.push(t),
  });
  expect(code, log.join('')).toBe(0);
  const tree = JSON.parse(await readFile(path.join(out, 'data', 'categories.json'), 'utf8'));
  const byCategory = Object.fromEntries(
    tree.children.map((c: any) => [c.name, c.children.flatMap((m: any) => m.children.map((t: any) => t.name)).sort()]),
  );
  expect(byCategory).toEqual({
    'App faults': ['app crash', 'failed assertion'],
    'Device or infrastructure faults': ['device fault'],
    'Test faults': ['element not found', 'takes too long'],
  });
});

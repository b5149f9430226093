import { expect, test } from '@playwright/test';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  EMBEDDED_TOKEN_ENV,
  EMBEDDED_URL_ENV,
  startEmbeddedDevice,
  type EmbeddedDevice,
} from '../../device-runtime/providers/index.js';
import { project } from './project.js';

// One simulator for every run of these tests (each run's worker has a space of its own on it).
let sim: EmbeddedDevice;
let shared: Record<string, string>;
test.beforeAll(async () => {
  sim = await startEmbeddedDevice();
  shared = { [EMBEDDED_URL_ENV]: sim.url, [EMBEDDED_TOKEN_ENV]: sim.token };
});
test.afterAll(async () => sim?.close());

const CONFIG = `import { defineConfig } from 'nestwright';
export default defineConfig({
  testDir: './specs',
  outputDir: './test-results',
  timeout: 30_000,
  expect: { timeout: 2_000 },
  use: { deviceOptions: { provider: 'sim' }, actionTimeout: 1_500, trajectory: 'on', heal: (process.env.HEAL ?? 'suggest') as 'suggest' },
});
`;

/** Written against Notes 1.0; NOTES_APK=…notes-v2.apk runs it on 2.0, installed over 1.0 as an update. */
const SPEC = `import { test, expect } from 'nestwright';

const apk = process.env.NOTES_APK ?? 'fixtures/apks/notes.apk';
test.use({ apk: apk });
test.beforeAll(async ({ space }) => {
  if (apk.endsWith('notes-v2.apk')) await space.install('fixtures/apks/notes.apk');
});

test('creates a note', async ({ app }) => {
  await app.getByText('New note').tap();
  const title = app.getById('title');
  await title.fill('Buy milk');
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Buy milk')).toBeVisible();
});
`;

const V2 = { NOTES_APK: 'fixtures/apks/notes-v2.apk' };
const trajectoryOf = (t: { attachments: Array<{ name: string; body?: string }> }) =>
  JSON.parse(
    Buffer.from(t.attachments.find((a) => a.name === 'nestwright-trajectory')!.body!, 'base64').toString(),
  ) as { steps: Array<{ title: string; source: string; heal?: { from: string; to: string } }> };

test('a spec written against Notes 1.0 heals on 2.0 in auto mode; heal --apply makes it pass without healing', async () => {
  test.setTimeout(420_000);
  const p = await project({ 'playwright.config.ts': CONFIG, 'specs/notes.spec.ts': SPEC }, shared);

  // 1. On 1.0 it passes, and the resolutions are remembered next to the spec.
  const v1 = await p.run();
  expect(v1.tests[0], `${v1.tests[0]?.error}\n${v1.stderr}`).toMatchObject({ status: 'passed' });
  const fpFile = path.join(p.dir, 'specs/__fingerprints__/notes.spec.ts.json');
  const fps = JSON.parse(readFileSync(fpFile, 'utf8'));
  expect(
    Object.keys(fps.entries)
      .map((k) => k.replace(/^\d+:\d+ /, ''))
      .sort(),
  ).toEqual(['id=title', "role=button[name='Save']", "text='New note'"].sort());

  // 2. suggest (the default): 1.0's locators no longer match, the test fails, and the error carries the proposal.
  const suggest = await p.run(V2);
  expect(suggest.tests[0]!.status).toBe('failed');
  expect(suggest.tests[0]!.error).toContain('locator.tap: timeout');
  expect(suggest.tests[0]!.error).toMatch(
    /heal: proposal [0-9a-f]{8}: text='New note' → text=Create note \(score [01]\.\d+, margin [01]\.\d+\)/,
  );
  expect(suggest.tests[0]!.error).toContain('npx nestwright heal --apply');

  // 3. auto: the steps run on the healed locators; the test passes, marked healed.
  const auto = await p.run({ ...V2, HEAL: 'auto' });
  expect(auto.tests[0], auto.tests[0]?.error).toMatchObject({ status: 'passed' });
  const steps = trajectoryOf(auto.tests[0]!).steps.filter((s) => s.source === 'healed');
  expect(steps.map((s) => [s.heal!.from, s.heal!.to])).toEqual([
    ["text='New note'", 'text=Create note'],
    ['id=title', 'id=note_title'],
  ]);
  expect(auto.tests[0]!.annotations.filter((a) => a.type === 'healed')).toHaveLength(2);
  const shots = readdirSync(path.join(p.dir, '.nestwright/heal/proposals')).filter((f) => f.endsWith('.png'));
  expect(shots.filter((f) => f.endsWith('-before.png'))).toHaveLength(2);
  expect(shots.filter((f) => f.endsWith('-after.png'))).toHaveLength(2);

  // 4. The review: list, then apply; the spec's locator calls change and nothing else.
  const listed = await p.cli([]);
  expect(listed.code).toBe(0);
  expect(listed.out).toContain('2 healing proposals from the last run');
  expect(listed.out).toMatch(/specs\/notes\.spec\.ts:10 {2}healed in the run \(auto\)/);
  expect(listed.out).toContain('old:    id=title');
  expect(listed.out).toContain('new:    id=note_title');
  const applied = await p.cli(['--apply']);
  expect(applied.code, applied.err).toBe(0);
  const edited = readFileSync(path.join(p.dir, 'specs/notes.spec.ts'), 'utf8');
  expect(edited).toBe(
    SPEC.replace("app.getByText('New note')", "app.getByText('Create note')").replace(
      "app.getById('title')",
      "app.getById('note_title')",
    ),
  );
  expect((await p.cli([])).out).toContain('No healing proposals');

  // 5. On 2.0 with healing off, the edited spec passes.
  const fixed = await p.run({ ...V2, HEAL: 'off' });
  expect(fixed.tests[0], fixed.tests[0]?.error).toMatchObject({ status: 'passed' });
});

test('Shop 2.0 moved the cart into a menu: healing declines, and the error lists the ranked candidates', async () => {
  test.setTimeout(240_000);
  const spec = (apk: string) => `import { test, expect } from 'nestwright';
test.use({ apk: '${apk}' });
test('opens the cart', async ({ app }) => {
  await app.getById('email').fill('ann@example.com');
  await app.press('back');
  await app.getByRole('checkbox', { name: 'I accept the terms' }).tap();
  await app.getById('password').fill('secret-pw');
  await app.press('back');
  await app.getByRole('button', { name: 'Log in' }).tap();
  await expect(app.getByText('Catalog', { exact: true })).toBeVisible({ timeout: 20_000 });
  // The catalog arrives from the shop's server: its rows are on screen before the cart is tapped.
  await expect(app.getByRole('button', { name: 'Add to cart' }).first()).toBeVisible();
  await app.getByDesc('Cart', { exact: true }).tap();
  await expect(app).toHaveActivity('.CartActivity');
});
`;
  const p = await project(
    { 'playwright.config.ts': CONFIG, 'specs/shop.spec.ts': spec('fixtures/apks/shop.apk') },
    shared,
  );
  expect((await p.run()).tests[0]).toMatchObject({ status: 'passed' });
  const { writeFileSync } = await import('node:fs');
  writeFileSync(path.join(p.dir, 'specs/shop.spec.ts'), spec('fixtures/apks/shop-v2.apk'));
  const r = await p.run({ HEAL: 'auto' });
  expect(r.tests[0]!.status).toBe('failed');
  expect(r.tests[0]!.error).toMatch(/heal: not healed \((NO_CANDIDATE|BELOW_THRESHOLD)\)/);
  expect(r.tests[0]!.error).toMatch(/1\) 0\.\d\d button desc="More options" id=overflow/);
  expect(existsSync(path.join(p.dir, '.nestwright/heal/proposals'))).toBe(false);
});

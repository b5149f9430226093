import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  EMBEDDED_TOKEN_ENV,
  EMBEDDED_URL_ENV,
  startEmbeddedDevice,
  type EmbeddedDevice,
} from '../../device-runtime/providers/index.js';
import { project } from './project.js';

/**
 * The sibling mis-heal end to end: Notes' Settings screen has a row of switches with no text of
 * their own, each beside its title (`toggle_sync`, `toggle_backup`, `toggle_spellcheck`). Notes
 * 2.0 re-ids the sync switch `sync_switch`, moves its row below the backup one (so
 * `toggle_backup` sits where `toggle_sync` was) and drops spell checking. A spec written for 1.0
 * heals the sync switch through the title beside it and declines the spell-check one: the
 * switches still there are other controls, never candidates.
 */
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

const SPEC = `import { test, expect } from 'nestwright';

const apk = process.env.NOTES_APK ?? 'fixtures/apks/notes.apk';
test.use({ apk: apk });
test.beforeAll(async ({ space }) => {
  if (apk.endsWith('notes-v2.apk')) await space.install('fixtures/apks/notes.apk');
});

test('turns sync on', async ({ app }) => {
  await app.intent({ activity: '.SettingsActivity' });
  await expect(app.getByText('Settings', { exact: true })).toBeVisible();
  await app.getById('toggle_sync').tap();
  await expect(app.getByText('Notes sync across your devices')).toBeVisible();
  await expect(app.getByText('Not backed up')).toBeVisible();
});

test('turns spell checking on', async ({ app }) => {
  await app.intent({ activity: '.SettingsActivity' });
  await expect(app.getByText('Settings', { exact: true })).toBeVisible();
  await app.getById('toggle_spellcheck').tap();
  await expect(app.getByText('Misspelled words are underlined')).toBeVisible();
});
`;

const trajectoryOf = (t: { attachments: Array<{ name: string; body?: string }> }) =>
  JSON.parse(
    Buffer.from(t.attachments.find((a) => a.name === 'nestwright-trajectory')!.body!, 'base64').toString(),
  ) as { steps: Array<{ source: string; heal?: { from: string; to: string } }> };

test('Notes 2.0 re-ids and reorders its switches: the sync one heals through its title, the removed one declines, no sibling is taken', async () => {
  test.setTimeout(300_000);
  const p = await project({ 'playwright.config.ts': CONFIG, 'specs/settings.spec.ts': SPEC }, shared);

  // On 1.0 both pass, and the switches' fingerprints keep what named the other switches.
  const v1 = await p.run();
  expect(
    v1.tests.map((t) => t.status),
    `${v1.tests.map((t) => t.error).join('\n')}\n${v1.stderr}`,
  ).toEqual(['passed', 'passed']);
  const fps = JSON.parse(readFileSync(path.join(p.dir, 'specs/__fingerprints__/settings.spec.ts.json'), 'utf8')) as {
    entries: Record<string, { selector: string; fingerprint: { row?: string[]; others?: { ids: string[] } } }>;
  };
  const sync = Object.values(fps.entries).find((e) => e.selector === 'id=toggle_sync')!.fingerprint;
  expect(sync.row).toEqual(['Sync notes', 'Notes stay on this device']);
  expect(sync.others!.ids).toEqual(expect.arrayContaining(['toggle_backup', 'toggle_spellcheck']));

  // On 2.0, auto: the sync switch is healed to its new id, and the tap on it shows its effect.
  const v2 = await p.run({ NOTES_APK: 'fixtures/apks/notes-v2.apk', HEAL: 'auto' });
  const [syncTest, spellTest] = v2.tests;
  expect(syncTest, syncTest?.error).toMatchObject({ title: 'turns sync on', status: 'passed' });
  expect(
    trajectoryOf(syncTest!)
      .steps.filter((s) => s.source === 'healed')
      .map((s) => [s.heal!.from, s.heal!.to]),
  ).toEqual([['id=toggle_sync', 'id=sync_switch']]);
  // Spell checking is gone: no heal, and the backup switch in its place was passed over as the other control it is.
  expect(spellTest).toMatchObject({ title: 'turns spell checking on', status: 'failed' });
  expect(spellTest!.error).toContain('heal: not healed (NO_CANDIDATE)');
  expect(spellTest!.error).toMatch(
    /switch id=toggle_backup \[[\d,]+\] — passed over: its id 'toggle_backup' belonged to another node of the recorded screen/,
  );
  expect(spellTest!.error).toMatch(
    /switch id=sync_switch \[[\d,]+\] — passed over: it is named as another control of the recorded screen was \(row 'Sync notes'\)/,
  );
});

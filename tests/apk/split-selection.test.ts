/**
 * Bundle split selection per device (ABI, density, language), as bundletool chooses. The
 * dimension logic runs on the real split APKs of fixtures/apks/split.apks, copied under the
 * config names bundletool gives (config.arm64_v8a, config.xxhdpi, config.de…), since building a
 * split per density and language would multiply the fixtures; the plumbing runs on the real bundle.
 */
import { test, expect } from '@playwright/test';
import { inspectApk, selectSplits, type ApkFile } from '../../device-runtime/apk/index.js';
import { apk, runtime, session } from '../runtime/helpers.js';
import { fixture, groundTruth } from './helpers.js';

test.skip(!groundTruth(), 'fixtures/apks not built yet (npm run fixtures:apks)');

async function bundleFiles(): Promise<{ base: ApkFile; feature: ApkFile; config: (name: string) => ApkFile }> {
  const info = await inspectApk(fixture('split.apks'));
  const base = info.apks.find((f) => f.manifest.split.name === null)!;
  const feature = info.apks.find((f) => f.manifest.split.isFeatureSplit)!;
  const cfg = info.apks.find((f) => f.manifest.split.name?.startsWith('config.'))!;
  const config = (name: string): ApkFile =>
    structuredClone({ ...cfg, manifest: { ...cfg.manifest, split: { ...cfg.manifest.split, name } } });
  return { base, feature, config };
}

const names = (files: ApkFile[]) => files.map((f) => f.manifest.split.name ?? 'base');

test('ABI, density and language splits: one ABI, the closest density, the device languages', async () => {
  const { base, feature, config } = await bundleFiles();
  const all = [
    base,
    feature,
    ...['arm64_v8a', 'x86_64', 'armeabi_v7a', 'mdpi', 'xhdpi', 'xxhdpi', 'xxxhdpi', 'en', 'de', 'fr', 'etc2'].map((v) =>
      config(`config.${v}`),
    ),
  ];
  const phone = selectSplits(all, { abis: ['arm64-v8a', 'armeabi-v7a'], density: 420, locales: ['de-DE', 'en-US'] });
  expect(names(phone.files)).toEqual([
    'base',
    names([feature])[0],
    'config.arm64_v8a',
    'config.xxhdpi',
    'config.en',
    'config.de',
    'config.etc2',
  ]);
  expect(phone.choices.find((c) => c.split === 'config.x86_64')).toMatchObject({
    chosen: false,
    reason: expect.stringMatching(/prefers arm64-v8a/),
  });
  expect(phone.choices.find((c) => c.split === 'config.xhdpi')).toMatchObject({
    chosen: false,
    reason: expect.stringMatching(/480 dpi is closer/),
  });
  expect(phone.choices.find((c) => c.split === 'config.fr')!.chosen).toBe(false);

  const emulator = selectSplits(all, { abis: ['x86_64', 'x86'], density: 120, locales: ['fr'] });
  expect(names(emulator.files)).toEqual([
    'base',
    names([feature])[0],
    'config.x86_64',
    'config.mdpi',
    'config.fr',
    'config.etc2',
  ]);
  // Denser than every split: the highest one.
  expect(names(selectSplits(all, { abis: ['x86_64'], density: 800 }).files)).toContain('config.xxxhdpi');
});

test('a bundle with no split for the device ABI keeps them, so preflight says ABI_MISMATCH', async () => {
  const { base, config } = await bundleFiles();
  const sel = selectSplits([base, config('config.x86_64')], { abis: ['arm64-v8a'] });
  expect(names(sel.files)).toEqual(['base', 'config.x86_64']);
  expect(sel.choices[0]!.reason).toMatch(/no split matches/);
});

test('space_install_apk of a bundle lists the APKs installed and each config split choice', async () => {
  const rt = runtime({ abis: ['x86_64'] });
  const s = session(rt, 'a');
  const { space_id } = await s.ok('space_create', {});
  await s.ok('session_acquire', { space_id });
  const r = await s.ok('space_install_apk', { space_id, apk_paths: [apk('split.apks')] });
  expect(r.installed_apks![0]).toBe('base');
  expect(r.installed_apks).toContain('config.x86_64');
  expect(r.splits).toEqual([
    {
      split: 'config.x86_64',
      chosen: true,
      reason: expect.stringMatching(/x86_64 is the device's most preferred ABI/),
    },
  ]);
  const info = await s.ok('runtime_info', {});
  expect(info.extensions).toContain('split_selection');
});

/**
 * Reads every fixture APK and bundle and compares what inspectApk and preflight report with the
 * ground truth in fixtures/apks/manifest.json (produced by the fixture build with aapt/apksigner).
 */
import { test, expect } from '@playwright/test';
import { inspectApk, preflight, type ApkFile, type PreflightReport } from '../../device-runtime/apk/index.js';
import { fixture, groundTruth, type Expectation } from './helpers.js';

const gt = groundTruth();

function outcome(r: PreflightReport, pageSize: number): Expectation {
  const codes = (s: string) =>
    r.checks
      .filter((c) => c.status === s)
      .map((c) => c.code as string)
      .sort();
  // Deliberate difference from the fixture ground truth: the issue asks for NOT_16KB_ALIGNED to
  // *warn* on 4 KB-page devices (the app will break on 16 KB devices); manifest.json lists no
  // warning there. Compare everything else exactly.
  const warn = codes('warn').filter((c) => !(c === 'NOT_16KB_ALIGNED' && pageSize === 4096));
  return { installable: r.installable, reject: codes('reject'), warn };
}
const sorted = (e: Expectation): Expectation => ({
  installable: e.installable,
  reject: [...e.reject].sort(),
  warn: [...e.warn].sort(),
});

test.describe('fixture APKs match manifest.json', () => {
  test.skip(!gt, 'fixtures/apks/manifest.json not built yet (npm run fixtures:apks)');
  for (const apk of gt?.apks ?? []) {
    test(apk.file, async () => {
      const info = await inspectApk(fixture(apk.file));
      expect(info.apks).toHaveLength(1);
      const f: ApkFile = info.apks[0]!;
      const m = f.manifest;
      expect(m.package).toBe(apk.package);
      expect(m.split.name).toBe(apk.split);
      expect(m.versionCode).toBe(apk.version_code);
      expect(m.versionName).toBe(apk.version_name);
      expect(m.label).toBe(apk.label);
      expect(m.minSdk).toBe(apk.min_sdk);
      expect(m.targetSdk).toBe(apk.target_sdk);
      expect(m.launcherActivity).toBe(apk.launchable_activity);
      expect(m.usesPermissions.map((p) => p.name).sort()).toEqual([...apk.permissions].sort());
      expect(m.split.isFeatureSplit).toBe(apk.is_feature_split ?? false);
      expect(m.split.isSplitRequired).toBe(apk.is_split_required);
      expect(m.split.usesSplits).toEqual(apk.uses_split);
      expect(m.extractNativeLibs).toBe(apk.extract_native_libs);
      expect(m.hasCode).toBe(apk.has_code);
      const exported = (c: { exported: boolean | null; intentFilters: unknown[] }) =>
        c.exported ?? c.intentFilters.length > 0;
      const actions = (c: { intentFilters: Array<{ actions: string[] }> }) => c.intentFilters.flatMap((i) => i.actions);
      expect(m.activities.map((a) => ({ name: a.name, exported: exported(a), actions: actions(a) }))).toEqual(
        apk.activities.map((a) => ({ name: a.name, exported: a.exported, actions: a.actions ?? [] })),
      );
      expect(m.services.map((s) => ({ name: s.name, exported: exported(s), process: s.process ?? undefined }))).toEqual(
        apk.services.map((s) => ({ name: s.name, exported: s.exported, process: s.process })),
      );
      expect(m.receivers.map((r) => ({ name: r.name, exported: exported(r), actions: actions(r) }))).toEqual(
        apk.receivers.map((r) => ({ name: r.name, exported: r.exported, actions: r.actions ?? [] })),
      );
      expect(
        m.providers.map((p) => ({ name: p.name, exported: exported(p), authorities: p.authorities.join(';') })),
      ).toEqual(apk.providers);
      expect(Object.fromEntries(m.metaData.map((d) => [d.name, d.value]))).toEqual(apk.meta_data);
      expect(Object.fromEntries(m.properties.map((d) => [d.name, d.value]))).toEqual(apk.properties);
      expect(m.usesLibraries).toEqual(apk.uses_libraries);
      expect(
        m.usesFeatures.map((u) => u.name ?? `glEsVersion=0x${(u.glEsVersion ?? 0).toString(16).padStart(8, '0')}`),
      ).toEqual(apk.uses_features);
      expect(f.dexCount).toBe(apk.dex_count);
      expect(f.abis).toEqual([...apk.abis].sort());
      expect(
        f.nativeLibs.map((l) => ({
          path: l.path,
          abi: l.abi,
          size: l.size,
          stored: !l.compressed,
          data_offset: l.dataOffset,
          load_segment_alignment: l.pAlign,
        })),
      ).toEqual(
        apk.native_libs.map((l) => ({
          path: l.path,
          abi: l.abi,
          size: l.size,
          stored: l.stored,
          data_offset: l.stored ? l.data_offset : null,
          load_segment_alignment: l.load_segment_alignment,
        })),
      );
      expect(f.signing.schemes.filter((s) => s !== 'v3.1').sort()).toEqual([...apk.signing.schemes].sort());
      expect(f.signing.certSha256).toEqual([...new Set(apk.signing.signers.map((s) => s.cert_sha256))].sort());
      expect({ keystore: f.dexHints.keystore, gms: f.dexHints.gms, playIntegrity: f.dexHints.playIntegrity }).toEqual({
        keystore: apk.dex_markers.includes('AndroidKeyStore'),
        gms: apk.dex_markers.includes('Lcom/google/android/gms/'),
        playIntegrity: apk.dex_markers.includes('Lcom/google/android/play/core/integrity/'),
      });

      const ref = gt!.device_profiles[gt!.reference_device]!;
      expect(outcome(preflight(info, ref), ref.page_size), `preflight on ${gt!.reference_device}`).toEqual(
        sorted(apk.expected),
      );
      for (const [profile, want] of Object.entries(apk.expected_on ?? {})) {
        const dev = gt!.device_profiles[profile]!;
        expect(outcome(preflight(info, dev), dev.page_size), `preflight on ${profile}`).toEqual(sorted(want));
      }
    });
  }

  for (const b of gt?.bundles ?? []) {
    test(`bundle ${b.file}`, async () => {
      const info = await inspectApk(fixture(b.file));
      expect(info.source.kind).toBe(b.format);
      expect(info.package).toBe(b.package);
      expect(info.apks.map((f) => f.path.split('!/')[1]).sort()).toEqual(
        b.entries.filter((e) => e.endsWith('.apk')).sort(),
      );
      expect(info.apks[0]!.manifest.split.name).toBeNull();
      const ref = gt!.device_profiles[gt!.reference_device]!;
      expect(outcome(preflight(info, ref), ref.page_size)).toEqual(sorted(b.expected));
    });
  }
});

test('a base with its splits given as separate files reads as one app', async () => {
  test.skip(!gt, 'fixtures not built');
  const info = await inspectApk([
    fixture('split-config.x86_64.apk'),
    fixture('split-base.apk'),
    fixture('split-feature.apk'),
  ]);
  expect(info.source.kind).toBe('splits');
  expect(info.apks.map((f) => f.manifest.split.name)).toEqual([null, 'config.x86_64', 'feature_extra']);
  expect(info.apks[1]!.manifest.split.configForSplit ?? '').toBe('');
  expect(info.apks[2]!.manifest.split.isFeatureSplit).toBe(true);
  expect(info.abis).toEqual(['x86_64']);
  expect(info.dexCount).toBe(2);
  expect(info.label).toBe('Split');
});

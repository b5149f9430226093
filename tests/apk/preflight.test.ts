/** Each preflight code, on real fixture APKs (and, where no fixture can show it, on an edited ApkInfo). */
import { test, expect } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  inspectApk,
  preflight,
  preflightPaths,
  type ApkInfo,
  type PreflightReport,
} from '../../device-runtime/apk/index.js';
import { ApkZip } from '../../device-runtime/apk/zip.js';
import { PreflightReportSchema } from '../../device-runtime/protocol/preflight.js';
import { buildZip } from './zip-builder.js';
import { DEVICE_16K, DEVICE_4K, fixture, groundTruth } from './helpers.js';

test.skip(!groundTruth(), 'fixtures/apks not built yet (npm run fixtures:apks)');

const check = (r: PreflightReport, code: string) => {
  const c = r.checks.find((x) => x.code === code);
  expect(c, `check ${code} present`).toBeTruthy();
  return c!;
};

test('every report has one check per code and validates against the protocol schema', async () => {
  const r = preflight(await inspectApk(fixture('notes.apk')), DEVICE_16K);
  expect(PreflightReportSchema.parse(r)).toEqual(r);
  expect(r.installable).toBe(true);
  expect(new Set(r.checks.map((c) => c.code)).size).toBe(r.checks.length);
  expect(r.package).toBe('com.nestwright.notes');
});

test('SECURE_ENV_REQUIRED rejects, unless the device offers a secure environment', async () => {
  const info = await inspectApk(fixture('secure-env.apk'));
  expect(info.manifest.requireSecureEnv).toBe(true);
  expect(check(preflight(info, DEVICE_16K), 'SECURE_ENV_REQUIRED').status).toBe('reject');
  expect(check(preflight(info, { ...DEVICE_16K, secure_env: true }), 'SECURE_ENV_REQUIRED').status).toBe('ok');
});

test('ABI_MISMATCH names both ABI lists', async () => {
  const info = await inspectApk(fixture('arm64-only.apk'));
  const c = check(preflight(info, DEVICE_16K), 'ABI_MISMATCH');
  expect(c.status).toBe('reject');
  expect(c.details).toMatchObject({ appAbis: ['arm64-v8a'], deviceAbis: ['x86_64'] });
  expect(check(preflight(info, { ...DEVICE_16K, abis: ['x86_64', 'arm64-v8a'] }), 'ABI_MISMATCH')).toMatchObject({
    status: 'ok',
    details: { selectedAbi: 'arm64-v8a' },
  });
});

test('NOT_16KB_ALIGNED rejects on 16 KB pages, warns on 4 KB, and reports ELF and zip separately', async () => {
  const info = await inspectApk(fixture('native-4k.apk'));
  const c16 = check(preflight(info, DEVICE_16K), 'NOT_16KB_ALIGNED');
  expect(c16.status).toBe('reject');
  expect(c16.details).toMatchObject({
    elf: [{ path: 'lib/x86_64/libnative4k.so', pAlign: 4096 }],
    zip: [{ path: 'lib/x86_64/libnative4k.so', dataOffset: 4096 }],
  });
  expect(check(preflight(info, DEVICE_4K), 'NOT_16KB_ALIGNED').status).toBe('warn');
  expect(check(preflight(await inspectApk(fixture('native-16k.apk')), DEVICE_16K), 'NOT_16KB_ALIGNED').status).toBe(
    'ok',
  );
});

test('NOT_16KB_ALIGNED: a 16 KB ELF stored at an unaligned zip offset is reported as a zip problem only', async () => {
  // Rebuild native-16k.apk's entries with our own zip writer: the .so lands at a 4-byte-aligned offset.
  const zip = await ApkZip.open(fixture('native-16k.apk'));
  const entries = [];
  for (const e of zip.entries.values()) {
    if (e.fileName.startsWith('META-INF/')) continue;
    entries.push({ name: e.fileName, data: await zip.read(e, 1 << 24), store: e.fileName.endsWith('.so') });
  }
  await zip.close();
  const dir = test.info().outputPath();
  const p = join(dir, 'misaligned.apk');
  writeFileSync(p, buildZip(entries));
  const info = await inspectApk(p);
  const lib = info.apks[0]!.nativeLibs[0]!;
  expect(lib).toMatchObject({ elfAligned16k: true, zipAligned16k: false, compressed: false });
  const c = check(preflight(info, DEVICE_16K), 'NOT_16KB_ALIGNED');
  expect(c.status).toBe('reject');
  expect(c.details).toMatchObject({ elf: [], zip: [{ path: lib.path, dataOffset: lib.dataOffset }] });
  expect(check(preflight(info, DEVICE_16K), 'UNSIGNED').status).toBe('reject');
});

test('SPLIT_INCOMPLETE: base without its required splits, config or feature split without a base', async () => {
  for (const [files, problem] of [
    [['split-base.apk'], /isSplitRequired|uses split/],
    [['split-config.x86_64.apk'], /no base APK/],
    [['split-feature.apk'], /no base APK/],
    [['split-base.apk', 'split-config.x86_64.apk'], /feature_extra/],
  ] as const) {
    const r = preflight(await inspectApk(files.map(fixture)), DEVICE_16K);
    const c = check(r, 'SPLIT_INCOMPLETE');
    expect(c.status, files.join('+')).toBe('reject');
    expect(c.message).toMatch(problem);
    expect(r.installable).toBe(false);
  }
  const complete = preflight(
    await inspectApk(['split-base.apk', 'split-config.x86_64.apk', 'split-feature.apk'].map(fixture)),
    DEVICE_16K,
  );
  expect(complete.installable).toBe(true);
});

test('SPLIT_INCOMPLETE: required split types not provided', async () => {
  const info = structuredClone(
    await inspectApk(['split-base.apk', 'split-config.x86_64.apk', 'split-feature.apk'].map(fixture)),
  );
  info.apks[0]!.manifest.split.requiredSplitTypes = ['language', 'density'];
  info.apks[2]!.manifest.split.splitTypes = ['language'];
  const c = check(preflight(info, DEVICE_16K), 'SPLIT_INCOMPLETE');
  expect(c.status).toBe('reject');
  expect(c.message).toContain('density');
});

test('SPLIT_MISMATCH: version, package or certificates differ across splits', async () => {
  const version = preflight(
    await inspectApk(['split-base.apk', 'split-mismatch-config.apk', 'split-feature.apk'].map(fixture)),
    DEVICE_16K,
  );
  expect(check(version, 'SPLIT_MISMATCH')).toMatchObject({ status: 'reject' });
  expect(check(version, 'SPLIT_MISMATCH').message).toMatch(/versionCode 2/);
  const pkg = preflight(await inspectApk(['notes.apk', 'split-config.x86_64.apk'].map(fixture)), DEVICE_16K);
  expect(check(pkg, 'SPLIT_MISMATCH').message).toMatch(/com\.nestwright\.split.*com\.nestwright\.notes/);
  const info: ApkInfo = structuredClone(
    await inspectApk(['split-base.apk', 'split-config.x86_64.apk', 'split-feature.apk'].map(fixture)),
  );
  info.apks[1]!.signing.certSha256 = ['00'.repeat(32)];
  expect(check(preflight(info, DEVICE_16K), 'SPLIT_MISMATCH').message).toMatch(/different certificates/);
});

test('SIGNATURE_MISMATCH against the installed version; an update with the same key is fine', async () => {
  const a = await inspectApk(fixture('signed-a.apk'));
  const installed = { certSha256: a.signing.certSha256, versionCode: a.versionCode };
  const b = check(preflight(await inspectApk(fixture('signed-b.apk')), DEVICE_16K, installed), 'SIGNATURE_MISMATCH');
  expect(b.status).toBe('reject');
  expect(b.message).toMatch(/different signing certificates/);
  expect(
    check(preflight(await inspectApk(fixture('signed-a-v2.apk')), DEVICE_16K, installed), 'SIGNATURE_MISMATCH').status,
  ).toBe('ok');
});

test('UNSIGNED and v1-only', async () => {
  expect(check(preflight(await inspectApk(fixture('unsigned.apk')), DEVICE_16K), 'UNSIGNED').status).toBe('reject');
  const v1 = await inspectApk(fixture('v1-only.apk'));
  expect(v1.signing.schemes).toEqual(['v1']);
  expect(check(preflight(v1, DEVICE_16K), 'UNSIGNED').status).toBe('ok');
});

test('TARGET_SDK_TOO_LOW uses the device minimum', async () => {
  const info = await inspectApk(fixture('low-target.apk'));
  expect(check(preflight(info, DEVICE_16K), 'TARGET_SDK_TOO_LOW')).toMatchObject({
    status: 'reject',
    details: { targetSdk: 22, minTargetSdk: 24 },
  });
  expect(check(preflight(info, { ...DEVICE_16K, min_target_sdk: 21 }), 'TARGET_SDK_TOO_LOW').status).toBe('ok');
});

test('GMS, Play Integrity and Keystore use are warnings with evidence', async () => {
  const r = preflight(await inspectApk(fixture('gms-keystore.apk')), DEVICE_16K);
  expect(r.installable).toBe(true);
  for (const code of ['USES_GMS', 'USES_PLAY_INTEGRITY', 'USES_KEYSTORE']) {
    const c = check(r, code);
    expect(c.status).toBe('warn');
    expect((c.details as { evidence: string[] }).evidence.length).toBeGreaterThan(0);
  }
  expect((check(r, 'USES_GMS').details as { evidence: string[] }).evidence).toContain(
    'meta-data com.google.android.gms.version',
  );
});

test('DANGEROUS_PERMISSIONS and MULTI_PROCESS warn', async () => {
  expect(check(preflight(await inspectApk(fixture('shop.apk')), DEVICE_16K), 'DANGEROUS_PERMISSIONS')).toMatchObject({
    status: 'warn',
    details: { permissions: ['android.permission.ACCESS_FINE_LOCATION'] },
  });
  expect(check(preflight(await inspectApk(fixture('native-16k.apk')), DEVICE_16K), 'MULTI_PROCESS')).toMatchObject({
    status: 'warn',
    details: { processes: [':sync'] },
  });
});

test('INVALID_APK: preflightPaths never throws and returns a single reject', async () => {
  const dir = test.info().outputPath();
  const junk = join(dir, 'junk.apk');
  writeFileSync(junk, 'this is not a zip');
  for (const input of [junk, join(dir, 'missing.apk'), [] as string[], [fixture('split.apks'), fixture('notes.apk')]]) {
    const r = await preflightPaths(input, DEVICE_16K);
    expect(r).toMatchObject({ installable: false, package: null, version_code: null });
    expect(r.checks).toHaveLength(1);
    expect(r.checks[0]).toMatchObject({ code: 'INVALID_APK', status: 'reject' });
    expect(r.checks[0]!.message).toMatch(/^inspectApk: /);
  }
});

test('preflight names itself when given bad device traits', async () => {
  const info = await inspectApk(fixture('notes.apk'));
  expect(() => preflight(info, { abis: [], page_size: 4096, sdk_int: 35 })).toThrow(
    /^preflight: invalid device traits: abis/,
  );
});

test('SIGNATURE_MISMATCH accepts a v3 key rotation whose lineage includes the installed key', async () => {
  // Needs apksigner to make the rotated APK (keys/a.p12 → keys/b.p12); the fixture keys are test-only.
  const { spawnSync } = await import('node:child_process');
  const dir = test.info().outputPath();
  const keys = fixture('keys');
  const signer = (k: string) => [
    '--ks',
    join(keys, `${k}.p12`),
    '--ks-type',
    'PKCS12',
    '--ks-key-alias',
    k,
    '--ks-pass',
    'pass:nestwright',
    '--key-pass',
    'pass:nestwright',
  ];
  const lineage = join(dir, 'lineage');
  const rot = spawnSync(
    'apksigner',
    ['rotate', '--out', lineage, '--old-signer', ...signer('a'), '--new-signer', ...signer('b')],
    { encoding: 'utf8' },
  );
  test.skip(!!rot.error, 'apksigner is not installed (Debian package "apksigner")');
  expect(rot.status, rot.stderr).toBe(0);
  const apk = join(dir, 'rotated.apk');
  writeFileSync(apk, readFileSync(fixture('signed-a-v2.apk')));
  const sign = spawnSync(
    'apksigner',
    ['sign', ...signer('a'), '--next-signer', ...signer('b'), '--lineage', lineage, apk],
    { encoding: 'utf8' },
  );
  expect(sign.status, sign.stderr).toBe(0);

  const a = await inspectApk(fixture('signed-a.apk'));
  const b = await inspectApk(fixture('signed-b.apk'));
  const rotated = await inspectApk(apk);
  expect(rotated.signing.certSha256).toEqual(b.signing.certSha256);
  expect(rotated.signing.lineageSha256).toEqual([...a.signing.certSha256, ...b.signing.certSha256]);
  const installedA = { certSha256: a.signing.certSha256, versionCode: 1 };
  expect(check(preflight(rotated, DEVICE_16K, installedA), 'SIGNATURE_MISMATCH').status).toBe('ok');
  // …but a plain B-signed APK (no lineage) is still a mismatch against A.
  expect(check(preflight(b, DEVICE_16K, installedA), 'SIGNATURE_MISMATCH').status).toBe('reject');
});

test('MIN_SDK_TOO_HIGH compares minSdk with the device API level', async () => {
  const info = await inspectApk(fixture('notes.apk'));
  expect(check(preflight(info, DEVICE_16K), 'MIN_SDK_TOO_HIGH')).toMatchObject({
    status: 'ok',
    details: { minSdk: 24, sdkInt: 35 },
  });
  const old = check(preflight(info, { ...DEVICE_16K, sdk_int: 23, min_target_sdk: 23 }), 'MIN_SDK_TOO_HIGH');
  expect(old).toMatchObject({ status: 'reject', details: { minSdk: 24, sdkInt: 23 } });
  expect(old.message).toMatch(/needs Android API 24.*runs API 23/);
});

test('VERSION_DOWNGRADE rejects an older versionCode unless the install allows it', async () => {
  const v1 = await inspectApk(fixture('signed-a.apk'));
  const v2 = await inspectApk(fixture('signed-a-v2.apk'));
  const installedV2 = { certSha256: v2.signing.certSha256, versionCode: v2.versionCode };
  expect(check(preflight(v2, DEVICE_16K, { ...installedV2, versionCode: 1 }), 'VERSION_DOWNGRADE').status).toBe('ok');
  const down = preflight(v1, DEVICE_16K, installedV2);
  expect(check(down, 'VERSION_DOWNGRADE')).toMatchObject({
    status: 'reject',
    details: { versionCode: 1, installedVersionCode: 2, allowDowngrade: false },
  });
  expect(down.installable).toBe(false);
  const allowed = preflight(v1, DEVICE_16K, installedV2, { allowDowngrade: true });
  expect(check(allowed, 'VERSION_DOWNGRADE').status).toBe('warn');
  expect(allowed.installable).toBe(true);
  expect(check(preflight(v1, DEVICE_16K), 'VERSION_DOWNGRADE').status).toBe('ok');
});

test('SIGNATURE_INVALID: an ApkInfo whose signature failed is refused, with the reason', async () => {
  const info = await inspectApk(fixture('notes.apk'));
  expect(check(preflight(info, DEVICE_16K), 'SIGNATURE_INVALID').status).toBe('ok');
  info.apks[0]!.signing.verified = false;
  info.apks[0]!.signing.problems = [
    "v2 signer 1: the chunked-sha256 digest of the APK's contents does not match the signed one: the APK was modified after signing",
  ];
  const c = check(preflight(info, DEVICE_16K), 'SIGNATURE_INVALID');
  expect(c.status).toBe('reject');
  expect(c.message).toMatch(/base: the signature does not verify \(v2 signer 1: .*modified after signing\)/);
});

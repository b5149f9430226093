/**
 * Install preflight (docs/protocol.md#install): turns an {@link ApkInfo} plus the
 * target device's traits into a {@link PreflightReport} — one check per code, each ok / warn /
 * reject. Pure and synchronous; `preflightPaths` adds reading and never throws.
 */
import { describeIssues } from '../protocol/issues.js';
import {
  DeviceTraitsSchema,
  type DeviceTraits,
  type PreflightCheck,
  type PreflightReport,
} from '../protocol/preflight.js';
import { ApkError } from './apk-error.js';
import { DANGEROUS_PERMISSIONS } from './dangerous-permissions.js';
import { inspectApk } from './inspect.js';
import type { ApkFile, ApkInfo } from './model.js';

export type InstalledApp = { certSha256: string[]; versionCode: number };
/** `allowDowngrade`: install over a higher installed versionCode (`adb install -d`). */
export type PreflightOptions = { allowDowngrade?: boolean };
type DeviceInput = DeviceTraits | Parameters<typeof DeviceTraitsSchema.parse>[0];

const PAGE_16K = 16384;

export function preflight(
  info: ApkInfo,
  device: DeviceInput,
  installed?: InstalledApp | null,
  opts: PreflightOptions = {},
): PreflightReport {
  const parsed = DeviceTraitsSchema.safeParse(device);
  if (!parsed.success) {
    throw new TypeError(
      `preflight: invalid device traits: ${describeIssues(parsed.error)}. Pass {abis, page_size: 4096|16384, sdk_int, min_target_sdk?}.`,
    );
  }
  const dev = parsed.data;
  const checks: PreflightCheck[] = [
    invalidLibs(info),
    secureEnv(info, dev),
    abi(info, dev),
    align16k(info, dev),
    ...splits(info),
    unsigned(info),
    signatureValid(info),
    signature(info, installed ?? null),
    versionDowngrade(info, installed ?? null, opts.allowDowngrade ?? false),
    minSdk(info, dev),
    targetSdk(info, dev),
    ...platformUse(info),
    dangerousPermissions(info),
    multiProcess(info),
  ];
  return {
    installable: !checks.some((c) => c.status === 'reject'),
    package: info.package,
    version_code: info.versionCode,
    checks,
  };
}

/** Reads and preflights; an unreadable input becomes a report with one INVALID_APK reject. Never throws. */
export async function inspectAndPreflight(
  paths: string | string[],
  device: DeviceInput,
  installed?: InstalledApp | null,
  opts: PreflightOptions = {},
): Promise<{ info: ApkInfo | null; report: PreflightReport }> {
  try {
    const dev = DeviceTraitsSchema.safeParse(device);
    const info = await inspectApk(
      paths,
      dev.success ? { device: { abis: dev.data.abis, density: dev.data.density, locales: dev.data.locales } } : {},
    );
    return { info, report: preflight(info, device, installed, opts) };
  } catch (err) {
    const e =
      err instanceof ApkError
        ? err
        : new ApkError(`internal error while reading: ${err instanceof Error ? err.message : String(err)}`, {
            cause: err,
          });
    return {
      info: null,
      report: {
        installable: false,
        package: null,
        version_code: null,
        checks: [
          {
            code: 'INVALID_APK',
            status: 'reject',
            message: e.message,
            details: { reason: e.reason, ...(e.file ? { file: e.file } : {}), ...e.details },
          },
        ],
      },
    };
  }
}

export async function preflightPaths(
  paths: string | string[],
  device: DeviceInput,
  installed?: InstalledApp | null,
  opts: PreflightOptions = {},
): Promise<PreflightReport> {
  return (await inspectAndPreflight(paths, device, installed, opts)).report;
}

const ok = (code: PreflightCheck['code'], message: string, details?: Record<string, unknown>): PreflightCheck => ({
  code,
  status: 'ok',
  message,
  ...(details ? { details } : {}),
});
const warn = (code: PreflightCheck['code'], message: string, details?: Record<string, unknown>): PreflightCheck => ({
  code,
  status: 'warn',
  message,
  ...(details ? { details } : {}),
});
const reject = (code: PreflightCheck['code'], message: string, details?: Record<string, unknown>): PreflightCheck => ({
  code,
  status: 'reject',
  message,
  ...(details ? { details } : {}),
});
const name = (f: ApkFile): string => f.manifest.split.name ?? 'base';

function invalidLibs(info: ApkInfo): PreflightCheck {
  const bad = info.apks.flatMap((f) =>
    f.nativeLibs.filter((l) => l.error).map((l) => ({ apk: name(f), path: l.path, reason: l.error })),
  );
  if (bad.length)
    return warn(
      'INVALID_APK',
      `${bad.length} native librar${bad.length === 1 ? 'y is' : 'ies are'} not readable ELF files (${bad[0]!.path}: ${bad[0]!.reason}); loading ${bad.length === 1 ? 'it' : 'them'} will fail.`,
      { libs: bad },
    );
  return ok('INVALID_APK', `Read ${info.apks.length} APK file${info.apks.length === 1 ? '' : 's'}.`);
}

function secureEnv(info: ApkInfo, dev: DeviceTraits): PreflightCheck {
  const f = info.apks.find((a) => a.manifest.requireSecureEnv);
  if (f && dev.secure_env)
    return ok('SECURE_ENV_REQUIRED', 'REQUIRE_SECURE_ENV is declared and this device provides a secure environment.', {
      apk: name(f),
    });
  if (f)
    return reject(
      'SECURE_ENV_REQUIRED',
      `${info.package} declares REQUIRE_SECURE_ENV; it must not be loaded into a virtual space. Install it on the device directly instead.`,
      { apk: name(f) },
    );
  return ok('SECURE_ENV_REQUIRED', 'REQUIRE_SECURE_ENV is not declared.');
}

/** The ABI the installer would pick: the first device ABI (in preference order) the app ships libraries for. */
export function selectAbi(info: ApkInfo, deviceAbis: string[]): string | null {
  return deviceAbis.find((a) => info.abis.includes(a)) ?? null;
}

function abi(info: ApkInfo, dev: DeviceTraits): PreflightCheck {
  if (info.abis.length === 0)
    return ok('ABI_MISMATCH', 'No native libraries; runs on any ABI.', { appAbis: [], deviceAbis: dev.abis });
  const sel = selectAbi(info, dev.abis);
  if (!sel)
    return reject(
      'ABI_MISMATCH',
      `The app ships native libraries only for ${info.abis.join(', ')}, the device supports ${dev.abis.join(', ')}. Use a device/emulator with a matching ABI or a build that includes one.`,
      { appAbis: info.abis, deviceAbis: dev.abis },
    );
  return ok('ABI_MISMATCH', `Native libraries for ${sel} will be used.`, {
    appAbis: info.abis,
    deviceAbis: dev.abis,
    selectedAbi: sel,
  });
}

function align16k(info: ApkInfo, dev: DeviceTraits): PreflightCheck {
  const sel = selectAbi(info, dev.abis);
  const base = info.apks.find((f) => f.manifest.split.name === null) ?? info.apks[0]!;
  // Stored libraries are mapped straight from the APK only when the manifest says not to extract them.
  const mappedFromApk = base.manifest.extractNativeLibs === false;
  // With no usable ABI (ABI_MISMATCH rejects) we still report alignment of every library shipped.
  const libs = info.apks.flatMap((f) =>
    f.nativeLibs.filter((l) => sel === null || l.abi === sel).map((l) => ({ ...l, apk: name(f) })),
  );
  if (libs.length === 0) return ok('NOT_16KB_ALIGNED', 'No native libraries.');
  const elf = libs
    .filter((l) => l.elfAligned16k === false)
    .map((l) => ({ apk: l.apk, path: l.path, pAlign: l.pAlign }));
  const zip = libs
    .filter((l) => mappedFromApk && l.zipAligned16k === false)
    .map((l) => ({ apk: l.apk, path: l.path, dataOffset: l.dataOffset, remainder: (l.dataOffset ?? 0) % PAGE_16K }));
  const details = {
    abi: sel,
    pageSize: dev.page_size,
    extractNativeLibs: base.manifest.extractNativeLibs,
    elf,
    zip,
    checked: libs.length,
  };
  if (elf.length === 0 && zip.length === 0)
    return ok(
      'NOT_16KB_ALIGNED',
      libs.length === 1
        ? `The ${sel ?? 'native'} library is 16 KB aligned.`
        : `All ${libs.length} ${sel ?? 'native'} libraries are 16 KB aligned.`,
      details,
    );
  const parts = [
    elf.length
      ? `${elf.length} ELF file${elf.length === 1 ? ' has' : 's have'} PT_LOAD p_align < 16384 (e.g. ${elf[0]!.path}: ${elf[0]!.pAlign})`
      : null,
    zip.length
      ? `${zip.length} stored librar${zip.length === 1 ? 'y is' : 'ies are'} not at a 16 KB zip offset (e.g. ${zip[0]!.path} at ${zip[0]!.dataOffset})`
      : null,
  ]
    .filter(Boolean)
    .join('; ');
  const fix = 'Rebuild with NDK r27+ (or -Wl,-z,max-page-size=16384) and zipalign -P 16.';
  if (dev.page_size === PAGE_16K)
    return reject('NOT_16KB_ALIGNED', `The device uses 16 KB pages and ${parts}. ${fix}`, details);
  return warn(
    'NOT_16KB_ALIGNED',
    `${parts}; fine on this 4 KB-page device, but it will not load on 16 KB-page devices. ${fix}`,
    details,
  );
}

function splits(info: ApkInfo): PreflightCheck[] {
  const files = info.apks;
  const bases = files.filter((f) => f.manifest.split.name === null);
  const present = new Set(files.map((f) => f.manifest.split.name).filter((n): n is string => n !== null));
  const incomplete: string[] = [];
  const mismatch: string[] = [];
  if (bases.length === 0)
    incomplete.push(`no base APK among ${[...present].join(', ')}; split APKs cannot be installed without their base`);
  if (bases.length > 1) mismatch.push(`${bases.length} base APKs given; pass exactly one`);
  const base = bases[0];
  if (base) {
    const s = base.manifest.split;
    if (s.isSplitRequired && files.length === 1)
      incomplete.push('the base declares isSplitRequired but no split APKs were given');
    const provided = new Set(files.flatMap((f) => f.manifest.split.splitTypes));
    const missingTypes = s.requiredSplitTypes.filter((t) => !provided.has(t));
    if (missingTypes.length)
      incomplete.push(`the base requires split types ${missingTypes.join(', ')} that no given split provides`);
  }
  for (const f of files) {
    for (const u of f.manifest.split.usesSplits)
      if (!present.has(u)) incomplete.push(`${name(f)} uses split "${u}", which was not given`);
    const cfg = f.manifest.split.configForSplit;
    if (cfg && !present.has(cfg)) incomplete.push(`${name(f)} is a config split for "${cfg}", which was not given`);
  }
  const seen = new Set<string>();
  for (const f of files) {
    const n = name(f);
    if (seen.has(n) && n !== 'base') mismatch.push(`split "${n}" given twice`);
    seen.add(n);
  }
  const ref = base ?? files[0]!;
  const refCerts = ref.signing.certSha256.join(',');
  for (const f of files) {
    if (f === ref) continue;
    if (f.manifest.package !== ref.manifest.package)
      mismatch.push(`${name(f)} is for package ${f.manifest.package}, not ${ref.manifest.package}`);
    if (f.manifest.versionCode !== ref.manifest.versionCode)
      mismatch.push(
        `${name(f)} has versionCode ${f.manifest.versionCode}, ${name(ref)} has ${ref.manifest.versionCode}`,
      );
    if (f.signing.certSha256.join(',') !== refCerts)
      mismatch.push(`${name(f)} is signed by different certificates than ${name(ref)}`);
  }
  const details = {
    files: files.map((f) => ({
      path: f.path,
      split: f.manifest.split.name,
      package: f.manifest.package,
      versionCode: f.manifest.versionCode,
      certSha256: f.signing.certSha256,
    })),
  };
  return [
    incomplete.length
      ? reject(
          'SPLIT_INCOMPLETE',
          `Split set is incomplete: ${incomplete.join('; ')}. Pass the base APK together with all required splits (or the whole .apks bundle).`,
          { problems: incomplete, ...details },
        )
      : ok(
          'SPLIT_INCOMPLETE',
          files.length > 1
            ? `Base and ${files.length - 1} split${files.length === 2 ? '' : 's'} form a complete set.`
            : 'Single APK, no splits required.',
        ),
    mismatch.length
      ? reject(
          'SPLIT_MISMATCH',
          `The APKs do not belong together: ${mismatch.join('; ')}. Use splits from one build of one app.`,
          { problems: mismatch, ...details },
        )
      : ok(
          'SPLIT_MISMATCH',
          files.length > 1 ? 'All APKs share package, versionCode and certificates.' : 'Single APK.',
        ),
  ];
}

function unsigned(info: ApkInfo): PreflightCheck {
  const bad = info.apks.filter((f) => f.signing.certSha256.length === 0);
  if (bad.length)
    return reject(
      'UNSIGNED',
      `${bad.map(name).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not signed; Android installs only signed APKs. Sign with apksigner (a debug key is fine for tests).`,
      { files: bad.map((f) => f.path) },
    );
  return ok('UNSIGNED', `Signed (${[...new Set(info.apks.flatMap((f) => f.signing.schemes))].join(', ')}).`);
}

/** Android refuses an APK whose signatures do not verify (INSTALL_PARSE_FAILED_NO_CERTIFICATES). */
function signatureValid(info: ApkInfo): PreflightCheck {
  const bad = info.apks.filter((f) => f.signing.schemes.length > 0 && !f.signing.verified);
  // Android 11+ refuses an app targeting API 30+ whose only signature is v1 (a v1 signature does
  // not cover the zip structure, which R+ relies on for resources.arsc).
  const v1Only =
    info.targetSdk >= 30
      ? info.apks.filter((f) => f.signing.verified && !f.signing.schemes.some((s) => s !== 'v1'))
      : [];
  if (bad.length === 0 && v1Only.length) {
    return reject(
      'SIGNATURE_INVALID',
      `${v1Only.map(name).join(', ')} ${v1Only.length === 1 ? 'is' : 'are'} signed with v1 (JAR) only, and targetSdk ${info.targetSdk} needs APK Signature Scheme v2 or later (Android 11+ refuses it). Sign with apksigner, which adds v2/v3.`,
      { files: v1Only.map((f) => ({ path: f.path, schemes: f.signing.schemes })), targetSdk: info.targetSdk },
    );
  }
  if (bad.length === 0) {
    const signed = info.apks.filter((f) => f.signing.verified).length;
    return ok(
      'SIGNATURE_INVALID',
      signed
        ? `${signed === 1 ? 'The signature verifies' : `All ${signed} APKs' signatures verify`} (${[...new Set(info.apks.flatMap((f) => f.signing.schemes))].join(', ')}).`
        : 'Nothing signed to verify.',
    );
  }
  const first = bad[0]!;
  return reject(
    'SIGNATURE_INVALID',
    `${bad.map(name).join(', ')}: the signature does not verify (${first.signing.problems[0] ?? 'unknown reason'}). The APK was altered after signing or is damaged; Android refuses it. Rebuild and re-sign it, or fetch an unmodified copy.`,
    { files: bad.map((f) => ({ path: f.path, schemes: f.signing.schemes, problems: f.signing.problems })) },
  );
}

function versionDowngrade(info: ApkInfo, installed: InstalledApp | null, allow: boolean): PreflightCheck {
  if (!installed)
    return ok('VERSION_DOWNGRADE', 'Not installed yet; no version to compare.', { versionCode: info.versionCode });
  const details = { versionCode: info.versionCode, installedVersionCode: installed.versionCode, allowDowngrade: allow };
  if (info.versionCode >= installed.versionCode)
    return ok('VERSION_DOWNGRADE', `versionCode ${info.versionCode} ≥ installed ${installed.versionCode}.`, details);
  if (allow)
    return warn(
      'VERSION_DOWNGRADE',
      `versionCode ${info.versionCode} is below the installed ${installed.versionCode}; downgrading because the install allows it.`,
      details,
    );
  return reject(
    'VERSION_DOWNGRADE',
    `${info.package} ${info.versionCode} is older than the installed versionCode ${installed.versionCode}. Pass allow_downgrade (adb install -d), or uninstall it from the space first.`,
    details,
  );
}

function minSdk(info: ApkInfo, dev: DeviceTraits): PreflightCheck {
  const details = { minSdk: info.minSdk, sdkInt: dev.sdk_int };
  if (info.minSdk > dev.sdk_int)
    return reject(
      'MIN_SDK_TOO_HIGH',
      `${info.package} needs Android API ${info.minSdk} (minSdkVersion), this device runs API ${dev.sdk_int}. Use a newer device or emulator image, or a build with a lower minSdkVersion.`,
      details,
    );
  return ok('MIN_SDK_TOO_HIGH', `minSdk ${info.minSdk} ≤ device API ${dev.sdk_int}.`, details);
}

function signature(info: ApkInfo, installed: InstalledApp | null): PreflightCheck {
  const signing = (info.apks.find((f) => f.manifest.split.name === null) ?? info.apks[0]!).signing;
  const certs = signing.certSha256;
  if (!installed) return ok('SIGNATURE_MISMATCH', 'Not installed yet; nothing to compare.', { certSha256: certs });
  const details = {
    certSha256: certs,
    lineageSha256: signing.lineageSha256,
    installedCertSha256: installed.certSha256,
    versionCode: info.versionCode,
    installedVersionCode: installed.versionCode,
  };
  const want = new Set(installed.certSha256.map((c) => c.toLowerCase().replace(/:/g, '')));
  const same = certs.length > 0 && certs.length === want.size && certs.every((c) => want.has(c));
  if (same) return ok('SIGNATURE_MISMATCH', 'Same certificates as the installed version.', details);
  // v3 key rotation: the new signer vouches for the installed certificate in its lineage.
  const vouched = new Set([...certs, ...signing.lineageSha256]);
  if (certs.length > 0 && want.size > 0 && [...want].every((c) => vouched.has(c))) {
    return ok(
      'SIGNATURE_MISMATCH',
      'Signed with a rotated key whose lineage includes the installed certificate.',
      details,
    );
  }
  return reject(
    'SIGNATURE_MISMATCH',
    `${info.package} is installed with different signing certificates (${installed.certSha256.map((c) => c.slice(0, 12)).join(', ') || 'none'} vs ${certs.map((c) => c.slice(0, 12)).join(', ') || 'none'}). Uninstall it from the space first, or sign with the original key.`,
    details,
  );
}

function targetSdk(info: ApkInfo, dev: DeviceTraits): PreflightCheck {
  if (info.targetSdk < dev.min_target_sdk)
    return reject(
      'TARGET_SDK_TOO_LOW',
      `targetSdk ${info.targetSdk} is below ${dev.min_target_sdk}, the lowest this device (SDK ${dev.sdk_int}) installs. Rebuild with targetSdkVersion ≥ ${dev.min_target_sdk}.`,
      { targetSdk: info.targetSdk, minTargetSdk: dev.min_target_sdk },
    );
  return ok('TARGET_SDK_TOO_LOW', `targetSdk ${info.targetSdk} ≥ ${dev.min_target_sdk}.`, {
    targetSdk: info.targetSdk,
    minTargetSdk: dev.min_target_sdk,
  });
}

function platformUse(info: ApkInfo): PreflightCheck[] {
  const m = info.apks.map((f) => f.manifest);
  const componentNames = m.flatMap((x) =>
    [...x.activities, ...x.services, ...x.providers, ...x.receivers].map((c) => c.name),
  );
  const metaNames = m.flatMap((x) => x.metaData.map((d) => d.name));
  const perms = m.flatMap((x) => x.usesPermissions.map((p) => p.name));
  const gmsEvidence = [
    ...perms
      .filter((p) => p.startsWith('com.google.android.c2dm.') || p.startsWith('com.google.android.gms.'))
      .map((p) => `uses-permission ${p}`),
    ...metaNames
      .filter((n) => n.startsWith('com.google.android.gms.') || n.startsWith('com.google.firebase.'))
      .map((n) => `meta-data ${n}`),
    ...componentNames
      .filter((n) => n.startsWith('com.google.android.gms.') || n.startsWith('com.google.firebase.'))
      .slice(0, 5)
      .map((n) => `component ${n}`),
    ...m.flatMap((x) =>
      x.usesLibraries.filter((l) => l.name.startsWith('com.google.android.gms')).map((l) => `uses-library ${l.name}`),
    ),
    ...(info.apks.some((f) => f.dexHints.gms) ? ['dex references com.google.android.gms'] : []),
  ];
  const integrityEvidence = [
    ...metaNames
      .filter(
        (n) =>
          n.startsWith('com.google.android.play.integrity.') || n.startsWith('com.google.android.play.core.integrity'),
      )
      .map((n) => `meta-data ${n}`),
    ...componentNames
      .filter((n) => n.startsWith('com.google.android.play.core.integrity'))
      .map((n) => `component ${n}`),
    ...(info.apks.some((f) => f.dexHints.playIntegrity) ? ['dex references Play Integrity / SafetyNet'] : []),
  ];
  const keystoreEvidence = info.apks.some((f) => f.dexHints.keystore)
    ? ['dex references AndroidKeyStore / KeyGenParameterSpec']
    : [];
  return [
    gmsEvidence.length
      ? warn(
          'USES_GMS',
          'Uses Google Play services; inside a virtual space GMS sees the host app, so sign-in, push and some APIs may fail.',
          { evidence: gmsEvidence },
        )
      : ok('USES_GMS', 'No Google Play services use found.'),
    integrityEvidence.length
      ? warn(
          'USES_PLAY_INTEGRITY',
          'Uses Play Integrity/SafetyNet; attestation will most likely fail in a virtual space.',
          { evidence: integrityEvidence },
        )
      : ok('USES_PLAY_INTEGRITY', 'No Play Integrity use found.'),
    keystoreEvidence.length
      ? warn(
          'USES_KEYSTORE',
          'Uses Android Keystore; keys are held under the host UID and aliases may collide across instances.',
          { evidence: keystoreEvidence },
        )
      : ok('USES_KEYSTORE', 'No Android Keystore use found.'),
  ];
}

function dangerousPermissions(info: ApkInfo): PreflightCheck {
  const perms = [
    ...new Set(
      info.apks
        .flatMap((f) => f.manifest.usesPermissions.map((p) => p.name))
        .filter((p) => DANGEROUS_PERMISSIONS.has(p)),
    ),
  ].sort();
  if (perms.length)
    return warn(
      'DANGEROUS_PERMISSIONS',
      `Requests ${perms.length} runtime permission${perms.length === 1 ? '' : 's'}; prompts will appear (they are granted to the host app).`,
      { permissions: perms },
    );
  return ok('DANGEROUS_PERMISSIONS', 'No runtime permissions requested.', { permissions: [] });
}

function multiProcess(info: ApkInfo): PreflightCheck {
  const procs = [
    ...new Set(
      info.apks.flatMap((f) =>
        [...f.manifest.activities, ...f.manifest.services, ...f.manifest.providers, ...f.manifest.receivers]
          .map((c) => c.process)
          .filter((p): p is string => p !== null && p !== info.package),
      ),
    ),
  ].sort();
  if (procs.length)
    return warn(
      'MULTI_PROCESS',
      `Declares ${procs.length} extra process${procs.length === 1 ? '' : 'es'} (${procs.join(', ')}); each uses a process slot.`,
      { processes: procs },
    );
  return ok('MULTI_PROCESS', 'Single process.');
}

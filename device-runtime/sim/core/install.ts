import { inspectAndPreflight, preflight } from '../../apk/index.js';
import { toolError, type DeviceTraits, type PreflightReport } from '../../protocol/index.js';
import type { SimSpace } from './space.js';
import { SimError } from './sim-error.js';

export interface InstallInfo {
  package: string;
  label: string;
  versionCode: number;
  versionName: string | null;
  certSha256: string[];
  abis: string[];
  permissions: string[];
  /** The APKs installed ('base' or split names) and, for a bundle, each config split's choice. */
  apks: string[];
  splits: Array<{ split: string; chosen: boolean; reason: string }>;
}

/**
 * Step 1 of installation (docs/protocol.md#install): preflight the APK set against this device exactly as a real
 * runtime does (`device`: this device's traits), and refuse with the first rejecting check's code and the whole report.
 */
export async function installApk(
  paths: string[],
  device: DeviceTraits,
  space: SimSpace,
  opts: { allowDowngrade?: boolean } = {},
): Promise<{ info: InstallInfo; report: PreflightReport }> {
  const probe = await inspectAndPreflight(paths, device, null, opts);
  const pkg = probe.info?.package;
  const previous = pkg ? space.apps.get(pkg) : undefined;
  // Read (and verify) once; an update is preflighted again against what is installed.
  const info = probe.info;
  const report =
    previous && info
      ? preflight(info, device, { certSha256: previous.certSha256, versionCode: previous.versionCode }, opts)
      : probe.report;
  // docs/protocol.md#install: "Installation does not fail because of ABI; the check happens before launch."
  const checks = report.checks.map((c) =>
    c.code === 'ABI_MISMATCH' && c.status === 'reject'
      ? { ...c, status: 'warn' as const, message: `${c.message} space_launch will refuse with ABI_MISMATCH.` }
      : c,
  );
  const reject = checks.find((c) => c.status === 'reject');
  if (reject || !info) {
    const code = reject?.code ?? 'INVALID_APK';
    throw new SimError(
      toolError(code as 'INVALID_APK', `space_install_apk: ${reject?.message ?? 'the APK cannot be installed'}`, {
        hint: 'Run `npx nestwright inspect <apk>` to see every preflight check.',
        details: { preflight: report },
      }),
    );
  }
  return {
    info: {
      package: info.package,
      label: info.label ?? info.package,
      versionCode: info.versionCode,
      versionName: info.versionName,
      certSha256: info.apks[0]?.signing.certSha256 ?? [],
      abis: info.abis,
      permissions: dangerousPermissions(report),
      apks: info.apks.map((f) => f.manifest.split.name ?? 'base'),
      splits: info.splitSelection,
    },
    report: { ...report, installable: true, checks },
  };
}

/** Runtime permissions the preflight found in the manifest (its DANGEROUS_PERMISSIONS check). */
function dangerousPermissions(report: PreflightReport): string[] {
  const perms = report.checks.find((c) => c.code === 'DANGEROUS_PERMISSIONS')?.details?.permissions;
  return Array.isArray(perms) ? perms.filter((p): p is string => typeof p === 'string') : [];
}

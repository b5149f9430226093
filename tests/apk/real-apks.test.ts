/**
 * APKs nobody here built — shipped inside npm packages (io.appium.settings,
 * appium-uiautomator2-server) — read by inspectApk and cross-checked against independent readers:
 * @devicefarmer/adbkit-apkreader (manifest), and Debian's `aapt dump badging` (label, launcher,
 * permissions) and `apksigner verify --print-certs` (certificate digests) when installed.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { inspectApk } from '../../device-runtime/apk/index.js';
import { npmShippedApks, ROOT } from './helpers.js';
import { apksigner, hasApksigner } from './apksigner.js';

const require = createRequire(join(ROOT, 'package.json'));

type AdbkitManifest = {
  package: string;
  versionCode?: number;
  versionName?: string;
  usesSdk: { minSdkVersion?: number; targetSdkVersion?: number };
  application: {
    activities: Array<{ name: string }>;
    activityAliases: Array<{ name: string }>;
    launcherActivities: Array<{ name: string }>;
    services: Array<{ name: string }>;
    receivers: Array<{ name: string }>;
    providers: Array<{ name: string }>;
  };
};
async function adbkitManifest(path: string): Promise<AdbkitManifest> {
  const ApkReader = require('@devicefarmer/adbkit-apkreader') as {
    open(p: string): Promise<{ readManifest(): Promise<AdbkitManifest> }>;
  };
  return (await ApkReader.open(path)).readManifest();
}

function tool(cmd: string, args: string[]): { ok: boolean; out: string; missing: boolean } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  if (r.error) return { ok: false, out: '', missing: (r.error as NodeJS.ErrnoException).code === 'ENOENT' };
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}`, missing: false };
}

const apks = npmShippedApks();
const fqcn = (pkg: string, n: string) => (n.startsWith('.') ? pkg + n : n.includes('.') ? n : `${pkg}.${n}`);

test.describe('APKs shipped in npm packages', () => {
  test.skip(apks.length === 0, 'io.appium.settings / appium-uiautomator2-server are not installed (npm install)');

  for (const apk of apks) {
    const name = apk.slice(apk.lastIndexOf('node_modules/') + 'node_modules/'.length);

    test(`${name}: manifest agrees with adbkit-apkreader`, async () => {
      const info = await inspectApk(apk);
      const ref = await adbkitManifest(apk);
      const m = info.manifest;
      expect(m.package).toBe(ref.package);
      expect(m.versionCode).toBe(ref.versionCode ?? 0);
      expect(m.versionName).toBe(ref.versionName ?? null);
      expect(m.minSdk).toBe(ref.usesSdk.minSdkVersion ?? 1);
      expect(m.targetSdk).toBe(ref.usesSdk.targetSdkVersion ?? m.minSdk);
      const names = (xs: Array<{ name: string }>) => xs.map((x) => fqcn(ref.package, x.name)).sort();
      expect(
        m.activities
          .filter((a) => !a.alias)
          .map((a) => a.name)
          .sort(),
      ).toEqual(names(ref.application.activities));
      expect(
        m.activities
          .filter((a) => a.alias)
          .map((a) => a.name)
          .sort(),
      ).toEqual(names(ref.application.activityAliases));
      expect(
        m.activities
          .filter((a) => a.launcher)
          .map((a) => a.name)
          .sort(),
      ).toEqual(names(ref.application.launcherActivities));
      expect(m.services.map((s) => s.name).sort()).toEqual(names(ref.application.services));
      expect(m.receivers.map((s) => s.name).sort()).toEqual(names(ref.application.receivers));
      expect(m.providers.map((s) => s.name).sort()).toEqual(names(ref.application.providers));
    });

    test(`${name}: label, launcher, permissions and ABIs agree with aapt dump badging`, async () => {
      const r = tool('aapt', ['dump', 'badging', apk]);
      test.skip(r.missing, 'aapt is not installed (Debian package "aapt"); skipping this cross-check');
      test.skip(!r.ok, `aapt could not read this APK (older aapt than the APK): ${r.out.split('\n')[0]}`);
      const info = await inspectApk(apk);
      const one = (re: RegExp) => re.exec(r.out)?.[1] ?? null;
      expect(info.package).toBe(one(/^package: name='([^']*)'/m));
      expect(info.label ?? '').toBe(one(/^application-label:'([^']*)'/m) ?? '');
      expect(info.launcherActivity).toBe(one(/^launchable-activity: name='([^']*)'/m));
      expect(String(info.minSdk)).toBe(one(/^sdkVersion:'([^']*)'/m));
      const perms = [...r.out.matchAll(/^uses-permission: name='([^']*)'/gm)].map((x) => x[1]!).sort();
      expect([...new Set(info.manifest.usesPermissions.map((p) => p.name))].sort()).toEqual([...new Set(perms)]);
      const nativeCode = one(/^native-code: (.*)$/m);
      expect(info.abis).toEqual(nativeCode ? [...nativeCode.matchAll(/'([^']+)'/g)].map((x) => x[1]!).sort() : []);
    });

    test(`${name}: certificate digests agree with apksigner`, async () => {
      test.skip(!hasApksigner, 'apksigner is not installed (Debian package "apksigner"); skipping this cross-check');
      const r = await apksigner(['verify', '--print-certs', apk]);
      const digests = [...r.out.matchAll(/certificate SHA-256 digest: ([0-9a-f]{64})/g)].map((x) => x[1]!);
      test.skip(digests.length === 0, `apksigner printed no certificates: ${r.out.split('\n')[0]}`);
      const info = await inspectApk(apk);
      expect(info.signing.certSha256).toEqual([...new Set(digests)].sort());
    });
  }
});

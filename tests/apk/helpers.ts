/** Shared paths and ground truth for the apk tests. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DeviceTraits } from '../../device-runtime/protocol/preflight.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = join(ROOT, 'fixtures/apks');
export const fixture = (name: string): string => join(FIXTURES, name);

/** The shape of fixtures/apks/manifest.json that these tests rely on (written by the fixture build). */
export type GroundTruthApk = {
  file: string;
  package: string;
  split: string | null;
  version_code: number;
  version_name: string | null;
  label: string | null;
  min_sdk: number;
  target_sdk: number;
  launchable_activity: string | null;
  permissions: string[];
  is_feature_split: boolean | null;
  is_split_required: boolean;
  uses_split: string[];
  extract_native_libs: boolean | null;
  has_code: boolean;
  activities: Array<{ name: string; exported: boolean; actions?: string[] }>;
  services: Array<{ name: string; exported: boolean; process?: string }>;
  receivers: Array<{ name: string; exported: boolean; actions?: string[] }>;
  providers: Array<{ name: string; exported: boolean; authorities: string }>;
  meta_data: Record<string, string | number | boolean>;
  properties: Record<string, string | number | boolean>;
  uses_libraries: Array<{ name: string; required: boolean }>;
  uses_features: string[];
  dex_count: number;
  abis: string[];
  dex_markers: string[];
  native_libs: Array<{
    path: string;
    abi: string;
    size: number;
    stored: boolean;
    data_offset: number;
    load_segment_alignment: number;
  }>;
  signing: { signed: boolean; schemes: string[]; signers: Array<{ cert_sha256: string }> };
  expected: Expectation;
  expected_on?: Record<string, Expectation>;
};
export type Expectation = { installable: boolean; reject: string[]; warn: string[] };
export type GroundTruth = {
  reference_device: string;
  device_profiles: Record<string, DeviceTraits & { secure_env?: boolean }>;
  apks: GroundTruthApk[];
  bundles: Array<{ file: string; format: string; package: string; entries: string[]; expected: Expectation }>;
};

export function groundTruth(): GroundTruth | null {
  const p = join(FIXTURES, 'manifest.json');
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as GroundTruth) : null;
}

export const DEVICE_16K: DeviceTraits = { abis: ['x86_64'], page_size: 16384, sdk_int: 35, min_target_sdk: 24 };
export const DEVICE_4K: DeviceTraits = { abis: ['x86_64'], page_size: 4096, sdk_int: 35, min_target_sdk: 24 };

/** Every APK shipped by the npm packages we install for this purpose (io.appium.settings, appium-uiautomator2-server). */
export function npmShippedApks(): string[] {
  const require = createRequire(join(ROOT, 'package.json'));
  const out: string[] = [];
  for (const pkg of ['io.appium.settings', 'appium-uiautomator2-server']) {
    let dir: string;
    try {
      dir = join(dirname(require.resolve(`${pkg}/package.json`)), 'apks');
    } catch {
      continue;
    }
    if (existsSync(dir))
      out.push(
        ...readdirSync(dir)
          .filter((f) => f.endsWith('.apk'))
          .map((f) => join(dir, f)),
      );
  }
  return out;
}

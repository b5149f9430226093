/**
 * The data model of an inspected APK (or split set / bundle). Everything is a zod schema; types
 * are `z.infer`. Names follow the manifest's own (`minSdk`, `isFeatureSplit`, …); sizes are bytes.
 */
import { z } from 'zod';

export const MetaDataSchema = z.object({
  name: z.string(),
  /** Literal value (`android:value`), or the resolved string when it referenced a string resource. */
  value: z.union([z.string(), z.number(), z.boolean()]).nullable(),
  /** `android:resource` (or an unresolved `android:value` reference) as a resource id. */
  resource: z.number().int().nullable(),
});
export type MetaData = z.infer<typeof MetaDataSchema>;

export const IntentFilterSchema = z.object({
  actions: z.array(z.string()),
  categories: z.array(z.string()),
  /** `<data>` elements, attribute name → value (scheme, host, mimeType, path…). */
  data: z.array(z.record(z.string(), z.string())),
  priority: z.number().int().nullable(),
});
export type IntentFilter = z.infer<typeof IntentFilterSchema>;

export const ComponentSchema = z.object({
  /** Fully qualified class name (`.Main` is expanded with the package). */
  name: z.string(),
  /** Null when not declared (the platform then infers it from intent filters). */
  exported: z.boolean().nullable(),
  enabled: z.boolean(),
  process: z.string().nullable(),
  permission: z.string().nullable(),
  intentFilters: z.array(IntentFilterSchema),
  metaData: z.array(MetaDataSchema),
});
export type Component = z.infer<typeof ComponentSchema>;

export const ActivitySchema = ComponentSchema.extend({
  /** True for `<activity-alias>`; `targetActivity` then names the real activity. */
  alias: z.boolean(),
  targetActivity: z.string().nullable(),
  /** Has an intent filter with action MAIN and category LAUNCHER. */
  launcher: z.boolean(),
});
export type Activity = z.infer<typeof ActivitySchema>;

export const ProviderSchema = ComponentSchema.extend({ authorities: z.array(z.string()) });
export type Provider = z.infer<typeof ProviderSchema>;

export const ServiceSchema = ComponentSchema.extend({ foregroundServiceType: z.number().int().nullable() });
export type Service = z.infer<typeof ServiceSchema>;

export const UsesPermissionSchema = z.object({ name: z.string(), maxSdkVersion: z.number().int().nullable() });
export const UsesFeatureSchema = z.object({
  name: z.string().nullable(),
  required: z.boolean(),
  glEsVersion: z.number().int().nullable(),
});
export const UsesLibrarySchema = z.object({ name: z.string(), required: z.boolean() });

export const SplitAttrsSchema = z.object({
  /** `split` on `<manifest>`: null for a base APK. */
  name: z.string().nullable(),
  isFeatureSplit: z.boolean(),
  /** For config splits: the split (or "" = base) they configure. */
  configForSplit: z.string().nullable(),
  isSplitRequired: z.boolean(),
  /** `android:requiredSplitTypes` / `android:splitTypes` (Android 13+), comma-separated in the manifest. */
  requiredSplitTypes: z.array(z.string()),
  splitTypes: z.array(z.string()),
  /** `<uses-split android:name>`: feature splits this one depends on. */
  usesSplits: z.array(z.string()),
});
export type SplitAttrs = z.infer<typeof SplitAttrsSchema>;

export const ManifestSchema = z.object({
  package: z.string(),
  versionCode: z.number().int(),
  versionName: z.string().nullable(),
  minSdk: z.number().int(),
  targetSdk: z.number().int(),
  compileSdk: z.number().int().nullable(),
  /** Application label, resolved through resources.arsc; null when absent or unresolvable. */
  label: z.string().nullable(),
  debuggable: z.boolean(),
  /** Null when not declared (platform default: true). */
  extractNativeLibs: z.boolean().nullable(),
  /** `<property android:name="REQUIRE_SECURE_ENV" android:value="1|true">` on application (or a meta-data of that name). */
  requireSecureEnv: z.boolean(),
  hasCode: z.boolean(),
  /** The activity (or alias) started from the launcher, if any. */
  launcherActivity: z.string().nullable(),
  activities: z.array(ActivitySchema),
  services: z.array(ServiceSchema),
  providers: z.array(ProviderSchema),
  receivers: z.array(ComponentSchema),
  usesPermissions: z.array(UsesPermissionSchema),
  usesFeatures: z.array(UsesFeatureSchema),
  usesLibraries: z.array(UsesLibrarySchema),
  /** `<meta-data>` directly under `<application>`. */
  metaData: z.array(MetaDataSchema),
  /** `<property>` under `<application>` (Android 12+). */
  properties: z.array(MetaDataSchema),
  split: SplitAttrsSchema,
});
export type Manifest = z.infer<typeof ManifestSchema>;

export const SignerSchema = z.object({
  scheme: z.enum(['v1', 'v2', 'v3', 'v3.1']),
  /** Lower-case hex SHA-256 of each certificate in the signer's chain, signing certificate first. */
  certSha256: z.array(z.string()),
  /** v3 key rotation: SHA-256 of every certificate in the proof-of-rotation lineage, oldest first (empty without rotation). */
  lineageSha256: z.array(z.string()),
});
export type Signer = z.infer<typeof SignerSchema>;

export const SigningSchema = z.object({
  schemes: z.array(z.enum(['v1', 'v2', 'v3', 'v3.1'])),
  signers: z.array(SignerSchema),
  /**
   * The certificates the platform would use: the v3 (else v2, else v1) signers' signing
   * certificates, as hex SHA-256, sorted. Empty = unsigned.
   */
  certSha256: z.array(z.string()),
  /** Past signing certificates the chosen signers vouch for (v3 rotation lineage), hex SHA-256. */
  lineageSha256: z.array(z.string()),
  /**
   * Signed, and every signature checked: v2/v3/v3.1 signatures and content digests when the APK has
   * a signing block (all schemes in it, like apksigner), else the v1 JAR signature and every entry's digest.
   */
  verified: z.boolean(),
  /** Why verification failed (empty when verified or unsigned). */
  problems: z.array(z.string()),
});
export type Signing = z.infer<typeof SigningSchema>;

export const NativeLibSchema = z.object({
  abi: z.string(),
  /** Zip entry name, `lib/<abi>/libfoo.so`. */
  path: z.string(),
  size: z.number().int(),
  compressed: z.boolean(),
  /** Offset of the stored data in the zip (null when compressed: it is extracted, so it does not matter). */
  dataOffset: z.number().int().nullable(),
  /** Smallest PT_LOAD p_align of the ELF; null when not an ELF we could read. */
  pAlign: z.number().int().nullable(),
  elfAligned16k: z.boolean().nullable(),
  /** dataOffset % 16384 === 0; null when compressed. */
  zipAligned16k: z.boolean().nullable(),
  /** Why the ELF could not be read (not an ELF, truncated…); the lib still counts for its ABI. */
  error: z.string().nullable(),
});
export type NativeLib = z.infer<typeof NativeLibSchema>;

export const DexHintsSchema = z.object({
  keystore: z.boolean(),
  playIntegrity: z.boolean(),
  gms: z.boolean(),
  /** Inflated dex bytes searched (the scan stops once every marker has been seen). */
  scannedBytes: z.number().int(),
});
export type DexHints = z.infer<typeof DexHintsSchema>;

export const ApkFileSchema = z.object({
  path: z.string(),
  size: z.number().int(),
  manifest: ManifestSchema,
  signing: SigningSchema,
  nativeLibs: z.array(NativeLibSchema),
  /** ABIs that have at least one `lib/<abi>/*.so`. */
  abis: z.array(z.string()),
  dexCount: z.number().int(),
  dexHints: DexHintsSchema,
});
export type ApkFile = z.infer<typeof ApkFileSchema>;

export const ApkInfoSchema = z.object({
  source: z.object({
    kind: z.enum(['apk', 'splits', 'apks', 'xapk']),
    paths: z.array(z.string()),
  }),
  /** From the base APK (or the first file when no base was given). */
  package: z.string(),
  versionCode: z.number().int(),
  versionName: z.string().nullable(),
  minSdk: z.number().int(),
  targetSdk: z.number().int(),
  label: z.string().nullable(),
  launcherActivity: z.string().nullable(),
  activities: z.array(ActivitySchema),
  /** The base APK's whole manifest and signing (first file's when no base was given). */
  manifest: ManifestSchema,
  signing: SigningSchema,
  /** Union over all files. */
  abis: z.array(z.string()),
  dexCount: z.number().int(),
  /** Base first (when present), then splits in input order: for a bundle read for a device, only those chosen for it. */
  apks: z.array(ApkFileSchema),
  /** For a bundle read for a device: each config split, whether it was chosen and why (./split-selection.ts). */
  splitSelection: z.array(z.object({ split: z.string(), chosen: z.boolean(), reason: z.string() })),
});
export type ApkInfo = z.infer<typeof ApkInfoSchema>;

import { z } from 'zod';
import { ErrorCodeSchema } from './errors.js';

/**
 * The checks that can refuse an install: their codes are error codes, and space_install_apk
 * answers with the first rejecting one (Appendix A of the NestSpace design).
 */
export const PreflightRejectCodeSchema = ErrorCodeSchema.extract([
  'INVALID_APK',
  'SECURE_ENV_REQUIRED',
  'ABI_MISMATCH',
  'NOT_16KB_ALIGNED',
  'SPLIT_INCOMPLETE',
  'SPLIT_MISMATCH',
  'SIGNATURE_MISMATCH',
  'SIGNATURE_INVALID',
  'UNSIGNED',
  'TARGET_SDK_TOO_LOW',
  'MIN_SDK_TOO_HIGH',
  'VERSION_DOWNGRADE',
]);

/** Every preflight check code: the rejecting ones, and those that only ever warn. */
export const PreflightCodeSchema = z.enum([
  ...PreflightRejectCodeSchema.options,
  'USES_GMS',
  'USES_PLAY_INTEGRITY',
  'USES_KEYSTORE',
  'DANGEROUS_PERMISSIONS',
  'MULTI_PROCESS',
]);
export type PreflightCode = z.infer<typeof PreflightCodeSchema>;

export const PreflightStatusSchema = z.enum(['ok', 'warn', 'reject']);
export type PreflightStatus = z.infer<typeof PreflightStatusSchema>;

export const PreflightCheckSchema = z.object({
  code: PreflightCodeSchema,
  status: PreflightStatusSchema,
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type PreflightCheck = z.infer<typeof PreflightCheckSchema>;

export const PreflightReportSchema = z.object({
  installable: z.boolean(),
  package: z.string().nullable(),
  version_code: z.number().int().nullable(),
  checks: z.array(PreflightCheckSchema),
});
export type PreflightReport = z.infer<typeof PreflightReportSchema>;

/** What preflight needs to know about the device it targets. */
export const DeviceTraitsSchema = z.object({
  abis: z.array(z.string()).min(1),
  page_size: z.union([z.literal(4096), z.literal(16384)]),
  sdk_int: z.number().int(),
  min_target_sdk: z.number().int().default(24),
  /**
   * The runtime installs apps into a secure (non-virtualized) environment, so apps declaring
   * REQUIRE_SECURE_ENV may be installed. Absent = false: a NestSpace virtual space is not one.
   */
  secure_env: z.boolean().optional(),
  /** Screen density in dpi, for choosing a bundle's density splits (default 420). */
  density: z.number().int().positive().optional(),
  /** Device languages, most preferred first (BCP 47, e.g. `de-DE`), for a bundle's language splits (default en-US). */
  locales: z.array(z.string()).optional(),
});
export type DeviceTraits = z.infer<typeof DeviceTraitsSchema>;

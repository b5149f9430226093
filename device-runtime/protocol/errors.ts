import { z } from 'zod';

/**
 * The closed set of error codes a device runtime may return. Every tool call returns either its
 * result or a {@link ToolError}. Adding a code is a protocol change: clients switch on these.
 */
export const ErrorCodeSchema = z.enum([
  // input and lookup
  'INVALID_ARGUMENT',
  'SPACE_NOT_FOUND',
  'APP_NOT_INSTALLED',
  'INSTANCE_NOT_FOUND',
  'NODE_NOT_FOUND',
  'AMBIGUOUS_TARGET',
  'SNAPSHOT_STALE',
  /** Extension observe_diff: `since` names the session's base snapshot with another hash (the client's copy differs). */
  'DIFF_BASE_MISMATCH',
  'TASK_NOT_FOUND',
  'SKILL_NOT_FOUND',
  'APPROVAL_NOT_FOUND',
  /** A notification id that is not (or no longer) posted: dismissed, tapped, or never there. */
  'NOTIFICATION_NOT_FOUND',
  'UNKNOWN_TOOL',
  // install preflight (Appendix A)
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
  // runtime
  'APP_CRASHED',
  'NO_PROCESS_SLOT',
  'CHANNEL_UNAVAILABLE',
  'NOT_SUPPORTED',
  'TOOL_DISABLED',
  'TIMEOUT',
  'CANCELLED',
  /** The runtime cannot save its state (disk full, read-only): state-changing calls are refused. */
  'STORAGE_UNAVAILABLE',
  // sessions, approvals, auth (docs/protocol.md#transport, docs/protocol.md#leases, docs/protocol.md#approvals)
  'SPACE_BUSY',
  'LEASE_REQUIRED',
  'APPROVAL_REQUIRED',
  'APPROVAL_DENIED',
  'UNAUTHORIZED',
  'RATE_LIMITED',
  // transport, raised by clients rather than runtimes
  'DEVICE_DISCONNECTED',
  'PROTOCOL_ERROR',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** The error envelope (docs/protocol.md#errors): `{code, message, retryable, hint}`, plus optional details. */
export const ToolErrorSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  retryable: z.boolean(),
  hint: z.string().nullable(),
  /** Structured context: the lease holder for SPACE_BUSY, the preflight report for install codes… */
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ToolError = z.infer<typeof ToolErrorSchema>;

/** Codes that are worth retrying unchanged after a pause. */
export const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'SPACE_BUSY',
  'SNAPSHOT_STALE',
  'NO_PROCESS_SLOT',
  'TIMEOUT',
  'RATE_LIMITED',
  'CHANNEL_UNAVAILABLE',
]);

/**
 * An error envelope for `code`: retryable as the code is (`RETRYABLE_CODES`) unless told,
 * `hint` saying what to do.
 */
export function toolError(
  code: ErrorCode,
  message: string,
  opts: { hint?: string; details?: Record<string, unknown>; retryable?: boolean } = {},
): ToolError {
  return {
    code,
    message,
    retryable: opts.retryable ?? RETRYABLE_CODES.has(code),
    hint: opts.hint ?? null,
    ...(opts.details ? { details: opts.details } : {}),
  };
}

import { z } from 'zod';
import { ErrorCodeSchema } from '../../device-runtime/protocol/index.js';

/**
 * Error codes of `nestwright mcp`: the device protocol's closed set (a device error passes through
 * with its own code) plus the test-level ones. Agents switch on these, never on messages.
 */
export const AgentErrorCodeSchema = z.enum([
  ...ErrorCodeSchema.options,
  'SESSION_NOT_FOUND',
  'TRAJECTORY_NOT_FOUND',
  'PATH_NOT_ALLOWED',
  'NOT_AVAILABLE',
  'RUN_FAILED',
  'STRICT_MODE_VIOLATION',
  'ASSERTION_FAILED',
  'TEST_FAILED',
  'PROPOSAL_NOT_FOUND',
]);
export type AgentErrorCode = z.infer<typeof AgentErrorCodeSchema>;

/** The envelope, as the device protocol's: `{code, message, retryable, hint}`. */
export const AgentErrorSchema = z.object({
  code: AgentErrorCodeSchema,
  message: z.string(),
  retryable: z.boolean(),
  hint: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type AgentErrorEnvelope = z.infer<typeof AgentErrorSchema>;

/** A tool failed in a way the agent can act on; the message names the tool. */
export class AgentError extends Error {
  constructor(
    readonly code: AgentErrorCode,
    message: string,
    readonly hint: string | null = null,
    readonly details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AgentError';
  }
}

const CLASS_CODES: Record<string, AgentErrorCode> = {
  TimeoutError: 'TIMEOUT',
  StrictModeViolationError: 'STRICT_MODE_VIOLATION',
  AppCrashedError: 'APP_CRASHED',
  DeviceDisconnectedError: 'DEVICE_DISCONNECTED',
};

/**
 * Any error as an envelope: ours as they are; nestwright's and the device's by their `code` (or
 * their class, for errors that predate codes); anything else INTERNAL.
 */
export function toEnvelope(tool: string, e: unknown): AgentErrorEnvelope {
  if (e instanceof AgentError) {
    return {
      code: e.code,
      message: `${tool}: ${e.message}`,
      retryable: false,
      hint: e.hint,
      ...(e.details ? { details: e.details } : {}),
    };
  }
  const err = e as {
    code?: unknown;
    name?: string;
    message?: string;
    hint?: string | null;
    retryable?: boolean;
    cause?: unknown;
  };
  const parsed = AgentErrorCodeSchema.safeParse(err?.code);
  const code: AgentErrorCode = parsed.success
    ? parsed.data
    : (CLASS_CODES[err?.name ?? ''] ?? deviceCode(err?.cause) ?? 'INTERNAL');
  return {
    code,
    message: `${tool}: ${err?.message ?? String(e)}`,
    retryable: err?.retryable ?? false,
    hint: err?.hint ?? null,
  };
}

function deviceCode(cause: unknown): AgentErrorCode | undefined {
  const parsed = AgentErrorCodeSchema.safeParse((cause as { code?: unknown } | undefined)?.code);
  return parsed.success ? parsed.data : undefined;
}

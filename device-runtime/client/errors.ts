import type { ErrorCode, ToolError } from '../protocol/index.js';

/**
 * A tool call answered with an error envelope, or a transport failure (DEVICE_DISCONNECTED).
 * The message names the tool first: `ui_tap: SPACE_BUSY: …`.
 */
export class DeviceError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly hint: string | null;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    readonly tool: string,
    readonly envelope: ToolError,
    options?: { cause?: unknown },
  ) {
    super(
      `${tool}: ${envelope.code}: ${envelope.message}${envelope.hint ? `\n  hint: ${envelope.hint}` : ''}`,
      options,
    );
    this.name = 'DeviceError';
    this.code = envelope.code;
    this.retryable = envelope.retryable;
    this.hint = envelope.hint;
    this.details = envelope.details;
  }
}

/**
 * A model request that failed, as every adapter reports it: a code, the HTTP status when there
 * was one, and how many HTTP requests were made (retries included), so the caller can charge
 * them. Side-neutral on purpose: the framework turns it into its `AiError` (named after the
 * public call), the device's agent into a task error.
 *
 *   AI_MODEL_ERROR  the model API failed after the adapter's retries
 *   AI_NO_API_KEY   a model is needed and no key is configured
 *   AI_CONFIG       the model configuration is malformed
 */
export type ModelErrorCode = 'AI_MODEL_ERROR' | 'AI_NO_API_KEY' | 'AI_CONFIG';

export class ModelError extends Error {
  readonly status: number | undefined;
  readonly requests: number;

  constructor(
    readonly code: ModelErrorCode,
    message: string,
    extra: { status?: number | undefined; requests?: number; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'ModelError';
    this.status = extra.status;
    this.requests = extra.requests ?? 0;
  }
}

import { AnthropicAdapter as CoreAnthropicAdapter } from '../../device-runtime/protocol/agent/anthropic.js';
import type { ModelAdapter, ModelRequest, ModelResponse } from '../../device-runtime/protocol/agent/adapter.js';
import { ModelError } from '../../device-runtime/protocol/agent/model-error.js';
import { AiError } from './errors.js';

export type { AnthropicAdapterOptions } from '../../device-runtime/protocol/agent/anthropic.js';

/** A {@link ModelError} as the framework reports it: an {@link AiError} (code, status, requests kept). */
export function toAiError(e: unknown): unknown {
  if (!(e instanceof ModelError)) return e;
  const err = new AiError('model', e.code, e.message, { cause: e.cause ?? e });
  Object.assign(err, { status: e.status, requests: e.requests });
  return err;
}

/** An adapter whose failures are {@link AiError}s, as AI steps and the heal arbiter expect. */
export function withAiErrors(adapter: ModelAdapter): ModelAdapter {
  return {
    provider: adapter.provider,
    complete: (req: ModelRequest): Promise<ModelResponse> =>
      adapter.complete(req).catch((e: unknown) => {
        throw toAiError(e);
      }),
  };
}

/**
 * The Messages API adapter (device-runtime/protocol/agent/anthropic.ts, shared with the device's
 * own agent), failing with {@link AiError}.
 */
export class AnthropicAdapter extends CoreAnthropicAdapter {
  override async complete(req: ModelRequest): Promise<ModelResponse> {
    try {
      return await super.complete(req);
    } catch (e) {
      throw toAiError(e);
    }
  }
}

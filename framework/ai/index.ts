/**
 * AI steps: `app.ai.act / assert / extract / waitFor` and `expect(app).toSatisfy()`, configured
 * under `use.ai`. The model sits behind {@link ModelAdapter}; ids and prices in models.ts.
 */
export { AppAi } from './app-ai.js';
export { AiError, type AiErrorCode } from './errors.js';
export { secret, Secret } from '../core/secret.js';
export { MODEL_PRICES, DEFAULT_MODELS, costUsd, type ModelPrice, type Usage } from './models.js';
export { AiOptionsSchema, resolveAiOptions, type AiOptionsInput, type AiOptions, type Budget } from './options.js';
export type { ModelAdapter, ModelRequest, ModelResponse, ToolSpec, ContentBlock } from './adapter.js';
export { AnthropicAdapter } from './anthropic.js';
export { runWithAi, currentAiContext } from './context.js';
export { satisfies } from './verdict.js';
export { AiStepRecordSchema, type AiStepRecord } from './record.js';
export { cachePathFor } from './cache.js';
export type { ActOptions } from './act.js';

import { z } from 'zod';
import { MODEL_PROVIDERS } from '../../device-runtime/protocol/agent/providers.js';
import { AiError } from './errors.js';
import { DEFAULT_MODELS, MODEL_PRICES, type ModelPrice, type Verb } from './models.js';

const BudgetSchema = z.strictObject({
  tokens: z.number().int().positive().optional().describe('Input + output + cache tokens'),
  /** Cost in US dollars, from the model's prices. */
  usd: z.number().positive().optional(),
});
export type Budget = z.infer<typeof BudgetSchema>;

const PriceSchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative().optional(),
  cacheWrite: z.number().nonnegative().optional(),
});

/** `use.ai` as written in playwright.config.ts or test.use(). */
export const AiOptionsSchema = z.strictObject({
  /** One model id for every verb, or one per verb; defaults in models.ts. */
  model: z
    .union([
      z.string().min(1),
      z.strictObject({
        act: z.string().min(1).optional(),
        assert: z.string().min(1).optional(),
        extract: z.string().min(1).optional(),
        waitFor: z.string().min(1).optional(),
      }),
    ])
    .optional(),
  /**
   * 'anthropic' (the Messages API) or 'openai-compatible' (Chat Completions with tools: vLLM,
   * Ollama, llama.cpp's server, gateways, OpenAI). An openai-compatible model needs `model`,
   * `baseURL` and its price in `prices`.
   */
  provider: z.enum(MODEL_PROVIDERS).default('anthropic'),
  /**
   * Default: process.env.ANTHROPIC_API_KEY (anthropic) or OPENAI_API_KEY (openai-compatible,
   * where it is optional), read when the first model request is needed.
   */
  apiKey: z.string().min(1).optional(),
  /**
   * Default: process.env.ANTHROPIC_BASE_URL, else the SDK's default (anthropic); OPENAI_BASE_URL
   * (openai-compatible, e.g. `http://localhost:11434/v1`). A proxy or a local stand-in works.
   */
  baseURL: z.string().url().optional(),
  /** Model turns an act step may take before it fails. */
  maxTurns: z.number().int().min(1).max(100).default(12),
  /** Limits per step and per test (`{ tokens, usd }` each); going over fails with AI_BUDGET_EXCEEDED. */
  budget: z.strictObject({ step: BudgetSchema.optional(), test: BudgetSchema.optional() }).default({}),
  /** The action cache beside the spec (`__ai-cache__/`): read and write it, only read it, or neither. */
  cache: z.enum(['read-write', 'read-only', 'off']).default('read-write'),
  /** USD per million tokens for models not in the table of models.ts (or to override it). */
  prices: z.record(z.string(), PriceSchema).default({}),
  /** SSE streaming responses (the same result; useful behind proxies that cut long requests). */
  stream: z.boolean().default(false),
  /** Retries of 408/409/429/5xx by the provider's SDK, honouring retry-after. */
  maxRetries: z.number().int().min(0).max(10).default(4),
  /** Per request, ms. */
  requestTimeout: z.number().int().positive().default(60_000),
  /** Output tokens per model request. */
  maxTokens: z.number().int().positive().default(1024),
  /** Node texts (or patterns) an act step may never tap, type into or long-press, e.g. ['Delete all']. */
  deny: z.array(z.union([z.string(), z.instanceof(RegExp)])).default([]),
  /** Send a screenshot with every screen (by default only when the screen has no nodes). */
  vision: z.boolean().default(false),
});
/** What `use.ai` takes (model, apiKey, baseURL, maxTurns, budget, cache…), as `AiOptionsSchema` parses it. */
export type AiOptionsInput = z.input<typeof AiOptionsSchema>;

export interface AiOptions extends Omit<z.output<typeof AiOptionsSchema>, 'model' | 'prices'> {
  models: Record<Verb, string>;
  prices: Record<string, ModelPrice>;
}

/** Validate `use.ai` and fill the defaults; a bad value fails naming its path. */
export function resolveAiOptions(raw: unknown): AiOptions {
  const r = AiOptionsSchema.safeParse(raw ?? {});
  if (!r.success) throw new AiError('use.ai', 'AI_CONFIG', `invalid options:\n${z.prettifyError(r.error)}`);
  const { model, prices, ...rest } = r.data;
  if (rest.provider !== 'anthropic' && model === undefined)
    throw new AiError(
      'use.ai',
      'AI_CONFIG',
      `provider '${rest.provider}' has no default model: set use.ai.model to the id your server serves (one id, or one per verb: { act, assert, extract, waitFor }), and its price in use.ai.prices.`,
    );
  const models: Record<Verb, string> =
    typeof model === 'string'
      ? { act: model, assert: model, extract: model, waitFor: model }
      : { ...DEFAULT_MODELS, ...model };
  const table = { ...MODEL_PRICES, ...prices };
  for (const [verb, id] of Object.entries(models)) {
    if (!table[id]) {
      throw new AiError(
        'use.ai',
        'AI_CONFIG',
        `model '${id}' (for ${verb}) has no price, so its cost cannot be counted. Use one of ${Object.keys(MODEL_PRICES).join(', ')}, or add use.ai.prices['${id}'] = { input, output } (USD per million tokens).`,
      );
    }
  }
  return { ...rest, models, prices: table };
}

/**
 * Model ids and prices, from the NestSpace runtime's model table (Anthropic first-party prices as
 * of 2026-10, USD per million tokens). Call sites never name a model: they take it from the
 * resolved `use.ai` options, whose defaults are here.
 *
 * Cache prices are not in that table; they follow Anthropic's published multipliers for prompt
 * caching: a cache write costs 1.25× the input price, a cache read 0.1×.
 */
export interface ModelPrice {
  /** USD per million input tokens. */
  input: number;
  /** USD per million output tokens. */
  output: number;
  /** USD per million tokens read from the prompt cache (default 0.1 × input). */
  cacheRead?: number;
  /** USD per million tokens written to the prompt cache (default 1.25 × input). */
  cacheWrite?: number;
}

/** USD per million tokens for each model id nestwright knows, as `use.ai` cost budgets and reports use them. */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-5-5': { input: 4, output: 20 },
  'claude-sonnet-5-5': { input: 2, output: 10 },
  'claude-haiku-5-5': { input: 0.1, output: 0.5 },
  'claude-fable-5-1': { input: 10, output: 50 },
};

/**
 * Which model each verb uses by default, as the runtime's model table advises: Opus 5.5 is the default for planning and long
 * tasks (act, and verdicts a test depends on); Haiku 5.5 for simple classification and waiting
 * (waitFor re-asks on every screen change, so it is the one that must be cheap).
 */
export const DEFAULT_MODELS = {
  act: 'claude-opus-5-5',
  assert: 'claude-opus-5-5',
  extract: 'claude-opus-5-5',
  waitFor: 'claude-haiku-5-5',
} as const;

export type Verb = keyof typeof DEFAULT_MODELS;

/** Token counts of one or more model requests, as the API reports them. */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** HTTP requests made, retries included. */
  requests: number;
}

export const ZERO_USAGE: Usage = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, requests: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    requests: a.requests + b.requests,
  };
}

export function totalTokens(u: Usage): number {
  return u.input + u.output + u.cacheRead + u.cacheWrite;
}

/** USD for `usage` at `price`. */
export function costUsd(usage: Usage, price: ModelPrice): number {
  const per = (tokens: number, usdPerMillion: number) => (tokens * usdPerMillion) / 1_000_000;
  return (
    per(usage.input, price.input) +
    per(usage.output, price.output) +
    per(usage.cacheRead, price.cacheRead ?? price.input * 0.1) +
    per(usage.cacheWrite, price.cacheWrite ?? price.input * 1.25)
  );
}

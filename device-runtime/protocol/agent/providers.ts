import type { ModelAdapter } from './adapter.js';
import { AnthropicAdapter } from './anthropic.js';
import { ModelError } from './model-error.js';
import { OpenAiCompatibleAdapter } from './openai.js';

/** The model providers nestwright speaks: the Messages API, and Chat Completions with tools. */
export const MODEL_PROVIDERS = ['anthropic', 'openai-compatible'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** How to reach a model, as `use.ai` and the simulator's agent options both say it. */
export interface ModelConnection {
  provider: ModelProvider;
  /** Default: ANTHROPIC_API_KEY, or OPENAI_API_KEY (optional for openai-compatible: local servers need none). */
  apiKey?: string | undefined;
  /** Default: ANTHROPIC_BASE_URL (else the SDK's), or OPENAI_BASE_URL (required for openai-compatible). */
  baseURL?: string | undefined;
  maxRetries: number;
  timeoutMs: number;
  stream: boolean;
}

const ENV = {
  anthropic: { key: 'ANTHROPIC_API_KEY', url: 'ANTHROPIC_BASE_URL' },
  'openai-compatible': { key: 'OPENAI_API_KEY', url: 'OPENAI_BASE_URL' },
} as const;

/** The environment variables a provider reads its key and base URL from. */
export const providerEnv = (p: ModelProvider) => ENV[p];

/**
 * The adapter for `c`, with the key and base URL from the environment when `c` has none.
 * Fails with a {@link ModelError} (AI_NO_API_KEY, AI_CONFIG) whose message says what to set;
 * `where` names the option that configures it (`use.ai`, `nestwright sim --model-…`).
 */
export function createModelAdapter(
  c: ModelConnection,
  where: string,
  env: Record<string, string | undefined> = process.env,
): ModelAdapter {
  const names = ENV[c.provider];
  const apiKey = c.apiKey ?? (env[names.key] || undefined);
  const baseURL = c.baseURL ?? (env[names.url] || undefined);
  const common = { maxRetries: c.maxRetries, timeoutMs: c.timeoutMs, stream: c.stream };
  if (c.provider === 'anthropic') {
    if (!apiKey)
      throw new ModelError(
        'AI_NO_API_KEY',
        `no API key for the anthropic provider: set ${names.key} (or ${where}.apiKey)`,
      );
    return new AnthropicAdapter({ apiKey, ...(baseURL ? { baseURL } : {}), ...common });
  }
  if (!baseURL)
    throw new ModelError(
      'AI_CONFIG',
      `the openai-compatible provider needs the server's base URL: set ${where}.baseURL (e.g. 'http://localhost:11434/v1' for Ollama, 'https://api.openai.com/v1' for OpenAI) or ${names.url}`,
    );
  return new OpenAiCompatibleAdapter({ baseURL, apiKey, ...common });
}

import { z } from 'zod';
import { MODEL_PRICES, type ModelPrice } from '../../protocol/agent/models.js';
import { MODEL_PROVIDERS } from '../../protocol/agent/providers.js';
import { describeIssues } from '../../protocol/index.js';

const PriceSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative().optional(),
  cacheWrite: z.number().nonnegative().optional(),
});

/**
 * The model of the device's own agent (task_run), as `nestwright sim --model …`,
 * `startSimServer({ agent })` or the NESTWRIGHT_SIM_MODEL* variables give it: the same providers
 * and adapters as a test's `use.ai`. The model id is always configuration; its price comes from
 * `prices` or the table of protocol/agent/models.ts.
 */
export const DeviceAgentOptionsSchema = z.object({
  provider: z.enum(MODEL_PROVIDERS).default('anthropic'),
  model: z.string().min(1),
  /** Default: ANTHROPIC_API_KEY / OPENAI_API_KEY. */
  apiKey: z.string().min(1).optional(),
  /** Default: ANTHROPIC_BASE_URL / OPENAI_BASE_URL. */
  baseURL: z.string().url().optional(),
  prices: z.record(z.string(), PriceSchema).default({}),
  stream: z.boolean().default(false),
  maxRetries: z.number().int().min(0).max(10).default(4),
  requestTimeout: z.number().int().positive().default(60_000),
  maxTokens: z.number().int().positive().default(1024),
  /** Limits of every task (task_run's `budget` narrows them). */
  budget: z
    .object({ tokens: z.number().int().positive().optional(), usd: z.number().positive().optional() })
    .optional(),
  /** How long a dangerous step waits for approval_decide before it counts as denied (ms). */
  approvalTimeout: z.number().int().positive().default(300_000),
});
export type DeviceAgentOptions = z.input<typeof DeviceAgentOptionsSchema>;
export type DeviceAgentSettings = z.output<typeof DeviceAgentOptionsSchema> & { price: ModelPrice };

/** Validated, with its price found; a bad value throws naming the field and what to set. */
export function resolveDeviceAgent(raw: DeviceAgentOptions, where = 'agent'): DeviceAgentSettings {
  const r = DeviceAgentOptionsSchema.safeParse(raw);
  if (!r.success) throw new Error(`${where}: ${describeIssues(r.error)}`);
  const price = r.data.prices[r.data.model] ?? MODEL_PRICES[r.data.model];
  if (!price)
    throw new Error(
      `${where}: model '${r.data.model}' has no price, so a task's cost cannot be counted: pass --model-price IN,OUT (USD per million input, output tokens) or NESTWRIGHT_SIM_MODEL_PRICE, or use one of ${Object.keys(MODEL_PRICES).join(', ')}`,
    );
  return { ...r.data, price };
}

/**
 * NESTWRIGHT_SIM_MODEL (the id; nothing configured without it), NESTWRIGHT_SIM_MODEL_PROVIDER,
 * NESTWRIGHT_SIM_MODEL_BASE_URL, NESTWRIGHT_SIM_MODEL_API_KEY, NESTWRIGHT_SIM_MODEL_PRICE
 * (`IN,OUT`), NESTWRIGHT_SIM_MODEL_STREAM (`1`): how an embedded simulator (a test run's) gets one.
 */
export function deviceAgentFromEnv(env: Record<string, string | undefined>): DeviceAgentOptions | null {
  const model = env.NESTWRIGHT_SIM_MODEL;
  if (!model) return null;
  const price = env.NESTWRIGHT_SIM_MODEL_PRICE
    ? parsePrice(env.NESTWRIGHT_SIM_MODEL_PRICE, 'NESTWRIGHT_SIM_MODEL_PRICE')
    : null;
  return {
    model,
    ...(env.NESTWRIGHT_SIM_MODEL_PROVIDER ? { provider: env.NESTWRIGHT_SIM_MODEL_PROVIDER as 'anthropic' } : {}),
    ...(env.NESTWRIGHT_SIM_MODEL_BASE_URL ? { baseURL: env.NESTWRIGHT_SIM_MODEL_BASE_URL } : {}),
    ...(env.NESTWRIGHT_SIM_MODEL_API_KEY ? { apiKey: env.NESTWRIGHT_SIM_MODEL_API_KEY } : {}),
    ...(price ? { prices: { [model]: price } } : {}),
    ...(env.NESTWRIGHT_SIM_MODEL_STREAM === '1' ? { stream: true } : {}),
  };
}

/** `IN,OUT` USD per million tokens. */
export function parsePrice(spec: string, where: string): ModelPrice {
  const [input, output] = spec.split(',').map((x) => Number(x.trim()));
  if (!Number.isFinite(input) || !Number.isFinite(output) || input! < 0 || output! < 0)
    throw new Error(`${where} ${spec}: expected IN,OUT in USD per million tokens, e.g. 0.5,1.5`);
  return { input: input!, output: output! };
}

/** Told to a caller of task_run on a runtime with no model. */
export const NO_MODEL_HINT =
  'Start the simulator with a model: `nestwright sim --model <id> [--model-provider anthropic|openai-compatible --model-base-url URL --model-price IN,OUT]` (the key from ANTHROPIC_API_KEY / OPENAI_API_KEY), startSimServer({ agent: { provider, model, baseURL } }), or NESTWRIGHT_SIM_MODEL=<id> for an embedded one.';

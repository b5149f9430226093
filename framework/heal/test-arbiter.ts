import { currentAiContext } from '../ai/context.js';
import { AiError } from '../ai/errors.js';
import { StepMeter } from '../ai/meter.js';
import { costUsd, totalTokens } from '../ai/models.js';
import type { ApiCall } from '../core/api-call.js';
import type { HealArbitration } from '../core/trajectory.js';
import { modelArbiter, type ArbitrationRecord } from './arbiter.js';
import type { HealArbiter } from './heal.js';

/**
 * `use.heal: { model: 'claude-haiku-5-5' }` in a test: the arbiter over the test's AI context —
 * the same adapter (API key, ANTHROPIC_BASE_URL / use.ai.baseURL, retries), the same prices and
 * the same budgets as the AI steps (a heal is charged as one step of the test's budget). The
 * adapter is made only when a close call needs it, so a run with nothing to arbitrate needs no key.
 */
export function testArbiter(model: string, call: ApiCall, done: (a: HealArbitration) => void): HealArbiter {
  const ctx = currentAiContext();
  const price = ctx.options.prices[model];
  if (!price)
    throw new AiError(
      'use.heal',
      'AI_CONFIG',
      `model '${model}' has no price, so its cost cannot be counted. Use one of ${Object.keys(ctx.options.prices).join(', ')}, or add use.ai.prices['${model}'] = { input, output }.`,
    );
  let meter: StepMeter | null = null;
  const step = () => (meter ??= new StepMeter(`${call.api} (heal)`, ctx.meter, ctx.options.budget.step));
  return modelArbiter({
    adapter: { provider: 'lazy', complete: (req) => ctx.adapter(call).complete(req) },
    model,
    maxTokens: Math.min(ctx.options.maxTokens, 512),
    beforeRequest: () => step().checkBefore(),
    onUsage: (usage) => step().charge(usage, price),
    onRecord: (r: ArbitrationRecord) => {
      if (!r.choice) return;
      done({
        model,
        offered: r.offered,
        choice: 'none' in r.choice ? 'none' : r.choice.node_id,
        reason: r.choice.reason ?? '',
        tokens: totalTokens(r.usage),
        costUsd: Number(costUsd(r.usage, price).toFixed(6)),
        latencyMs: r.latencyMs,
      });
    },
  });
}

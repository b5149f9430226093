import type { ApiName } from '../errors.js';
import { AiError } from './errors.js';
import { addUsage, costUsd, totalTokens, ZERO_USAGE, type ModelPrice, type Usage } from './models.js';
import type { Budget } from './options.js';

/**
 * Usage and cost of one AI step, charged to its test: after every model response both totals
 * are checked against their budgets, and the step fails with AI_BUDGET_EXCEEDED and the figures
 * as soon as one is passed (a step never starts a request once the test's budget is spent).
 */
export class TestMeter {
  usage: Usage = { ...ZERO_USAGE };
  usd = 0;
  steps = 0;
  constructor(readonly budget: Budget | undefined) {}
}

export class StepMeter {
  usage: Usage = { ...ZERO_USAGE };
  usd = 0;

  constructor(
    /** The call the step serves (its errors are named after it). */
    private readonly api: ApiName,
    private readonly test: TestMeter,
    private readonly budget: Budget | undefined,
  ) {
    test.steps++;
  }

  /** Before a request: fail if the test's budget is already spent. */
  checkBefore(): void {
    this.check('test', this.test.usage, this.test.usd, this.test.budget);
  }

  charge(usage: Usage, price: ModelPrice): void {
    const usd = costUsd(usage, price);
    this.usage = addUsage(this.usage, usage);
    this.usd += usd;
    this.test.usage = addUsage(this.test.usage, usage);
    this.test.usd += usd;
    this.check('step', this.usage, this.usd, this.budget);
    this.check('test', this.test.usage, this.test.usd, this.test.budget);
  }

  private check(scope: 'step' | 'test', usage: Usage, usd: number, budget: Budget | undefined): void {
    if (!budget) return;
    const tokens = totalTokens(usage);
    const over =
      (budget.tokens !== undefined && tokens > budget.tokens) || (budget.usd !== undefined && usd > budget.usd);
    if (!over) return;
    const limit = [
      budget.tokens !== undefined ? `${fmt(budget.tokens)} tokens` : '',
      budget.usd !== undefined ? `$${budget.usd}` : '',
    ]
      .filter(Boolean)
      .join(' / ');
    throw new AiError(
      this.api,
      'AI_BUDGET_EXCEEDED',
      `${scope === 'step' ? 'this step' : 'this test'} used ${describeUsage(usage, usd)}, over its ${scope} budget of ${limit}. ` +
        `Raise ${scope === 'step' ? "the step's { budget } or use.ai.budget.step" : 'use.ai.budget.test'}, or make the instruction narrower.`,
    );
  }
}

const fmt = (n: number) => n.toLocaleString('en-US');

export function describeUsage(u: Usage, usd: number): string {
  return `${fmt(totalTokens(u))} tokens (input ${fmt(u.input)}, output ${fmt(u.output)}, cache read ${fmt(u.cacheRead)}, cache write ${fmt(u.cacheWrite)}) in ${u.requests} request(s) = $${usd.toFixed(4)}`;
}

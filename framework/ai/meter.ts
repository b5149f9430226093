import type { ApiName } from '../core/errors.js';
import { AiError } from './errors.js';
import { describeUsage, overBudget } from '../../device-runtime/protocol/agent/budget.js';
import { addUsage, costUsd, ZERO_USAGE, type ModelPrice, type Usage } from './models.js';
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

  /** Usage measured and priced elsewhere (the device's agent), charged as it is. */
  chargeMeasured(usage: Usage, usd: number): void {
    this.usage = addUsage(this.usage, usage);
    this.usd += usd;
    this.test.usage = addUsage(this.test.usage, usage);
    this.test.usd += usd;
    this.check('test', this.test.usage, this.test.usd, this.test.budget);
  }

  private check(scope: 'step' | 'test', usage: Usage, usd: number, budget: Budget | undefined): void {
    const limit = overBudget(usage, usd, budget);
    if (!limit) return;
    throw new AiError(
      this.api,
      'AI_BUDGET_EXCEEDED',
      `${scope === 'step' ? 'this step' : 'this test'} used ${describeUsage(usage, usd)}, over its ${scope} budget of ${limit}. ` +
        `Raise ${scope === 'step' ? "the step's { budget } or use.ai.budget.step" : 'use.ai.budget.test'}, or make the instruction narrower.`,
    );
  }
}

export { describeUsage } from '../../device-runtime/protocol/agent/budget.js';

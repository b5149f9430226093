import { totalTokens, type Usage } from './models.js';

/** Limits of one step or task (or of a whole test): tokens (input + output + cache) and USD. */
export interface Budget {
  tokens?: number | undefined;
  usd?: number | undefined;
}

/** `null` when `usage` / `usd` are within `budget`; else the limit passed, as text (`10,000 tokens / $0.5`). */
export function overBudget(usage: Usage, usd: number, budget: Budget | undefined): string | null {
  if (!budget) return null;
  const tokens = totalTokens(usage);
  const over =
    (budget.tokens !== undefined && tokens > budget.tokens) || (budget.usd !== undefined && usd > budget.usd);
  if (!over) return null;
  return [
    budget.tokens !== undefined ? `${fmt(budget.tokens)} tokens` : '',
    budget.usd !== undefined ? `$${budget.usd}` : '',
  ]
    .filter(Boolean)
    .join(' / ');
}

const fmt = (n: number) => n.toLocaleString('en-US');

export function describeUsage(u: Usage, usd: number): string {
  return `${fmt(totalTokens(u))} tokens (input ${fmt(u.input)}, output ${fmt(u.output)}, cache read ${fmt(u.cacheRead)}, cache write ${fmt(u.cacheWrite)}) in ${u.requests} request(s) = $${usd.toFixed(4)}`;
}

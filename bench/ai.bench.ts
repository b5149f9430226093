import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ROOT, attachmentText, runInline } from '../tests/framework/inline.js';
import { exampleModel } from '../tests/ai/example-model.js';
import { MessagesStandIn } from '../tests/ai/stand-in.js';
import { round, type BenchSection } from './section.js';
import { readFileSync } from 'node:fs';

/**
 * AI steps of the example specs (specs/*-ai.spec.ts), first run against the Messages API
 * stand-in (the model drives every step) and then replayed from the cache the first run wrote:
 * model requests, tokens and cost per step (usage as the stand-in reports it: ~4 characters a
 * token, prompt cache modelled), the step's wall time, and the totals per test case beside
 * Midscene's published 12–29 model calls per Android case. Run in a copy of the specs, so the
 * committed cache is not touched.
 */
export async function benchAi(): Promise<BenchSection> {
  const dir = path.join(ROOT, 'test-results', 'bench-ai');
  await rm(dir, { recursive: true, force: true });
  const specs = Object.fromEntries(
    ['notes-ai.spec.ts', 'shop-ai.spec.ts'].map((f) => [f, readFileSync(path.join(ROOT, 'specs', f), 'utf8')]),
  );
  const model = await MessagesStandIn.start(exampleModel());
  const rows: BenchSection['rows'] = [];
  const cases: Record<string, Record<string, { requests: number; tokens: number; usd: number }>> = {};
  try {
    for (const pass of ['first run', 'replay'] as const) {
      const run = await runInline(specs, {
        dir,
        use: `ai: { baseURL: '${model.url}', apiKey: 'stand-in' }`,
        env: { NESTWRIGHT_FAULTS: 'instant' },
      });
      if (run.exitCode !== 0)
        throw new Error(
          `${pass}: the example AI specs failed:\n${run.results.map((r) => r.error).join('\n')}${run.stderr}`,
        );
      for (const r of run.results) {
        const doc = JSON.parse(attachmentText(r.attachments.find((a) => a.name === 'nestwright-trajectory')!));
        for (const s of doc.steps.filter((x: any) => x.ai)) {
          const u = s.ai.usage;
          const tokens = u.input + u.output + u.cacheRead + u.cacheWrite;
          rows.push({
            step: s.ai.instruction,
            run: pass,
            cache: s.ai.cache,
            requests: u.requests,
            input: u.input,
            output: u.output,
            cache_read: u.cacheRead,
            cache_write: u.cacheWrite,
            usd: round(s.ai.costUsd, 4),
            step_ms: s.durationMs,
            model_ms: s.ai.latencyMs,
          });
          const c = ((cases[r.title] ??= {})[pass] ??= { requests: 0, tokens: 0, usd: 0 });
          c.requests += u.requests;
          c.tokens += tokens;
          c.usd += s.ai.costUsd;
        }
      }
    }
  } finally {
    await model.close();
    await rm(dir, { recursive: true, force: true });
  }
  for (const [title, byPass] of Object.entries(cases)) {
    for (const [pass, c] of Object.entries(byPass))
      rows.push({
        step: `TOTAL ${title}`,
        run: pass,
        requests: c.requests,
        input: `${c.tokens} tokens`,
        usd: round(c.usd, 4),
      });
  }
  rows.push({
    step: 'Midscene, published: per Android case',
    run: 'every run',
    requests: '12–29',
    input: '100k–250k input tokens',
    cache: 'one vision call per element on replay',
  });
  return {
    title: 'AI steps: model requests, tokens, cost and time per step (example specs, stand-in model)',
    rows,
    notes: [
      "Tokens are the stand-in's estimates (4 characters a token), not a tokenizer's; costs use the §5.9 prices (Opus 5.5: $4/$20 per million; cache read 0.1×, write 1.25× input).",
      'step_ms is the whole step (device actions included); model_ms the time waiting for the stand-in. Replay makes zero requests: its time is the device actions alone.',
    ],
  };
}

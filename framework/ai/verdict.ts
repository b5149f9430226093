import { z } from 'zod';
import type { Observation } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from '../core/api-call.js';
import type { AppPort } from '../core/port.js';
import { describeScreen } from '../core/errors.js';
import type { ModelMessage } from './adapter.js';
import { currentAiContext } from './context.js';
import { AiError } from './errors.js';
import { groundVerdict } from './grounding.js';
import type { Budget } from './options.js';
import { instructionBlock, VERDICT_SYSTEM } from './prompts.js';
import { nodeLine } from './screen.js';
import { AiStep, aiStep } from './step.js';
import { VERDICT_TOOL, VerdictSchema, type Verdict } from './tools.js';

/**
 * One grounded verdict on one screen: the `verdict` tool is forced; input that does not match
 * its schema is sent back once with the problem; the verdict is then checked against the
 * snapshot (grounding.ts) and recorded with its evidence nodes.
 */
export async function askVerdict(step: AiStep, statement: string, obs: Observation): Promise<Verdict> {
  const messages: ModelMessage[] = [
    {
      role: 'user',
      content: [{ type: 'text', text: instructionBlock('statement', statement) }, ...(await step.screen(obs))],
    },
  ];
  for (let attempt = 1; ; attempt++) {
    const res = await step.request(VERDICT_SYSTEM, [VERDICT_TOOL], { type: 'tool', name: 'verdict' }, messages);
    const call = res.toolCalls.find((c) => c.name === 'verdict');
    const parsed = VerdictSchema.safeParse(call?.input);
    step.record.calls.push({
      turn: step.record.turns,
      tool: 'verdict',
      input: (call?.input ?? {}) as Record<string, unknown>,
      node: null,
      bounds: null,
      selector: null,
      before: obs.snapshot_id,
      after: obs.snapshot_id,
      result: parsed.success ? 'ok' : 'refused',
      ...(parsed.success ? {} : { message: z.prettifyError(parsed.error) }),
      source: 'model',
    });
    if (parsed.success) {
      const v = parsed.data;
      const g = groundVerdict(v, obs);
      const byId = new Map(obs.nodes.map((n) => [n.id, n]));
      const evidence = v.evidence_node_ids.flatMap((id) =>
        byId.has(id) ? [{ id, line: nodeLine(byId.get(id)!), bounds: byId.get(id)!.bounds }] : [],
      );
      step.record.verdict = { pass: v.pass, reason: v.reason, evidence, grounded: g.ok };
      if (!g.ok) {
        throw new AiError(
          step.apiCall,
          'AI_UNGROUNDED',
          `the model's verdict (pass: ${v.pass}) on ${JSON.stringify(statement)} is not grounded on the screen, so it is rejected:\n  - ${g.problems.join('\n  - ')}\nReason given: ${v.reason}\nScreen:\n${describeScreen(obs)}`,
        );
      }
      return v;
    }
    if (attempt >= 2 || !call)
      throw new AiError(
        step.apiCall,
        'AI_BAD_OUTPUT',
        `the model's verdict did not match the tool's schema twice:\n${z.prettifyError(parsed.error)}`,
      );
    messages.push({ role: 'assistant', content: res.content });
    messages.push({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          toolUseId: call.id,
          isError: true,
          content: [
            {
              type: 'text',
              text: `refused: the input does not match the schema:\n${z.prettifyError(parsed.error)}\nCall verdict again.`,
            },
          ],
        },
      ],
    });
  }
}

/** `app.ai.assert(statement)`: fails when the grounded verdict is false. Never cached. */
export function assertStatement(app: AppPort, statement: string, opts: { budget?: Budget } = {}): Promise<void> {
  return app.wrap('ai.assert', {}, (call) => assertCall(app, call, statement, opts));
}

async function assertCall(app: AppPort, call: ApiCall, statement: string, opts: { budget?: Budget }): Promise<void> {
  const ctx = currentAiContext();
  await aiStep(app, 'assertion', call, `AI assert: ${statement}`, async (rec) => {
    const step = new AiStep(app, ctx, call, 'assert', statement, opts.budget, rec);
    const obs = await step.observe();
    rec.before = rec.after = obs.snapshot_id;
    const v = await askVerdict(step, statement, obs);
    if (!v.pass)
      throw new AiError(
        call,
        'AI_ASSERTION_FAILED',
        `${JSON.stringify(statement)} is false on this screen: ${v.reason}\nScreen:\n${describeScreen(obs)}`,
      );
  });
}

/**
 * Poll until the statement's verdict is `want` (true for toSatisfy and waitFor, false for
 * `.not`): a new verdict is asked only when the screen changed (its screen_hash), so waiting on
 * a still screen costs nothing. An ungrounded verdict fails at once.
 */
export async function pollVerdict(
  step: AiStep,
  statement: string,
  want: boolean,
  timeout: number,
): Promise<{ ok: boolean; last: Verdict | null; obs: Observation | null; asked: number }> {
  const deadline = Date.now() + timeout;
  let lastHash: string | null = null;
  let last: Verdict | null = null;
  let obs: Observation | null = null;
  let asked = 0;
  for (let wait = 50; ; wait = Math.min(wait * 2, 500)) {
    obs = await step.observe();
    const hash = obs.screen_hash ?? obs.snapshot_id;
    if (!obs.tree_missing && hash !== lastHash) {
      lastHash = hash;
      last = await askVerdict(step, statement, obs);
      asked++;
      if (last.pass === want) return { ok: true, last, obs, asked };
    }
    if (Date.now() + wait > deadline) return { ok: false, last, obs, asked };
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** `app.ai.waitFor(condition, { timeout })`. */
export function waitForCondition(
  app: AppPort,
  condition: string,
  opts: { timeout?: number; budget?: Budget } = {},
): Promise<void> {
  return app.wrap('ai.waitFor', { timeout: opts.timeout, kind: 'expect' }, (call) =>
    waitForCall(app, call, condition, opts),
  );
}

async function waitForCall(
  app: AppPort,
  call: ApiCall,
  condition: string,
  opts: { timeout?: number; budget?: Budget },
): Promise<void> {
  const ctx = currentAiContext();
  // The wait's own timeout as given (not scaled to the device's timing: the model's answers are what it waits on).
  const timeout = opts.timeout ?? app.options.expectTimeout;
  await aiStep(app, 'assertion', call, `AI wait for: ${condition}`, async (rec) => {
    const step = new AiStep(app, ctx, call, 'waitFor', condition, opts.budget, rec);
    const r = await pollVerdict(step, condition, true, timeout);
    rec.before = rec.after = r.obs?.snapshot_id ?? null;
    if (!r.ok)
      throw new AiError(
        call,
        'AI_TIMEOUT',
        `timeout ${timeout}ms exceeded waiting for ${JSON.stringify(condition)} (${r.asked} verdict(s) asked, one per screen change); last: ${r.last?.reason ?? 'no verdict'}\nScreen:\n${describeScreen(r.obs)}`,
      );
  });
}

/** `expect(app).toSatisfy(statement)`: the retrying assertion, as a matcher result. */
export function satisfies(
  app: AppPort,
  statement: string,
  isNot: boolean,
  timeout: number | undefined,
): Promise<{ pass: boolean; message: () => string }> {
  return app.wrap('expect.toSatisfy', { timeout, kind: 'expect' }, (call) =>
    satisfiesCall(app, call, statement, isNot),
  );
}

async function satisfiesCall(
  app: AppPort,
  call: ApiCall,
  statement: string,
  isNot: boolean,
): Promise<{ pass: boolean; message: () => string }> {
  const ctx = currentAiContext();
  const timeout = call.timeout;
  let outcome: { ok: boolean; last: Verdict | null; obs: Observation | null; asked: number } | null = null;
  const failed = new Error('toSatisfy failed');
  await aiStep(app, 'assertion', call, `AI expect ${isNot ? 'not ' : ''}toSatisfy: ${statement}`, async (rec) => {
    const step = new AiStep(app, ctx, call, 'toSatisfy', statement, undefined, rec);
    outcome = await pollVerdict(step, statement, !isNot, timeout);
    rec.before = rec.after = outcome.obs?.snapshot_id ?? null;
    if (!outcome.ok) throw failed;
  }).catch((e) => {
    if (e !== failed) throw e;
  });
  const o = outcome as { ok: boolean; last: Verdict | null; obs: Observation | null; asked: number } | null;
  const ok = o?.ok ?? false;
  return {
    pass: isNot ? !ok : ok,
    message: () =>
      `expect(app).${isNot ? 'not.' : ''}toSatisfy(${JSON.stringify(statement)}) failed\n\n` +
      `Expected: the statement to be ${isNot ? 'false' : 'true'}\nReceived: ${o?.last ? `${o.last.pass} — ${o.last.reason}` : 'no verdict'}\nTimeout: ${timeout}ms (${o?.asked ?? 0} verdict(s), one per screen change)\n\nScreen:\n${describeScreen(o?.obs ?? null)}`,
  };
}

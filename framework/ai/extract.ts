import { z } from 'zod';
import type { ApiCall } from '../core/api-call.js';
import type { AppPort } from '../core/port.js';
import { describeScreen } from '../core/errors.js';
import type { ModelMessage } from './adapter.js';
import { currentAiContext } from './context.js';
import { AiError } from './errors.js';
import { groundExtraction } from './grounding.js';
import type { Budget } from './options.js';
import { EXTRACT_SYSTEM, instructionBlock } from './prompts.js';
import { nodeLine } from './screen.js';
import { AiStep, aiStep } from './step.js';
import { answerTool } from './tools.js';

/**
 * `app.ai.extract(question, schema)`: one forced `answer` call whose `value` has the user's zod
 * schema as JSON Schema; the value is parsed with that schema (sent back once when it does not
 * match) and grounded on its evidence nodes. Never cached. Returns the parsed value, typed.
 */
export function extract<S extends z.ZodType>(
  app: AppPort,
  question: string,
  schema: S,
  opts: { budget?: Budget } = {},
): Promise<z.output<S>> {
  return app.wrap('ai.extract', {}, (call) => extractCall(app, call, question, schema, opts));
}

async function extractCall<S extends z.ZodType>(
  app: AppPort,
  apiCall: ApiCall,
  question: string,
  schema: S,
  opts: { budget?: Budget },
): Promise<z.output<S>> {
  if (!(schema instanceof z.ZodType))
    throw new AiError(
      apiCall,
      'AI_CONFIG',
      `expected a zod schema as the second argument (e.g. z.object({ total: z.number() })), got ${typeof schema}`,
    );
  const ctx = currentAiContext();
  const { tool, schema: answer } = answerTool(schema);
  return aiStep(app, 'assertion', apiCall, `AI extract: ${question}`, async (rec) => {
    const step = new AiStep(app, ctx, apiCall, 'extract', question, opts.budget, rec);
    const obs = await step.observe();
    rec.before = rec.after = obs.snapshot_id;
    const messages: ModelMessage[] = [
      {
        role: 'user',
        content: [{ type: 'text', text: instructionBlock('question', question) }, ...(await step.screen(obs))],
      },
    ];
    for (let attempt = 1; ; attempt++) {
      const res = await step.request(EXTRACT_SYSTEM, [tool], { type: 'tool', name: 'answer' }, messages);
      const call = res.toolCalls.find((c) => c.name === 'answer');
      const parsed = answer.safeParse(call?.input);
      step.record.calls.push({
        turn: step.record.turns,
        tool: 'answer',
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
        const { value, evidence_node_ids } = parsed.data as { value: z.output<S>; evidence_node_ids: string[] };
        const g = groundExtraction(value, evidence_node_ids, obs);
        const byId = new Map(obs.nodes.map((n) => [n.id, n]));
        step.record.value = value;
        step.record.verdict = {
          pass: g.ok,
          reason: 'extraction',
          grounded: g.ok,
          evidence: evidence_node_ids.flatMap((id) =>
            byId.has(id) ? [{ id, line: nodeLine(byId.get(id)!), bounds: byId.get(id)!.bounds }] : [],
          ),
        };
        if (!g.ok)
          throw new AiError(
            apiCall,
            'AI_UNGROUNDED',
            `the extracted value ${JSON.stringify(value)} for ${JSON.stringify(question)} is not grounded on the screen, so it is rejected:\n  - ${g.problems.join('\n  - ')}\nScreen:\n${describeScreen(obs)}`,
          );
        return value;
      }
      if (attempt >= 2 || !call)
        throw new AiError(
          apiCall,
          'AI_BAD_OUTPUT',
          `the model's answer did not match the schema twice:\n${z.prettifyError(parsed.error)}`,
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
                text: `refused: the answer does not match the schema:\n${z.prettifyError(parsed.error)}\nCall answer again.`,
              },
            ],
          },
        ],
      });
    }
  });
}

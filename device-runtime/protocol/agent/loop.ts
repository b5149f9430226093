import { z } from 'zod';
import type { Observation, UiNode } from '../observation.js';
import type { ContentBlock, ModelMessage, ModelResponse, ToolSpec } from './adapter.js';
import { ACT_SYSTEM } from './prompts.js';
import { newToolCall, type AiToolCall } from './record.js';
import { ActCallSchema, ACT_TOOLS, FUNCTION_TOOL_PREFIX, type ActCall } from './tools.js';

/** An action the model asked for (every act tool but done and give_up). */
export type AgentAction = Exclude<ActCall, { name: 'done' | 'give_up' }>;

/** What running one action came to: the step to remember and the new screen, or why it was refused. */
export type ActOutcome<S> =
  | { ok: true; step: S; node: UiNode | null; selector: string | null; after: Observation; said?: string }
  | { ok: false; refused: string; node: UiNode | null };

export type ToolChoice = { type: 'tool'; name: string } | { type: 'any' };

/**
 * What the act loop needs of the side it runs on: the framework (`app.ai.act`, acting through
 * locators) and the device (`task_run`, acting through the runtime's own tools) each implement
 * it. The loop itself knows no app, no transport and no error class.
 */
export interface ActLoopHost<S> {
  /** The screen as the model reads it (the `<screen>` text block first, then any screenshot). */
  screen(obs: Observation): Promise<ContentBlock[]>;
  /** One model request, charged to the step's budgets (which may throw). */
  request(system: string, tools: ToolSpec[], toolChoice: ToolChoice, messages: ModelMessage[]): Promise<ModelResponse>;
  /** Run one action on a node of `obs`, verified; refusals go back to the model. */
  perform(action: AgentAction, obs: Observation): Promise<ActOutcome<S>>;
  /** Each tool call as it is made; the record is completed in place. */
  record(call: AiToolCall): void;
  /** The error to throw when the model gives up or runs out of turns. */
  fail(code: 'AI_GAVE_UP' | 'AI_MAX_TURNS', message: string): Error;
  /** Before each model turn (a cancelled task throws here). */
  beforeTurn?(turn: number): void | Promise<void>;
  /**
   * Call the app's function `id` (a `fn_<id>` tool of `ActLoopOptions.tools`) with the model's
   * input; `said` is its result for the model. A refusal (bad parameters) goes back to the model.
   */
  callFunction?(id: string, params: Record<string, unknown>, obs: Observation): Promise<ActOutcome<S>>;
}

export interface ActLoopOptions {
  /** The instruction as the model reads it (`<instruction>…</instruction>` and any parameters). */
  instructionBlock: string;
  /** The instruction itself, for error messages. */
  instruction: string;
  start: Observation;
  maxTurns: number;
  /** Default ACT_SYSTEM / ACT_TOOLS. */
  system?: string;
  tools?: ToolSpec[];
}

export interface ActLoopResult<S> {
  steps: S[];
  end: Observation;
  summary: string;
  turns: number;
}

/**
 * The tool loop of an act step: screen in, one action out, verified, new screen back — until
 * the model calls done. Each tool input is parsed with its schema (a malformed one, or arguments
 * that are not JSON, are refused back to the model: that is its repair turn); one action per
 * turn; earlier screens are replaced by a line, so the conversation stays small however many
 * turns it takes.
 */
export async function runActLoop<S>(host: ActLoopHost<S>, opts: ActLoopOptions): Promise<ActLoopResult<S>> {
  let obs = opts.start;
  const steps: S[] = [];
  const screens: Array<{ type: 'text'; text: string }> = [];
  const screenBlocks = async (o: Observation): Promise<ContentBlock[]> => {
    for (const s of screens) s.text = '(an earlier screen, no longer current)';
    const blocks = await host.screen(o);
    screens.push(blocks[0] as { type: 'text'; text: string });
    return blocks;
  };
  const system = opts.system ?? ACT_SYSTEM;
  const tools = opts.tools ?? ACT_TOOLS;
  const messages: ModelMessage[] = [
    { role: 'user', content: [{ type: 'text', text: opts.instructionBlock }, ...(await screenBlocks(obs))] },
  ];
  for (let turn = 1; turn <= opts.maxTurns; turn++) {
    await host.beforeTurn?.(turn);
    const res = await host.request(system, tools, { type: 'any' }, messages);
    messages.push({ role: 'assistant', content: res.content });
    if (res.toolCalls.length === 0) {
      messages.push({ role: 'user', content: [{ type: 'text', text: 'Call one of the tools.' }] });
      continue;
    }
    const results: ContentBlock[] = [];
    let acted = false;
    for (const tc of res.toolCalls) {
      const record = newToolCall(turn, tc.name, tc.input, obs.snapshot_id);
      host.record(record);
      const reply = (text: string, isError: boolean, extra: ContentBlock[] = []) =>
        results.push({
          type: 'tool_result',
          toolUseId: tc.id,
          isError,
          content: [
            { type: 'text', text },
            ...extra.filter(
              (b): b is Extract<ContentBlock, { type: 'text' | 'image' }> => b.type === 'text' || b.type === 'image',
            ),
          ],
        });
      if (tc.inputError) {
        record.message = `the arguments are not JSON: ${tc.inputError}`;
        reply(`refused: ${record.message}. Call the tool again with its arguments as one JSON object.`, true);
        continue;
      }
      const fnId =
        host.callFunction && tc.name.startsWith(FUNCTION_TOOL_PREFIX) && tools.some((t) => t.name === tc.name)
          ? tc.name.slice(FUNCTION_TOOL_PREFIX.length)
          : null;
      if (fnId !== null) {
        if (acted) {
          record.message = 'one action per turn';
          reply('not run: one action per turn; look at the new screen first', true);
          continue;
        }
        if (typeof tc.input !== 'object' || tc.input === null || Array.isArray(tc.input)) {
          record.message = 'the input is not an object of parameters';
          reply(`refused: ${record.message}`, true);
          continue;
        }
        const out = await host.callFunction!(fnId, tc.input as Record<string, unknown>, obs).catch((e: unknown) => {
          record.result = 'failed';
          record.message = String((e as Error)?.message ?? e).split('\n')[0];
          throw e;
        });
        if (!out.ok) {
          record.message = out.refused;
          reply(`refused: ${out.refused}`, true);
          continue;
        }
        acted = true;
        record.result = 'ok';
        record.after = out.after.snapshot_id;
        steps.push(out.step);
        obs = out.after;
        reply(`ok; ${out.said ?? 'the function ran'}; the screen now:`, false, await screenBlocks(obs));
        continue;
      }
      const parsed = ActCallSchema.safeParse({ name: tc.name, input: tc.input });
      if (!parsed.success) {
        record.message = z.prettifyError(parsed.error);
        reply(`refused: the tool input does not match its schema:\n${record.message}`, true);
        continue;
      }
      if (acted) {
        record.message = 'one action per turn';
        reply('not run: one action per turn; look at the new screen first', true);
        continue;
      }
      const call = parsed.data;
      if (call.name === 'done') {
        record.result = 'ok';
        return { steps, end: obs, summary: call.input.summary, turns: turn };
      }
      if (call.name === 'give_up') {
        record.result = 'ok';
        throw host.fail('AI_GAVE_UP', `the model gave up on ${JSON.stringify(opts.instruction)}: ${call.input.reason}`);
      }
      let out: ActOutcome<S>;
      try {
        out = await host.perform(call, obs);
      } catch (e) {
        record.result = 'failed';
        record.message = String((e as Error)?.message ?? e).split('\n')[0];
        throw e;
      }
      record.node = out.node ? out.node.id : null;
      record.bounds = out.node?.bounds ?? null;
      if (!out.ok) {
        record.message = out.refused;
        reply(`refused: ${out.refused}`, true);
        continue;
      }
      acted = true;
      record.result = 'ok';
      record.selector = out.selector;
      record.after = out.after.snapshot_id;
      steps.push(out.step);
      obs = out.after;
      reply('ok; the screen now:', false, await screenBlocks(obs));
    }
    messages.push({ role: 'user', content: results });
  }
  throw host.fail(
    'AI_MAX_TURNS',
    `the model did not finish ${JSON.stringify(opts.instruction)} in ${opts.maxTurns} turns (${steps.length} actions taken). Split the instruction, or raise { maxTurns }.`,
  );
}

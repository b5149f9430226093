import type { ToolResult } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from '../core/api-call.js';
import { AiError, type AiErrorCode } from './errors.js';
import type { Budget } from './options.js';
import type { Params } from './perform.js';
import { isSecret } from '../core/secret.js';
import type { AiStep } from './step.js';

type Task = ToolResult<'task_status'>;

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);
const LOOP_CODES = new Set<string>(['AI_GAVE_UP', 'AI_MAX_TURNS', 'AI_BUDGET_EXCEEDED', 'AI_MODEL_ERROR']);

/**
 * `app.ai.act(instruction, { on: 'device' })`: the runtime's own agent does the step (task_run,
 * design §5.4) with the same loop, tools and budgets (device-runtime/protocol/agent), followed
 * with task_status until it ends. Its record becomes this step's — the same shape as a local act
 * (model, turns, calls with nodes and screens, usage, cost) — and its usage is charged to the
 * test's budget. Never cached: the device decides. A secret parameter is refused: its value
 * would have to leave the test process.
 */
export async function deviceAct(
  step: AiStep,
  instruction: string,
  params: Params,
  opts: { maxTurns?: number; budget?: Budget },
): Promise<void> {
  const { app, apiCall } = step;
  const secret = Object.entries(params).find(([, v]) => isSecret(v));
  if (secret)
    throw new AiError(
      apiCall,
      'AI_PARAMS',
      `{${secret[0]}} is a secret, and { on: 'device' } would send its value to the device's agent: run this step in the test (drop { on: 'device' }).`,
    );
  if (!(await app.offers('local_agent'))) throw notSupported(apiCall);
  const goal = instruction.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
  step.record.cache = 'off';
  let task: Task;
  try {
    task = await app.call(apiCall, 'task_run', {
      space_id: app.spaceId,
      goal,
      max_steps: opts.maxTurns ?? step.ctx.options.maxTurns,
      ...((opts.budget ?? step.ctx.options.budget.step) ? { budget: opts.budget ?? step.ctx.options.budget.step } : {}),
    });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'NOT_SUPPORTED') throw notSupported(apiCall, e);
    if (code === 'TOOL_DISABLED')
      throw new AiError(
        apiCall,
        'AI_CONFIG',
        `{ on: 'device' }: the device's agent has no model: ${(e as Error).message.replace(/^.*?: TOOL_DISABLED: /, '')}`,
        { cause: e },
      );
    throw e;
  }
  for (let wait = 50; !TERMINAL.has(task.status); wait = Math.min(wait * 2, 250)) {
    await new Promise((r) => setTimeout(r, wait));
    task = await app.call(apiCall, 'task_status', { task_id: task.task_id });
    adopt(step, task);
  }
  adopt(step, task);
  if (task.status === 'succeeded') return;
  const code: AiErrorCode =
    task.error_code && LOOP_CODES.has(task.error_code)
      ? (task.error_code as AiErrorCode)
      : task.status === 'cancelled'
        ? 'AI_CANCELLED'
        : 'AI_DEVICE_TASK';
  throw new AiError(
    apiCall,
    code,
    `the device's agent ${task.status === 'cancelled' ? 'stopped' : 'failed'} on ${JSON.stringify(goal)} (task ${task.task_id}): ${(task.error ?? '').replace(/^\[\w+\] /, '')}`,
  );
}

/** The task's record as this step's, and its new usage charged to the test. */
function adopt(step: AiStep, task: Task): void {
  const r = task.record;
  if (!r) return;
  const before = step.record.usage;
  const delta = {
    input: r.usage.input - before.input,
    output: r.usage.output - before.output,
    cacheRead: r.usage.cacheRead - before.cacheRead,
    cacheWrite: r.usage.cacheWrite - before.cacheWrite,
    requests: r.usage.requests - before.requests,
  };
  const usd = r.costUsd - step.record.costUsd;
  Object.assign(step.record, {
    model: r.model,
    turns: r.turns,
    calls: r.calls,
    screens: r.screens,
    usage: r.usage,
    costUsd: r.costUsd,
    latencyMs: r.latencyMs,
    ...(r.summary !== undefined ? { summary: r.summary } : {}),
  });
  step.meter.chargeMeasured(delta, usd);
}

function notSupported(api: ApiCall, cause?: unknown): AiError {
  return new AiError(
    api,
    'AI_NOT_SUPPORTED',
    "{ on: 'device' } needs a runtime that runs its own agent (task_run with runtime_info extension local_agent), and this one does not offer it. Drop { on: 'device' } to run the step in the test, or connect to a runtime that has one (`nestwright sim --model …`).",
    cause === undefined ? undefined : { cause },
  );
}

import type { Observation } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from '../core/api-call.js';
import type { AppPort } from '../core/port.js';
import { runActLoop, type ActLoopHost } from '../../device-runtime/protocol/agent/loop.js';
import type { ModelMessage } from './adapter.js';
import { cacheKey, readCache, type CacheEntry, type CacheStep } from './cache.js';
import { currentAiContext } from './context.js';
import { deviceAct } from './device-act.js';
import { AiError } from './errors.js';
import type { Budget } from './options.js';
import { perform, type Action, type Params } from './perform.js';
import { ACT_SYSTEM, instructionBlock } from './prompts.js';
import { newToolCall, type AiToolCall } from './record.js';
import { describeStep, ReplayMiss, replayStep } from './replay.js';
import { screenSignature } from './screen.js';
import { AiStep, aiStep } from './step.js';
import { ActCallSchema, ACT_TOOLS } from './tools.js';
import { callFunction } from './functions.js';
import { ACT_FUNCTIONS_NOTE, functionTools } from '../../device-runtime/protocol/agent/index.js';

export interface ActOptions {
  /** Model turns before the step fails (default use.ai.maxTurns). */
  maxTurns?: number;
  /** Tokens / USD for this step (default use.ai.budget.step). */
  budget?: Budget;
  /** Values of the instruction's {placeholders}; wrap secrets in secret(). */
  params?: Params;
  /**
   * `'device'`: the runtime's own agent does the step (task_run), with the same loop, tools and
   * budgets; the result and the trajectory record have the same shape. Default `'test'`.
   */
  on?: 'test' | 'device';
}

const API = 'ai.act';

/**
 * `app.ai.act(instruction)`: replay the cached steps of this instruction on this screen with no
 * model call; else (or when replay cannot be healed) let the model drive the app through the tool
 * loop until it calls done. See the module docs of cache.ts, perform.ts and tools.ts.
 */
export function act(app: AppPort, instruction: string, opts: ActOptions = {}): Promise<void> {
  return app.wrap(API, {}, (apiCall) => actCall(app, apiCall, instruction, opts));
}

async function actCall(app: AppPort, apiCall: ApiCall, instruction: string, opts: ActOptions): Promise<void> {
  const params = opts.params ?? {};
  const missing = [...instruction.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((k) => !(k in params));
  if (missing.length)
    throw new AiError(
      apiCall,
      'AI_PARAMS',
      `the instruction uses {${missing.join('}, {')}} but params has no ${missing.length > 1 ? 'values for them' : 'value for it'}: pass { params: { ${missing.map((k) => `${k}: …`).join(', ')} } }`,
    );
  const ctx = currentAiContext();
  await aiStep(app, 'action', apiCall, `AI act: ${instruction}`, async (rec) => {
    const step = new AiStep(app, ctx, apiCall, 'act', instruction, opts.budget, rec);
    if (opts.on === 'device') return deviceAct(step, instruction, params, opts);
    const obs = await step.observe();
    rec.before = obs.snapshot_id;
    const key = cacheKey(instruction, app.package, screenSignature(obs));
    const cached = ctx.cacheFile && ctx.options.cache !== 'off' ? readCache(ctx.cacheFile).entries[key] : undefined;
    step.record.cache = ctx.options.cache === 'off' ? 'off' : 'miss';
    let result: { steps: CacheStep[]; end: Observation } | null = null;
    if (cached?.status === 'ok') {
      result = await replay(step, cached, params, obs);
      if (!result) await ctx.markStale(key, cached, `replay failed on ${new Date().toISOString().slice(0, 10)}`);
    } else if (cached) step.record.cache = 'stale';
    if (!result) {
      const current = step.record.calls.length ? await step.observe() : obs;
      result = await loop(step, instruction, params, current, opts.maxTurns ?? ctx.options.maxTurns);
    }
    rec.after = result.end.snapshot_id;
    if (ctx.cacheFile && ctx.options.cache === 'read-write' && (step.record.cache as string) !== 'hit') {
      const entry: CacheEntry = {
        instruction,
        package: app.package,
        screen: screenSignature(obs),
        endScreen: screenSignature(result.end),
        status: 'ok',
        steps: result.steps,
        model: step.model,
        recorded: new Date().toISOString().slice(0, 10),
      };
      ctx.staged.set(key, entry);
    }
  });
}

/** Cached steps, verified one by one; a step that no longer resolves is healed by one model call. */
async function replay(
  step: AiStep,
  entry: CacheEntry,
  params: Params,
  start: Observation,
): Promise<{ steps: CacheStep[]; end: Observation } | null> {
  const { app } = step;
  const steps = [...entry.steps];
  let obs = start;
  let healed = false;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    const call: AiToolCall = {
      turn: 0,
      tool: s.action,
      input: cacheInput(s),
      node: 'node' in s ? s.node : null,
      bounds: null,
      selector: 'selector' in s ? s.selector : null,
      before: obs.snapshot_id,
      after: null,
      result: 'ok',
      source: 'cache',
    };
    step.record.calls.push(call);
    try {
      obs = await replayStep(app, step.apiCall, s, params, app.options.actionTimeout);
      call.after = obs.snapshot_id;
    } catch (e) {
      if (!(e instanceof ReplayMiss)) throw e;
      call.result = 'failed';
      call.message = e.message;
      obs = await step.observe();
      const fixed = await heal(step, entry, i, params, obs);
      if (!fixed) return null;
      steps[i] = fixed.step;
      obs = fixed.after;
      healed = true;
    }
  }
  // The recording ended on entry.endScreen; a replay may get there later (a slow sign-in): wait
  // for it as an assertion would, then call the replay failed.
  const deadline = Date.now() + Math.max(app.options.actionTimeout * 2, 10_000);
  while (screenSignature(obs) !== entry.endScreen && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    obs = await step.observe();
  }
  if (screenSignature(obs) !== entry.endScreen) {
    step.record.calls.push({
      turn: 0,
      tool: 'verify',
      input: { expected: entry.endScreen },
      node: null,
      bounds: null,
      selector: null,
      before: obs.snapshot_id,
      after: obs.snapshot_id,
      result: 'failed',
      message: `replay ended on ${screenSignature(obs)}, the recording on ${entry.endScreen}`,
      source: 'cache',
    });
    return null;
  }
  step.record.cache = healed ? 'healed' : 'hit';
  return { steps, end: obs };
}

function cacheInput(s: CacheStep): Record<string, unknown> {
  const { action: _a, node: _n, selector: _s, ...rest } = s as CacheStep & { node?: string; selector?: string };
  return rest;
}

/** One model call for the one step that no longer resolves; null when the model cannot do it. */
async function heal(
  step: AiStep,
  entry: CacheEntry,
  index: number,
  params: Params,
  obs: Observation,
): Promise<{ step: CacheStep; after: Observation } | null> {
  const s = entry.steps[index]!;
  const note =
    `Replaying the recorded steps of this instruction: step ${index + 1} of ${entry.steps.length}, "${describeStep(s)}"${'node' in s ? ` (it was: ${s.node})` : ''}, ` +
    'matches nothing on the screen below any more (the app changed). Do that one step on this screen with one tool call, or call give_up.';
  const messages: ModelMessage[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: instructionBlock('instruction', entry.instruction, params) },
        { type: 'text', text: note },
        ...(await step.screen(obs)),
      ],
    },
  ];
  const res = await step.request(ACT_SYSTEM, ACT_TOOLS, { type: 'any' }, messages);
  const first = res.toolCalls[0];
  const parsed = first ? ActCallSchema.safeParse({ name: first.name, input: first.input }) : null;
  const record = newToolCall(step.record.turns, first?.name ?? '(none)', first?.input ?? {}, obs.snapshot_id);
  step.record.calls.push(record);
  if (!parsed?.success || parsed.data.name === 'done' || parsed.data.name === 'give_up') {
    record.message = parsed?.success ? `${parsed.data.name} instead of the step` : 'malformed tool call';
    return null;
  }
  const out = await perform(step.app, step.apiCall, parsed.data as Action, obs, params, step.ctx.options.deny);
  record.node = out.node ? out.node.id : null;
  record.bounds = out.node?.bounds ?? null;
  if (!out.ok) {
    record.message = out.refused;
    return null;
  }
  record.result = 'ok';
  record.selector = 'selector' in out.step ? out.step.selector : null;
  record.after = out.after.snapshot_id;
  return { step: out.step, after: out.after };
}

/** The tool loop (device-runtime/protocol/agent/loop.ts, shared with the device's agent) over this app's locators. */
async function loop(
  step: AiStep,
  instruction: string,
  params: Params,
  start: Observation,
  maxTurns: number,
): Promise<{ steps: CacheStep[]; end: Observation }> {
  const host: ActLoopHost<CacheStep> = {
    screen: (o) => step.screen(o),
    request: (system, tools, choice, messages) => step.request(system, tools, choice, messages),
    record: (call) => step.record.calls.push(call),
    fail: (code, message) => new AiError(step.apiCall, code, message),
    perform: async (action, o) => {
      const out = await perform(step.app, step.apiCall, action, o, params, step.ctx.options.deny);
      return out.ok ? { ...out, selector: 'selector' in out.step ? out.step.selector : null } : out;
    },
    callFunction: (id, input) => callFunction(step.app, step.apiCall, id, input, params),
  };
  // The app's declared functions beside the UI actions, when the runtime has them (docs/functions.md).
  const fns = functionTools((await step.app.functions.available(step.apiCall)) ?? []);
  const r = await runActLoop(host, {
    instructionBlock: instructionBlock('instruction', instruction, params),
    instruction,
    start,
    maxTurns,
    ...(fns.length ? { tools: [...ACT_TOOLS, ...fns], system: ACT_SYSTEM + ACT_FUNCTIONS_NOTE } : {}),
  });
  step.record.summary = r.summary;
  return { steps: r.steps, end: r.end };
}

import type { Observation } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from '../core/api-call.js';
import type { AppPort } from '../core/port.js';
import type { TrajectoryStep } from '../core/trajectory.js';
import type { ContentBlock, ModelMessage, ModelResponse, ToolSpec } from './adapter.js';
import type { AiTestContext } from './context.js';
import { AiError } from './errors.js';
import { StepMeter } from './meter.js';
import type { Verb } from './models.js';
import type { Budget } from './options.js';
import type { AiStepRecord } from './record.js';
import { renderScreen } from './screen.js';

/**
 * What every AI verb shares: the trajectory record, the step's meter, model requests charged to
 * it, and the screen as the model sees it (a screenshot only when the screen has no nodes, or
 * when use.ai.vision asks for one).
 */
export class AiStep {
  readonly record: AiStepRecord;
  readonly meter: StepMeter;

  constructor(
    readonly app: AppPort,
    readonly ctx: AiTestContext,
    /** The public call this step serves (`app.ai.act`, `expect.toSatisfy`): its name prefixes the step's errors. */
    readonly apiCall: ApiCall,
    readonly verb: Verb | 'toSatisfy',
    instruction: string,
    budget: Budget | undefined,
    readonly trajectoryStep: TrajectoryStep | null,
  ) {
    const model = ctx.options.models[verb === 'toSatisfy' ? 'assert' : verb];
    this.record = {
      verb,
      instruction,
      model,
      cache: 'none',
      turns: 0,
      calls: [],
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, requests: 0 },
      costUsd: 0,
      latencyMs: 0,
      screens: {},
    };
    this.meter = new StepMeter(apiCall, ctx.meter, budget ?? ctx.options.budget.step);
    if (trajectoryStep) Object.assign(trajectoryStep, { source: 'ai', ai: this.record });
  }

  get model(): string {
    return this.record.model;
  }

  async request(
    system: string,
    tools: ToolSpec[],
    toolChoice: { type: 'tool'; name: string } | { type: 'any' },
    messages: ModelMessage[],
  ): Promise<ModelResponse> {
    const adapter = this.ctx.adapter(this.apiCall);
    this.meter.checkBefore();
    this.record.turns++;
    let res: ModelResponse;
    try {
      res = await adapter.complete({
        model: this.model,
        system,
        tools,
        toolChoice,
        messages,
        maxTokens: this.ctx.options.maxTokens,
      });
    } catch (e) {
      const requests = (e as { requests?: number }).requests ?? 0;
      if (requests) this.charge({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, requests });
      if (e instanceof AiError)
        throw new AiError(this.apiCall, e.code, e.message.replace(/^model: \[\w+\] /, ''), { cause: e });
      throw e;
    }
    this.record.latencyMs += res.latencyMs;
    this.charge(res.usage);
    return res;
  }

  private charge(usage: ModelResponse['usage']): void {
    const price = this.ctx.options.prices[this.model]!;
    try {
      this.meter.charge(usage, price);
    } finally {
      this.record.usage = { ...this.meter.usage };
      this.record.costUsd = Number(this.meter.usd.toFixed(6));
    }
  }

  /** The screen block (and a screenshot when needed), remembered in the record. */
  async screen(obs: Observation): Promise<ContentBlock[]> {
    const text = renderScreen(obs);
    this.record.screens[obs.snapshot_id] = text;
    const blocks: ContentBlock[] = [{ type: 'text', text }];
    if (this.ctx.options.vision || (!obs.tree_missing && obs.nodes.length === 0)) {
      const png = await this.app.screenshot(this.apiCall).catch(() => null);
      if (png) blocks.push({ type: 'image', pngBase64: png.toString('base64') });
    }
    return blocks;
  }

  /** A stable observation of our app (brought to front; waits out a missing tree). */
  async observe(): Promise<Observation> {
    const deadline = Date.now() + this.app.options.actionTimeout;
    for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
      const obs = await this.app.observe(this.apiCall);
      if (!obs.tree_missing || Date.now() > deadline) return obs;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** Run `body` as `call`'s test.step and trajectory record titled `title`, with source 'ai'. */
export async function aiStep<T>(
  app: AppPort,
  kind: 'action' | 'assertion',
  call: ApiCall,
  title: string,
  body: (rec: TrajectoryStep) => Promise<T>,
): Promise<T> {
  return app.step(call, { kind, title, selector: null }, async (rec) => {
    const first = app.trajectory.steps.length;
    try {
      return await body(rec);
    } finally {
      // The actions the step took through locators are its children: source 'ai' too (an app
      // function it called keeps source 'function', with `function.by` 'ai').
      for (const s of app.trajectory.steps.slice(first)) {
        if (s.function) s.function.by = 'ai';
        else s.source = 'ai';
      }
    }
  });
}

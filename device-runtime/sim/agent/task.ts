import type { z } from 'zod';
import type {
  ContentBlock,
  ModelAdapter,
  ModelMessage,
  ModelResponse,
  ToolSpec,
} from '../../protocol/agent/adapter.js';
import { describeUsage, overBudget, type Budget } from '../../protocol/agent/budget.js';
import {
  runActLoop,
  type ActLoopHost,
  type ActOutcome,
  type AgentAction,
  type ToolChoice,
} from '../../protocol/agent/loop.js';
import { ModelError } from '../../protocol/agent/model-error.js';
import { addUsage, costUsd, ZERO_USAGE, type Usage } from '../../protocol/agent/models.js';
import type { AiStepRecord, AiToolCall } from '../../protocol/agent/record.js';
import { nodeLine, renderScreen } from '../../protocol/agent/screen.js';
import { bestSelector } from '../../protocol/best-selector.js';
import type { Observation, TaskSchema, ToolName, TrajectoryStepSchema, UiNode } from '../../protocol/index.js';
import type { ApprovalGate } from '../core/approvals.js';
import { maskArgs } from '../core/audit.js';
import type { CallContext, CallOutcome, ToolCaller } from '../core/call-context.js';
import type { DeviceAgentSettings } from '../core/agent-config.js';

type TaskView = z.infer<typeof TaskSchema>;
type TrajectoryStep = z.infer<typeof TrajectoryStepSchema>;
type Status = TaskView['status'];
/** What one action came to, as the task remembers it. */
type DeviceStep = { action: AgentAction['name']; node: string | null };

/** What a task needs of the runtime: its tools (validated, leased, audited) and the approval gate. */
export interface TaskHost extends ToolCaller {
  readonly approvals: Pick<ApprovalGate, 'request' | 'wait'>;
}

/** How a task ends other than by done: a status and a code for task_status. */
class TaskEnd extends Error {
  constructor(
    readonly status: 'failed' | 'cancelled',
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Codes of a refused action: the model is told and may try another way. */
const REFUSABLE = new Set(['NODE_NOT_FOUND', 'AMBIGUOUS_TARGET', 'SNAPSHOT_STALE', 'TIMEOUT', 'CHANNEL_UNAVAILABLE']);

/**
 * One task_run: the act loop of device-runtime/protocol/agent over this runtime's own tools,
 * called as LOCAL_AGENT in the caller's session (so its lease covers them, and the audit log
 * tells them apart), with the same prompts, tools, screens, selectors and budgets as a test's
 * `app.ai.act`. A tap, long-press or typing on a node the policy marks dangerous asks the
 * approval gate first and waits for approval_decide (a denial or a timeout cancels the task).
 * Every tool call is kept as the task's trajectory; the record is an act step's.
 */
export class DeviceTask implements ActLoopHost<DeviceStep> {
  status: Status = 'queued';
  steps = 0;
  result: string | null = null;
  error: string | null = null;
  errorCode: string | null = null;
  approval: TaskView['approval'] = null;
  readonly aiRecord: AiStepRecord;
  readonly trajectory: TrajectoryStep[] = [];
  private readonly abort = new AbortController();
  private readonly ctx: CallContext;
  private usd = 0;
  finished: Promise<void> = Promise.resolve();

  constructor(
    readonly id: string,
    private readonly host: TaskHost,
    private readonly settings: DeviceAgentSettings,
    private readonly adapter: ModelAdapter,
    caller: CallContext,
    readonly spaceId: string,
    readonly goal: string,
    private readonly maxTurns: number,
    private readonly budget: Budget | undefined,
    private readonly confirm: string[],
  ) {
    this.ctx = { sessionId: caller.sessionId, caller: 'LOCAL_AGENT', signal: this.abort.signal };
    this.aiRecord = {
      verb: 'act',
      instruction: goal,
      model: settings.model,
      cache: 'none',
      turns: 0,
      calls: [],
      usage: { ...ZERO_USAGE },
      costUsd: 0,
      latencyMs: 0,
      screens: {},
    };
  }

  start(): void {
    this.status = 'running';
    this.finished = this.run();
  }

  cancel(): void {
    if (this.status === 'succeeded' || this.status === 'failed' || this.status === 'cancelled') return;
    this.end('cancelled', 'CANCELLED', 'cancelled by task_cancel');
    this.abort.abort();
  }

  view(): TaskView {
    return {
      task_id: this.id,
      space_id: this.spaceId,
      status: this.status,
      goal: this.goal,
      steps: this.steps,
      result: this.result,
      error: this.error,
      error_code: this.errorCode,
      approval: this.approval,
      record: structuredClone(this.aiRecord),
    };
  }

  private async run(): Promise<void> {
    try {
      const start = await this.observe();
      const r = await runActLoop(this, {
        instructionBlock: `<instruction>\n${this.goal}\n</instruction>`,
        instruction: this.goal,
        start,
        maxTurns: this.maxTurns,
      });
      if (this.abort.signal.aborted) return;
      this.aiRecord.summary = r.summary;
      this.result = r.summary;
      this.status = 'succeeded';
    } catch (e) {
      if (this.abort.signal.aborted) return;
      if (e instanceof TaskEnd) this.end(e.status, e.code, e.message);
      else if (e instanceof ModelError) this.end('failed', e.code, e.message);
      else this.end('failed', 'INTERNAL', `the agent failed: ${(e as Error)?.message ?? e}`);
    }
  }

  private end(status: 'failed' | 'cancelled', code: string, message: string): void {
    this.status = status;
    this.errorCode = code;
    this.error = `[${code}] ${message}`;
    this.approval = null;
  }

  private checkCancelled(): void {
    if (this.abort.signal.aborted) throw new TaskEnd('cancelled', 'CANCELLED', 'cancelled by task_cancel');
  }

  // ActLoopHost ----------------------------------------------------------------------------

  beforeTurn(): void {
    this.checkCancelled();
    this.checkBudget();
  }

  async screen(obs: Observation): Promise<ContentBlock[]> {
    const text = renderScreen(obs);
    this.aiRecord.screens[obs.snapshot_id] = text;
    const blocks: ContentBlock[] = [{ type: 'text', text }];
    if (!obs.tree_missing && obs.nodes.length === 0) {
      const shot = await this.tool('ui_screenshot', { space_id: this.spaceId, scale: 0.5 });
      if (shot.ok) blocks.push({ type: 'image', pngBase64: shot.result.data });
    }
    return blocks;
  }

  async request(
    system: string,
    tools: ToolSpec[],
    toolChoice: ToolChoice,
    messages: ModelMessage[],
  ): Promise<ModelResponse> {
    this.aiRecord.turns++;
    let res: ModelResponse;
    try {
      res = await this.adapter.complete({
        model: this.settings.model,
        system,
        tools,
        toolChoice,
        messages,
        maxTokens: this.settings.maxTokens,
      });
    } catch (e) {
      if (e instanceof ModelError && e.requests) this.charge({ ...ZERO_USAGE, requests: e.requests });
      throw e;
    }
    this.checkCancelled();
    this.aiRecord.latencyMs += res.latencyMs;
    this.charge(res.usage);
    this.checkBudget();
    return res;
  }

  record(call: AiToolCall): void {
    this.aiRecord.calls.push(call);
  }

  fail(code: 'AI_GAVE_UP' | 'AI_MAX_TURNS', message: string): Error {
    return new TaskEnd('failed', code, message);
  }

  async perform(action: AgentAction, obs: Observation): Promise<ActOutcome<DeviceStep>> {
    this.checkCancelled();
    let node: UiNode | null = null;
    if ('node_id' in action.input && action.input.node_id !== undefined) {
      node = obs.nodes.find((n) => n.id === (action.input as { node_id: string }).node_id) ?? null;
      if (!node)
        return {
          ok: false,
          node: null,
          refused: `node ${JSON.stringify(action.input.node_id)} is not on the current screen (snapshot ${obs.snapshot_id}); use an id from the latest <screen>`,
        };
    }
    const line = node ? nodeLine(node) : null;
    const target = { space_id: this.spaceId, ...(node ? { node_id: node.id, snapshot_id: obs.snapshot_id } : {}) };
    let out: CallOutcome;
    switch (action.name) {
      case 'tap':
        await this.approve('ui_tap', node!, target);
        out = await this.tool('ui_tap', target);
        break;
      case 'long_press':
        await this.approve('ui_long_press', node!, target);
        out = await this.tool('ui_long_press', target);
        break;
      case 'type_text':
        if (!node!.editable) return { ok: false, node, refused: `${line} is not an editable field` };
        await this.approve('ui_set_text', node!, target);
        out = await this.tool('ui_set_text', { ...target, text: action.input.text }, node!.password);
        break;
      case 'scroll':
        out = await this.tool('ui_scroll', { ...target, direction: action.input.direction });
        break;
      case 'press_key':
        out = await this.tool('ui_key', { space_id: this.spaceId, key: action.input.key });
        break;
      default: {
        const never: never = action;
        throw new Error(`unknown action ${JSON.stringify(never)}`);
      }
    }
    if (!out.ok) {
      if (REFUSABLE.has(out.error.code)) return { ok: false, node, refused: `the action failed: ${out.error.message}` };
      throw new TaskEnd('failed', out.error.code, `${action.name}: ${out.error.message}`);
    }
    this.steps++;
    const after = await this.settle(obs.snapshot_id);
    return {
      ok: true,
      step: { action: action.name, node: line },
      node,
      selector: node ? bestSelector(node, obs) : null,
      after,
    };
  }

  // ------------------------------------------------------------------------------------------

  /** The design's approval flow for a step the policy marks dangerous: ask, wait, go on only if approved. */
  private async approve(tool: ToolName, node: UiNode, args: Record<string, unknown>): Promise<void> {
    const word = this.confirm.find((w) =>
      [node.text, node.desc].some((t) => t && new RegExp(`\\b${escape(w)}\\b`, 'i').test(t)),
    );
    if (word === undefined) return;
    const reason = `the device's agent, working on ${JSON.stringify(this.goal)}, wants to ${tool.replace('ui_', '').replace('_', ' ')} ${nodeLine(node)} (the policy asks for confirmation of "${word}")`;
    const timeout_ms = this.settings.approvalTimeout;
    const req = this.host.approvals.request(
      { space_id: this.spaceId, tool, args: { node_id: args.node_id }, reason, timeout_ms },
      { caller: 'LOCAL_AGENT', sessionId: this.ctx.sessionId },
    );
    this.approval = { approval_id: req.approval_id, tool, reason, expires_at: req.expires_at };
    this.status = 'awaiting_approval';
    this.log('approval_request', { tool, node_id: node.id, reason }, 'OK', 0, null);
    const t0 = performance.now();
    const d = await this.host.approvals.wait(req.approval_id, timeout_ms + 1_000, this.abort.signal);
    this.checkCancelled();
    this.approval = null;
    this.status = 'running';
    const code = d.status === 'approved' ? 'OK' : 'APPROVAL_DENIED';
    this.log('approval_wait', { approval_id: req.approval_id }, code, performance.now() - t0, null);
    if (d.status !== 'approved')
      throw new TaskEnd(
        'cancelled',
        'APPROVAL_DENIED',
        `the step "${tool} ${nodeLine(node)}" needed approval ${req.approval_id}, which was ${d.status === 'pending' ? 'not decided in time' : `denied by ${d.decided_by}`}${d.reason ? `: ${d.reason}` : ''}`,
      );
  }

  private charge(usage: Usage): void {
    this.aiRecord.usage = addUsage(this.aiRecord.usage, usage);
    this.usd += costUsd(usage, this.settings.price);
    this.aiRecord.costUsd = Number(this.usd.toFixed(6));
  }

  private checkBudget(): void {
    const limit = overBudget(this.aiRecord.usage, this.usd, this.budget);
    if (limit)
      throw new TaskEnd(
        'failed',
        'AI_BUDGET_EXCEEDED',
        `this task used ${describeUsage(this.aiRecord.usage, this.usd)}, over its budget of ${limit}. Raise task_run's budget (or the runtime's --model-budget), or make the goal narrower.`,
      );
  }

  private async observe(): Promise<Observation> {
    const deadline = Date.now() + 5_000;
    for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
      const out = await this.tool('ui_observe', { space_id: this.spaceId, max_nodes: 300 });
      if (!out.ok) throw new TaskEnd('failed', out.error.code, `ui_observe: ${out.error.message}`);
      if (!out.result.tree_missing || Date.now() > deadline) return out.result;
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** The screen after an action: the first complete observation that differs from `before` (or the last, after 1.5 s). */
  private async settle(before: string): Promise<Observation> {
    const deadline = Date.now() + 1_500;
    for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
      const obs = await this.observe();
      if (obs.snapshot_id !== before || Date.now() > deadline) return obs;
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  private async tool<N extends ToolName>(
    name: N,
    args: Record<string, unknown>,
    password = false,
  ): Promise<CallOutcome<N>> {
    const t0 = performance.now();
    const out = await this.host.call<N>(name, args, this.ctx);
    const r = out.ok ? (out.result as { snapshot_id?: string | null }) : null;
    this.log(
      name,
      maskArgs(name, args, password),
      out.ok ? 'OK' : out.error.code,
      performance.now() - t0,
      r?.snapshot_id ?? null,
    );
    return out;
  }

  private log(tool: string, args: Record<string, unknown>, code: string, ms: number, snapshot: string | null): void {
    this.trajectory.push({
      index: this.trajectory.length + 1,
      tool,
      args,
      code,
      duration_ms: Math.round(ms * 1000) / 1000,
      snapshot_hash: snapshot,
      ts: Date.now(),
    });
  }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

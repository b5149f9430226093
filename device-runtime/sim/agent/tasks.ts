import { randomUUID } from 'node:crypto';
import type { ModelAdapter } from '../../protocol/agent/adapter.js';
import { ModelError } from '../../protocol/agent/model-error.js';
import { createModelAdapter } from '../../protocol/agent/providers.js';
import { toolError, type ToolArgs } from '../../protocol/index.js';
import type { CallContext } from '../core/call-context.js';
import { agentConfirm, type SimPolicy } from '../core/policy.js';
import { SimError } from '../core/sim-error.js';
import { NO_MODEL_HINT, type DeviceAgentSettings } from '../core/agent-config.js';
import { DeviceTask, type TaskHost } from './task.js';

/** Finished tasks kept for task_status / trajectory_get (the oldest go first). */
const KEEP = 200;

/**
 * The runtime's tasks: task_run starts one (the answer comes at once, status running), task_status
 * reads it, task_cancel stops it. The model adapter is made at the first task, so a runtime whose
 * agent is never used needs no key. No model configured: task_run answers TOOL_DISABLED with
 * how to configure one.
 */
export class TaskManager {
  private readonly tasks = new Map<string, DeviceTask>();
  private adapter: ModelAdapter | null = null;

  constructor(
    private readonly host: TaskHost,
    readonly settings: DeviceAgentSettings | null,
    private readonly policy: () => SimPolicy,
  ) {}

  run(args: ToolArgs<'task_run'>, ctx: CallContext): DeviceTask {
    const settings = this.settings;
    if (!settings)
      throw new SimError(
        toolError('TOOL_DISABLED', 'task_run: this runtime has no model configured for its agent', {
          hint: NO_MODEL_HINT,
        }),
      );
    const adapter = this.adapterFor(settings);
    const budget = { ...settings.budget, ...args.budget };
    const task = new DeviceTask(
      `task_${randomUUID().slice(0, 12)}`,
      this.host,
      settings,
      adapter,
      ctx,
      args.space_id,
      args.goal,
      args.max_steps,
      Object.keys(budget).length ? budget : undefined,
      agentConfirm(this.policy()),
    );
    this.tasks.set(task.id, task);
    this.trim();
    task.start();
    return task;
  }

  get(id: string, tool: string): DeviceTask {
    const t = this.tasks.get(id);
    if (!t)
      throw new SimError(
        toolError('TASK_NOT_FOUND', `${tool}: no task ${id} on this runtime`, {
          hint: 'task_run answers the task_id; finished tasks are forgotten after the 200 most recent.',
        }),
      );
    return t;
  }

  /** Stop every running task (the runtime is closing). */
  close(): void {
    for (const t of this.tasks.values()) t.cancel();
  }

  private adapterFor(s: DeviceAgentSettings): ModelAdapter {
    if (this.adapter) return this.adapter;
    try {
      this.adapter = createModelAdapter(
        {
          provider: s.provider,
          apiKey: s.apiKey,
          baseURL: s.baseURL,
          maxRetries: s.maxRetries,
          timeoutMs: s.requestTimeout,
          stream: s.stream,
        },
        'the simulator agent (--model-…)',
      );
    } catch (e) {
      if (e instanceof ModelError)
        throw new SimError(toolError('TOOL_DISABLED', `task_run: ${e.message}`, { hint: NO_MODEL_HINT }));
      throw e;
    }
    return this.adapter;
  }

  private trim(): void {
    const done = [...this.tasks.values()].filter((t) => !['queued', 'running', 'awaiting_approval'].includes(t.status));
    for (const t of done.slice(0, Math.max(0, this.tasks.size - KEEP))) this.tasks.delete(t.id);
  }
}

import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  describeIssues,
  getTool,
  toolError,
  type ToolArgs,
  type ToolDef,
  type ToolError,
  type ToolName,
  type ToolResult,
} from '../protocol/index.js';
import { appModelFor } from './apps/index.js';
import { blankApp } from './apps/blank.js';
import { TaskManager } from './agent/tasks.js';
import { deviceAgentFromEnv, resolveDeviceAgent } from './core/agent-config.js';
import { ApprovalGate, requireApproval } from './core/approvals.js';
import { maskArgs, SimAudit } from './core/audit.js';
import type { CallContext, CallOutcome } from './core/call-context.js';
import { IdempotencyCache } from './core/idempotency.js';
import type { SimInstance } from './core/instance.js';
import { LeaseManager } from './core/leases.js';
import type { SimOptions, SimSettings } from './core/options.js';
import { TEST_RUN_POLICY } from './core/policy.js';
import { ProcessPool } from './core/process-pool.js';
import { SharedDisplay } from './core/shared-display.js';
import { SimError } from './core/sim-error.js';
import { SimSpace } from './core/space.js';
import { SimStore, type PersistedState } from './core/store.js';
import { envFromOptions, type SimEnv } from './faults/env.js';
import { handlers, type DeviceHost } from './handlers/index.js';
import type { DeviceSpace, Handler } from './handlers/types.js';
import { noteOutsideChange, SimScreen } from './ui/screen.js';

export type { CallContext, CallOutcome } from './core/call-context.js';
export type { SimOptions } from './core/options.js';

/**
 * The simulated NestSpace runtime: the ToolRegistry of docs/protocol.md#tool-layer. Every call is validated against the
 * protocol's schemas in both directions, checked against leases (docs/protocol.md#leases) and approvals (docs/protocol.md#approvals),
 * dispatched to its handler, answered with its result or a `{code, message, retryable, hint}`
 * envelope, and written to the audit log. Transports (MCP over HTTP, in-memory) only adapt to this.
 */
export class SimRuntime implements DeviceHost {
  readonly spaces = new Map<string, DeviceSpace>();
  readonly audit: SimAudit;
  readonly leases: LeaseManager;
  readonly approvals: ApprovalGate;
  readonly pool: ProcessPool;
  readonly idempotency = new IdempotencyCache();
  readonly display = new SharedDisplay();
  readonly options: SimSettings;
  /** The runtime's own agent: task_run / task_status / task_cancel (sim/agent). */
  readonly tasks: TaskManager;
  /** Clock, fault profile and channels of every space's screen (ui owner: sim/ui). */
  readonly env: SimEnv;
  private readonly store: SimStore | null;
  private displayCounter = 0;

  constructor(options: SimOptions = {}) {
    this.env = envFromOptions(options);
    const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as SimOptions;
    this.options = {
      slots: 4,
      abis: ['x86_64', 'arm64-v8a'],
      pageSize: 4096,
      sdkInt: 35,
      model: 'nestwright simulated device',
      stateDir: null,
      policy: TEST_RUN_POLICY,
      virtualDisplays: true,
      skills: null,
      withoutExtensions: [],
      appFunctions: true,
      ...defined,
    };
    this.audit = new SimAudit(options.auditCapacity);
    this.pool = new ProcessPool(this.options.slots);
    this.approvals = new ApprovalGate(this.audit);
    const agent = options.agent === undefined ? deviceAgentFromEnv(process.env) : options.agent;
    this.tasks = new TaskManager(this, agent ? resolveDeviceAgent(agent) : null, () => this.options.policy);
    this.leases = new LeaseManager((change, lease, by, at) =>
      this.audit.event(
        'lease',
        `lease.${change}`,
        { caller: lease.owner, session_id: by ?? lease.session_id },
        lease.space_id,
        { lease_id: lease.lease_id, mode: lease.mode, holder: lease.session_id },
        at,
      ),
    );
    this.store = this.options.stateDir ? new SimStore(this.options.stateDir) : null;
    const saved = this.store?.load();
    if (saved) this.restore(saved);
  }

  createSpace(name: string | undefined): DeviceSpace {
    const id = `sp_${randomUUID().slice(0, 8)}`;
    const space = this.attach(
      new SimSpace(id, name ?? id, this.options.virtualDisplays ? ++this.displayCounter : null, this.screenFor),
    );
    this.persist();
    return space;
  }

  space(id: string): DeviceSpace {
    const s = this.spaces.get(id);
    if (!s) {
      throw new SimError(
        toolError('SPACE_NOT_FOUND', `no space ${id}`, { hint: 'space_list lists spaces; space_create makes one.' }),
      );
    }
    return s;
  }

  async call<N extends ToolName>(name: N | string, rawArgs: unknown, ctx: CallContext): Promise<CallOutcome<N>> {
    const started = Date.now();
    const t0 = performance.now();
    const tool = getTool(name);
    const argsForAudit = (rawArgs && typeof rawArgs === 'object' ? rawArgs : {}) as Record<string, unknown>;
    let outcome: CallOutcome<N>;
    if (!tool) {
      outcome = {
        ok: false,
        error: toolError('UNKNOWN_TOOL', `no tool ${name}`, { hint: 'tools/list lists the tools of this runtime.' }),
      };
    } else {
      const parsed = tool.input.safeParse(rawArgs ?? {});
      const unsaved = tool.mutating ? this.store?.unwritable() : null;
      outcome = !parsed.success
        ? { ok: false, error: invalidArgument(name, parsed.error) }
        : unsaved
          ? {
              ok: false,
              error: toolError(
                'STORAGE_UNAVAILABLE',
                `${name}: the simulator cannot save its state to ${this.store!.file} (${unsaved.message}). Nothing was changed; state.json keeps the last saved state.`,
                {
                  hint: 'Free space on that disk or make the directory writable (or restart with another --state-dir, or --ephemeral); calls that change state work again as soon as it can be written. Reads keep working meanwhile.',
                  details: { state_file: this.store!.file, errno: unsaved.errno },
                },
              ),
            }
          : await this.runNoted<N>(tool, parsed.data as Record<string, unknown>, ctx);
    }
    // Whether ui_set_text typed into a password field is known from its result; when it failed we
    // cannot tell, so its text is masked too (a secret in the log is worse than a missing detail).
    const password =
      !outcome.ok || (outcome.result as { node?: { password?: boolean } | null }).node?.password === true;
    this.audit.record({
      ts: started,
      kind: 'call',
      // approval_decide is the user's answer on the phone (docs/protocol.md#approvals), whoever relays it.
      caller: name === 'approval_decide' ? 'USER' : ctx.caller,
      session_id: ctx.sessionId,
      space_id: typeof argsForAudit.space_id === 'string' ? argsForAudit.space_id : null,
      tool: name,
      args: maskArgs(name, argsForAudit, password),
      code: outcome.ok ? 'OK' : outcome.error.code,
      duration_ms: Math.round((performance.now() - t0) * 1000) / 1000,
    });
    if (outcome.ok && tool?.mutating) this.persist();
    return outcome;
  }

  /**
   * {@link run}, telling the screens that a tool other than a UI tool ran (before and after it):
   * it may have changed what they show without going through them (app data, the world, the
   * network, faults), so they render again. The UI tools' gestures tell their screen themselves.
   */
  private async runNoted<N extends ToolName>(
    tool: ToolDef,
    args: Record<string, unknown>,
    ctx: CallContext,
  ): Promise<CallOutcome<N>> {
    const outside = !tool.name.startsWith('ui_');
    if (outside) noteOutsideChange();
    try {
      return await this.run<N>(tool, args, ctx);
    } finally {
      if (outside) noteOutsideChange();
    }
  }

  private async run<N extends ToolName>(
    tool: ToolDef,
    args: Record<string, unknown>,
    ctx: CallContext,
  ): Promise<CallOutcome<N>> {
    const name = tool.name as N;
    const spaceId = typeof args.space_id === 'string' ? args.space_id : undefined;
    try {
      if (name === 'sys_shell' && !this.options.policy.shell.enabled) {
        throw new SimError(
          toolError(
            'TOOL_DISABLED',
            'sys_shell is disabled on this runtime (docs/protocol.md#approvals: high-risk shell is off by default)',
            {
              hint: 'Start the simulator with a policy that enables it: --policy policy.json with {"shell": {"enabled": true, "allow": ["getprop"]}}.',
            },
          ),
        );
      }
      if (spaceId !== undefined && name !== 'audit_query') {
        this.space(spaceId);
        this.leases.touch(spaceId, ctx.sessionId);
        if (tool.mutating) this.leases.requireExclusive(spaceId, ctx.sessionId, name);
      }
      if (tool.extension && this.options.withoutExtensions.includes(tool.group ?? tool.name)) {
        throw new SimError(
          toolError(
            'NOT_SUPPORTED',
            `${name} is not supported by this runtime (it does not offer the ${tool.group ?? tool.name} extension)`,
            { hint: 'runtime_info.extensions lists what this runtime offers.' },
          ),
        );
      }
      const invoke = async () => {
        if (tool.dangerous) this.requireApproval(tool, spaceId!, args, ctx);
        const handler = handlers[name] as Handler<N, DeviceHost>;
        const exec = async () => handler(args as ToolArgs<N>, this, ctx);
        const result =
          name.startsWith('ui_') && !this.options.virtualDisplays && spaceId
            ? await this.display.use(spaceId, exec)
            : await exec();
        const checked = tool.result.safeParse(result);
        if (!checked.success) {
          throw new SimError(
            toolError('INTERNAL', `${name} produced an invalid result: ${describeIssues(checked.error)}`),
          );
        }
        return checked.data as ToolResult<N>;
      };
      const key = args.idempotency_key;
      const result = typeof key === 'string' ? await this.idempotency.run(name, key, args, invoke) : await invoke();
      return { ok: true, result };
    } catch (e) {
      if (e instanceof SimError) return { ok: false, error: e.envelope };
      return { ok: false, error: toolError('INTERNAL', `${name} failed: ${(e as Error).message}`) };
    }
  }

  /** docs/protocol.md#approvals: a dangerous call goes through when the policy pre-approves it or an approval covers it. */
  private requireApproval(tool: ToolDef, spaceId: string, args: Record<string, unknown>, ctx: CallContext): void {
    if (this.options.policy.preapprove.includes(tool.name)) return;
    requireApproval(this.approvals, { tool: tool.name, spaceId, args, sessionId: ctx.sessionId });
  }

  /** Pin `inst` to a process slot; the foreground of a space being driven (EXCLUSIVE lease) is not evicted. */
  assignSlot(inst: SimInstance, space: SimSpace): ReturnType<ProcessPool['assign']> {
    return this.pool.assign(inst, space.id, (id) => this.leases.exclusiveHolder(id) !== undefined);
  }

  releaseSlot(inst: SimInstance): void {
    this.pool.release(inst);
  }

  /** Remove a space with everything in it. */
  deleteSpace(space: DeviceSpace): void {
    for (const inst of space.instances.values()) this.pool.release(inst);
    this.spaces.delete(space.id);
    this.leases.dropSpace(space.id);
    this.persist();
  }

  /** A session ended (MCP DELETE, disconnect, idle expiry): its leases go with it (docs/protocol.md#leases). */
  endSession(sessionId: string): void {
    this.leases.releaseSession(sessionId);
    for (const space of this.spaces.values()) space.screen.diffBases.forget(sessionId);
  }

  /**
   * Write pending state and stop timers. The runtime should not be used afterwards. Throws when
   * the state cannot be written (disk full, read-only); the timers are stopped all the same.
   */
  close(): void {
    try {
      this.store?.flush();
    } finally {
      this.tasks.close();
      this.leases.close();
      this.approvals.close();
      // The WebViews' pages and contexts (the process's Chromium serves other runtimes too, and stays).
      void this.env.web.close().catch(() => undefined);
      void this.env.net.close().catch(() => undefined);
    }
  }

  /** Schedule a write of state.json (no-op when ephemeral). */
  persist(): void {
    this.store?.schedule(() => this.snapshot());
  }

  get stateFile(): string | null {
    return this.store?.file ?? null;
  }

  private snapshot(): PersistedState {
    return {
      version: 1,
      displayCounter: this.displayCounter,
      spaces: [...this.spaces.values()].map((s) => s.toJSON()),
      idempotency: this.idempotency.toJSON(),
    };
  }

  private restore(state: PersistedState): void {
    this.displayCounter = state.displayCounter;
    for (const p of state.spaces) {
      const displayId = this.options.virtualDisplays ? (p.displayId ?? ++this.displayCounter) : null;
      this.attach(
        SimSpace.restore(
          { ...p, displayId },
          (pkg, label, versionCode) => appModelFor(pkg, versionCode) ?? blankApp(pkg, label),
          this.screenFor,
        ),
      );
    }
    this.idempotency.restore(state.idempotency);
  }

  /** Each space's display runs on the runtime's clock, fault profile and channels. */
  private readonly screenFor = (spaceId: string, foreground: () => SimInstance | null): SimScreen => {
    const screen = new SimScreen(spaceId, foreground);
    screen.attach(this.env);
    return screen;
  };

  private attach(space: DeviceSpace): DeviceSpace {
    space.onCrash = (inst) => this.pool.release(inst, true);
    this.spaces.set(space.id, space);
    return space;
  }
}

function invalidArgument(tool: string, error: z.ZodError): ToolError {
  return toolError('INVALID_ARGUMENT', `${tool}: ${describeIssues(error, 'params')}`, {
    hint: `Check the arguments against the input schema of ${tool} (tools/list).`,
  });
}

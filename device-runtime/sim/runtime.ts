import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  getTool,
  toolError,
  type Caller,
  type ToolArgs,
  type ToolDef,
  type ToolError,
  type ToolName,
  type ToolResult,
} from '../protocol/index.js';
import { appModelFor } from './apps/index.js';
import { blankApp } from './apps/blank.js';
import { ApprovalGate } from './core/approvals.js';
import { maskArgs, SimAudit } from './core/audit.js';
import { IdempotencyCache } from './core/idempotency.js';
import { LeaseManager } from './core/leases.js';
import { TEST_RUN_POLICY, type SimPolicy } from './core/policy.js';
import { ProcessPool } from './core/process-pool.js';
import { SharedDisplay } from './core/shared-display.js';
import { SimError } from './core/sim-error.js';
import { SimSpace } from './core/space.js';
import { SimStore, type PersistedState } from './core/store.js';
import { handlers } from './handlers/index.js';
import { envFromOptions, type SimEnv, type SimEnvOptions } from './faults/env.js';

export interface SimOptions extends SimEnvOptions {
  /** Process slots of the device (§2.2: 2–4). Default 4. */
  slots?: number;
  abis?: string[];
  pageSize?: 4096 | 16384;
  sdkInt?: number;
  /** Where state.json lives. Absent: ephemeral, nothing touches the disk (the default for test runs). */
  stateDir?: string | null;
  /** Pre-approvals and shell; default {@link TEST_RUN_POLICY} (a test run is a pre-approved context). */
  policy?: SimPolicy;
  /** Each space gets its own display (default). false: spaces take turns on the main display. */
  virtualDisplays?: boolean;
  /** Audit entries kept in memory (a ring; default 20 000). */
  auditCapacity?: number;
  /** A directory of skills (`*.yaml`) served by skill_list / skill_run to spaces that have their app. */
  skills?: string | null;
}

/** Who is calling: the MCP session (or in-process caller) and its kind. */
export interface CallContext {
  sessionId: string;
  caller: Caller;
  /** Aborted when the caller gives up (MCP notifications/cancelled): queued waits stop waiting. */
  signal?: AbortSignal;
}

export type CallOutcome<N extends ToolName = ToolName> =
  | { ok: true; result: ToolResult<N> }
  | { ok: false; error: ToolError };

type ResolvedOptions = Required<Omit<SimOptions, 'stateDir' | 'auditCapacity' | keyof SimEnvOptions>> & { stateDir: string | null };

/**
 * The simulated NestSpace runtime: the ToolRegistry of §5.2. Every call is validated against the
 * protocol's schemas in both directions, checked against leases (§5.5) and approvals (§5.6),
 * dispatched to its handler, answered with its result or a `{code, message, retryable, hint}`
 * envelope, and written to the audit log. Transports (MCP over HTTP, in-memory) only adapt to this.
 */
export class SimRuntime {
  readonly spaces = new Map<string, SimSpace>();
  readonly audit: SimAudit;
  readonly leases: LeaseManager;
  readonly approvals: ApprovalGate;
  readonly pool: ProcessPool;
  readonly idempotency = new IdempotencyCache();
  readonly display = new SharedDisplay();
  readonly options: ResolvedOptions;
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
      stateDir: null,
      policy: TEST_RUN_POLICY,
      virtualDisplays: true,
      skills: null,
      ...defined,
    };
    this.audit = new SimAudit(options.auditCapacity);
    this.pool = new ProcessPool(this.options.slots);
    this.approvals = new ApprovalGate(this.audit);
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

  createSpace(name: string | undefined): SimSpace {
    const id = `sp_${randomUUID().slice(0, 8)}`;
    const space = this.attach(new SimSpace(id, name ?? id, this.options.virtualDisplays ? ++this.displayCounter : null));
    this.persist();
    return space;
  }

  space(id: string): SimSpace {
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
      outcome = { ok: false, error: toolError('UNKNOWN_TOOL', `no tool ${name}`, { hint: 'tools/list lists the tools of this runtime.' }) };
    } else {
      const parsed = tool.input.safeParse(rawArgs ?? {});
      const unsaved = tool.mutating ? this.store?.unwritable() : null;
      outcome = !parsed.success
        ? { ok: false, error: invalidArgument(name, parsed.error) }
        : unsaved
          ? { ok: false, error: toolError('STORAGE_UNAVAILABLE', `${name}: the simulator cannot save its state to ${this.store!.file} (${unsaved.message}). Nothing was changed; state.json keeps the last saved state.`, { hint: 'Free space on that disk or make the directory writable (or restart with another --state-dir, or --ephemeral); calls that change state work again as soon as it can be written. Reads keep working meanwhile.', details: { state_file: this.store!.file, errno: unsaved.errno } }) }
          : await this.run<N>(tool, parsed.data as Record<string, unknown>, ctx);
    }
    // Whether ui_set_text typed into a password field is known from its result; when it failed we
    // cannot tell, so its text is masked too (a secret in the log is worse than a missing detail).
    const password = !outcome.ok || (outcome.result as { node?: { password?: boolean } | null }).node?.password === true;
    this.audit.record({
      ts: started,
      kind: 'call',
      // approval_decide is the user's answer on the phone (§5.6), whoever relays it.
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

  private async run<N extends ToolName>(tool: ToolDef, args: Record<string, unknown>, ctx: CallContext): Promise<CallOutcome<N>> {
    const name = tool.name as N;
    const spaceId = typeof args.space_id === 'string' ? args.space_id : undefined;
    try {
      if (name === 'sys_shell' && !this.options.policy.shell.enabled) {
        throw new SimError(
          toolError('TOOL_DISABLED', 'sys_shell is disabled on this runtime (§5.6: high-risk shell is off by default)', {
            hint: 'Start the simulator with a policy that enables it: --policy policy.json with {"shell": {"enabled": true, "allow": ["getprop"]}}.',
          }),
        );
      }
      if (spaceId !== undefined && name !== 'audit_query') {
        this.space(spaceId);
        this.leases.touch(spaceId, ctx.sessionId);
        if (tool.mutating) this.leases.requireExclusive(spaceId, ctx.sessionId, name);
      }
      const invoke = async () => {
        if (tool.dangerous) this.requireApproval(tool, spaceId!, args, ctx);
        const handler = handlers[name] as (a: ToolArgs<N>, rt: SimRuntime, c: CallContext) => Promise<ToolResult<N>> | ToolResult<N>;
        const exec = async () => handler(args as ToolArgs<N>, this, ctx);
        const result = name.startsWith('ui_') && !this.options.virtualDisplays && spaceId ? await this.display.use(spaceId, exec) : await exec();
        const checked = tool.result.safeParse(result);
        if (!checked.success) {
          throw new SimError(toolError('INTERNAL', `${name} produced an invalid result: ${describeIssues(checked.error)}`));
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

  /** §5.6: a dangerous call goes through when the policy pre-approves it or an approval covers it. */
  private requireApproval(tool: ToolDef, spaceId: string, args: Record<string, unknown>, ctx: CallContext): void {
    if (this.options.policy.preapprove.includes(tool.name)) return;
    const decision = this.approvals.consume(spaceId, tool.name, args, ctx.sessionId);
    if (decision.verdict === 'approved') return;
    if (decision.verdict === 'denied') {
      const a = decision.approval;
      throw new SimError(
        toolError('APPROVAL_DENIED', `${tool.name}: the approval ${a.id} was denied${a.decided_by === 'timeout' ? ' (no decision before it expired)' : ` by ${a.decided_by}`}${a.decision_reason ? `: ${a.decision_reason}` : ''}`, {
          hint: 'Do not retry unchanged; ask again with approval_request if the situation changed.',
          details: { approval_id: a.id, decided_by: a.decided_by },
        }),
      );
    }
    throw new SimError(
      toolError('APPROVAL_REQUIRED', `${tool.name} is dangerous and needs a human approval in space ${spaceId}`, {
        hint: `Call approval_request {space_id: "${spaceId}", tool: "${tool.name}", reason: "…"}, wait with approval_wait until it is approved, then call ${tool.name} again.`,
        details: { tool: tool.name, space_id: spaceId },
      }),
    );
  }

  /** Remove a space with everything in it. */
  deleteSpace(space: SimSpace): void {
    for (const inst of space.instances.values()) this.pool.release(inst);
    this.spaces.delete(space.id);
    this.leases.dropSpace(space.id);
    this.persist();
  }

  /** A session ended (MCP DELETE, disconnect, idle expiry): its leases go with it (§5.5). */
  endSession(sessionId: string): void {
    this.leases.releaseSession(sessionId);
  }

  /**
   * Write pending state and stop timers. The runtime should not be used afterwards. Throws when
   * the state cannot be written (disk full, read-only); the timers are stopped all the same.
   */
  close(): void {
    try {
      this.store?.flush();
    } finally {
      this.leases.close();
      this.approvals.close();
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
      this.attach(SimSpace.restore({ ...p, displayId }, (pkg, label, versionCode) => appModelFor(pkg, versionCode) ?? blankApp(pkg, label)));
    }
    this.idempotency.restore(state.idempotency);
  }

  private attach(space: SimSpace): SimSpace {
    space.screen.attach(this.env);
    space.onCrash = (inst) => this.pool.release(inst, true);
    this.spaces.set(space.id, space);
    return space;
  }
}

/** `params.apk_paths.0: expected string, received number` — the path of each issue, as Playwright names it. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${['params', ...i.path].join('.')}: ${i.message}`)
    .join('; ');
}

function invalidArgument(tool: string, error: z.ZodError): ToolError {
  return toolError('INVALID_ARGUMENT', `${tool}: ${describeIssues(error)}`, {
    hint: `Check the arguments against the input schema of ${tool} (tools/list).`,
  });
}


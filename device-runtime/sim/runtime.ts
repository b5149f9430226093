import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  getTool,
  toolError,
  type Caller,
  type ToolArgs,
  type ToolError,
  type ToolName,
  type ToolResult,
} from '../protocol/index.js';
import { LeaseManager } from './core/leases.js';
import { ProcessPool } from './core/process-pool.js';
import { SimError } from './core/sim-error.js';
import { SimSpace } from './core/space.js';
import { handlers } from './handlers/index.js';

export interface SimOptions {
  /** Process slots of the device (§2.2: 2–4). */
  slots?: number;
  abis?: string[];
  pageSize?: 4096 | 16384;
  sdkInt?: number;
}

/** Who is calling: the MCP session (or in-process caller) and its kind. */
export interface CallContext {
  sessionId: string;
  caller: Caller;
}

export type CallOutcome<N extends ToolName = ToolName> =
  | { ok: true; result: ToolResult<N> }
  | { ok: false; error: ToolError };

/**
 * The simulated NestSpace runtime: the ToolRegistry of §5.2. Every call is validated against the
 * protocol's schemas in both directions, checked against leases, dispatched to its handler and
 * answered with its result or a `{code, message, retryable, hint}` envelope. Transports (MCP over
 * HTTP, in-memory) only adapt to this.
 */
export class SimRuntime {
  readonly spaces = new Map<string, SimSpace>();
  readonly leases = new LeaseManager();
  readonly pool: ProcessPool;
  readonly options: Required<SimOptions>;
  private displayCounter = 0;

  constructor(options: SimOptions = {}) {
    this.options = { slots: 4, abis: ['x86_64', 'arm64-v8a'], pageSize: 4096, sdkInt: 35, ...options };
    this.pool = new ProcessPool(this.options.slots);
  }

  createSpace(name: string | undefined): SimSpace {
    const id = `sp_${randomUUID().slice(0, 8)}`;
    const space = new SimSpace(id, name ?? id, ++this.displayCounter);
    space.onCrash = (inst) => this.pool.release(inst);
    this.spaces.set(id, space);
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
    const tool = getTool(name);
    if (!tool) {
      return { ok: false, error: toolError('UNKNOWN_TOOL', `no tool ${name}`, { hint: 'tools/list lists the tools of this runtime.' }) };
    }
    const parsed = tool.input.safeParse(rawArgs ?? {});
    if (!parsed.success) return { ok: false, error: invalidArgument(name, parsed.error) };
    const args = parsed.data as Record<string, unknown>;
    try {
      if (tool.mutating && typeof args.space_id === 'string') {
        this.space(args.space_id);
        this.leases.requireExclusive(args.space_id, ctx.sessionId, name);
      }
      const handler = handlers[name as N] as (a: ToolArgs<N>, rt: SimRuntime, c: CallContext) => Promise<ToolResult<N>> | ToolResult<N>;
      const result = await handler(args as ToolArgs<N>, this, ctx);
      const checked = tool.result.safeParse(result);
      if (!checked.success) {
        return { ok: false, error: toolError('INTERNAL', `${name} produced an invalid result: ${describeIssues(checked.error)}`) };
      }
      return { ok: true, result: checked.data as ToolResult<N> };
    } catch (e) {
      if (e instanceof SimError) return { ok: false, error: e.envelope };
      return { ok: false, error: toolError('INTERNAL', `${name} failed: ${(e as Error).message}`) };
    }
  }

  /** A session ended (MCP DELETE, disconnect, idle expiry): its leases go with it (§5.5). */
  endSession(sessionId: string): void {
    this.leases.releaseSession(sessionId);
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

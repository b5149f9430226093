import { getTool, toolError } from '../../protocol/index.js';
import { SimError } from '../core/sim-error.js';
import type { ApprovalGate } from '../core/approvals.js';
import type { LeaseManager } from '../core/leases.js';
import type { HandlerGroup } from './types.js';

/** Leases and approvals are all the session tools touch. */
export interface SessionHost {
  readonly leases: LeaseManager;
  readonly approvals: ApprovalGate;
}

type SessionTools =
  'session_acquire' | 'session_release' | 'session_status' | 'approval_request' | 'approval_wait' | 'approval_decide';

export const sessionHandlers: HandlerGroup<SessionTools, SessionHost> = {
  session_acquire: (args, rt, ctx) =>
    rt.leases.acquire(args.space_id, ctx.sessionId, args.mode, args.ttl_ms, args.caller, args.wait_ms, ctx.signal),

  session_release: (args, rt, ctx) => ({
    released: rt.leases.release(args.space_id, ctx.sessionId, args.lease_id, args.force),
  }),

  session_status: (args, rt) => ({
    leases: rt.leases.holders(args.space_id),
    waiting: rt.leases.waiting(args.space_id),
  }),

  approval_request: (args, rt, ctx) => {
    const tool = getTool(args.tool);
    if (!tool) {
      throw new SimError(
        toolError('INVALID_ARGUMENT', `approval_request: no tool ${args.tool}`, {
          hint: 'Name the dangerous tool you want to call, e.g. space_install_apk.',
        }),
      );
    }
    return rt.approvals.request({ ...args, tool: tool.name }, ctx);
  },

  approval_wait: (args, rt, ctx) => rt.approvals.wait(args.approval_id, args.timeout_ms, ctx.signal),

  approval_decide: (args, rt, ctx) =>
    rt.approvals.decide(args.approval_id, args.decision, args.reason, { caller: 'USER', sessionId: ctx.sessionId }),
};

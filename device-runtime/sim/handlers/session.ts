import type { HandlerGroup } from './types.js';
import { notSupported } from './space.js';

type SessionTools = 'session_acquire' | 'session_release' | 'session_status' | 'approval_request' | 'approval_wait';

export const sessionHandlers: HandlerGroup<SessionTools> = {
  session_acquire: (args, rt, ctx) => {
    rt.space(args.space_id);
    return rt.leases.acquire(args.space_id, ctx.sessionId, args.mode, args.ttl_ms, args.caller);
  },
  session_release: (args, rt, ctx) => {
    rt.space(args.space_id);
    return { released: rt.leases.release(args.space_id, ctx.sessionId, args.lease_id, args.force) };
  },
  session_status: (args, rt) => {
    rt.space(args.space_id);
    return { leases: rt.leases.holders(args.space_id), waiting: 0 };
  },
  approval_request: () => notSupported('approval_request'),
  approval_wait: () => notSupported('approval_wait'),
};

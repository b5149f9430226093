import { randomUUID } from 'node:crypto';
import { toolError, type Caller } from '../../protocol/index.js';
import type { SimAudit } from './audit.js';
import { SimError } from './sim-error.js';

type Status = 'pending' | 'approved' | 'denied';

export interface Approval {
  id: string;
  space_id: string;
  tool: string;
  args: Record<string, unknown> | undefined;
  reason: string;
  session_id: string;
  caller: Caller;
  status: Status;
  expires_at: number;
  decided_by: string | null;
  decision_reason: string | null;
  used: boolean;
  timer: NodeJS.Timeout;
  waiters: Array<() => void>;
}

/**
 * The ApprovalGate of docs/protocol.md#approvals. A caller asks (approval_request), a human answers (approval_decide,
 * caller USER), no answer by `expires_at` is a denial. An approval is good for one matching
 * call: same space, same tool, the same session, and — when the request named arguments — those
 * arguments. Every request and decision goes to the audit log.
 */
export class ApprovalGate {
  private approvals = new Map<string, Approval>();

  constructor(private readonly audit: SimAudit) {}

  request(
    req: { space_id: string; tool: string; args?: Record<string, unknown>; reason: string; timeout_ms: number },
    who: { caller: Caller; sessionId: string },
  ): { approval_id: string; status: Status; expires_at: number } {
    this.purge();
    const id = `ap_${randomUUID().slice(0, 12)}`;
    const expires_at = Date.now() + req.timeout_ms;
    const a: Approval = {
      id,
      space_id: req.space_id,
      tool: req.tool,
      args: req.args,
      reason: req.reason,
      session_id: who.sessionId,
      caller: who.caller,
      status: 'pending',
      expires_at,
      decided_by: null,
      decision_reason: null,
      used: false,
      timer: setTimeout(
        () => this.settle(a, 'denied', 'timeout', 'no decision before the approval expired'),
        req.timeout_ms,
      ).unref(),
      waiters: [],
    };
    this.approvals.set(id, a);
    this.audit.event('approval', 'approval.request', { caller: who.caller, session_id: who.sessionId }, req.space_id, {
      approval_id: id,
      tool: req.tool,
      reason: req.reason,
    });
    return { approval_id: id, status: a.status, expires_at };
  }

  /** Resolves with the decision, or with `pending` when `timeout_ms` passes first. */
  async wait(
    id: string,
    timeout_ms: number,
    signal?: AbortSignal,
  ): Promise<{ approval_id: string; status: Status; decided_by: string | null; reason: string | null }> {
    const a = this.get(id, 'approval_wait');
    if (a.status === 'pending' && timeout_ms > 0 && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, timeout_ms);
        function done(): void {
          clearTimeout(t);
          signal?.removeEventListener('abort', done);
          a.waiters = a.waiters.filter((w) => w !== done);
          resolve();
        }
        a.waiters.push(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
    return { approval_id: a.id, status: a.status, decided_by: a.decided_by, reason: a.decision_reason };
  }

  decide(
    id: string,
    decision: 'approve' | 'deny',
    reason: string | undefined,
    who: { caller: Caller; sessionId: string },
  ) {
    const a = this.get(id, 'approval_decide');
    if (a.status !== 'pending') {
      throw new SimError(
        toolError('INVALID_ARGUMENT', `approval_decide: approval ${id} is already ${a.status}`, {
          hint: 'A decision is final; ask again with approval_request.',
        }),
      );
    }
    this.settle(a, decision === 'approve' ? 'approved' : 'denied', `${who.caller}:${who.sessionId}`, reason ?? null);
    return { approval_id: a.id, status: a.status, decided_by: a.decided_by };
  }

  /**
   * Use up the decision that covers this call: an approval lets it through; a denial is reported
   * once (so the caller learns the user said no) and then forgotten. 'none' when nothing covers it.
   */
  consume(
    space_id: string,
    tool: string,
    args: Record<string, unknown>,
    sessionId: string,
  ): { verdict: 'approved' | 'none' } | { verdict: 'denied'; approval: Approval } {
    let denied: Approval | null = null;
    for (const a of this.approvals.values()) {
      if (a.used || a.status === 'pending' || a.space_id !== space_id || a.tool !== tool || a.session_id !== sessionId)
        continue;
      if (a.args && !Object.entries(a.args).every(([k, v]) => JSON.stringify(args[k]) === JSON.stringify(v))) continue;
      if (a.status === 'approved') {
        a.used = true;
        return { verdict: 'approved' };
      }
      denied ??= a;
    }
    if (!denied) return { verdict: 'none' };
    denied.used = true;
    return { verdict: 'denied', approval: denied };
  }

  close(): void {
    for (const a of this.approvals.values()) clearTimeout(a.timer);
    this.approvals.clear();
  }

  private settle(a: Approval, status: Status, by: string, reason: string | null): void {
    if (a.status !== 'pending') return;
    clearTimeout(a.timer);
    a.status = status;
    a.decided_by = by;
    a.decision_reason = reason;
    for (const w of [...a.waiters]) w();
    this.audit.event(
      'approval',
      `approval.${status}`,
      { caller: by.startsWith('USER') ? 'USER' : a.caller, session_id: a.session_id },
      a.space_id,
      {
        approval_id: a.id,
        tool: a.tool,
        decided_by: by,
        ...(reason ? { reason } : {}),
      },
    );
  }

  private get(id: string, tool: string): Approval {
    const a = this.approvals.get(id);
    if (!a) {
      throw new SimError(
        toolError('APPROVAL_NOT_FOUND', `${tool}: no approval ${id}`, {
          hint: 'Ask with approval_request; decided approvals are forgotten after 10 minutes.',
        }),
      );
    }
    return a;
  }

  /** Forget approvals decided more than 10 minutes ago, so the map stays small. */
  private purge(): void {
    const cutoff = Date.now() - 600_000;
    for (const [id, a] of this.approvals)
      if (a.status !== 'pending' && a.expires_at < cutoff) this.approvals.delete(id);
  }
}

/**
 * The approval a call needs (docs/protocol.md#approvals), used up: returns when an approval covers it,
 * throws APPROVAL_DENIED once after a denial, APPROVAL_REQUIRED (with how to ask) otherwise. `what`
 * names the dangerous thing when it is not the tool itself (an app function); `ask` is what the
 * request should name in its `args`.
 */
export function requireApproval(
  gate: ApprovalGate,
  c: { tool: string; spaceId: string; args: Record<string, unknown>; sessionId: string },
  what: string = c.tool,
  ask?: Record<string, unknown>,
): void {
  const decision = gate.consume(c.spaceId, c.tool, c.args, c.sessionId);
  if (decision.verdict === 'approved') return;
  if (decision.verdict === 'denied') {
    const a = decision.approval;
    throw new SimError(
      toolError(
        'APPROVAL_DENIED',
        `${c.tool}: the approval ${a.id} ${what === c.tool ? '' : `for ${what} `}was denied${a.decided_by === 'timeout' ? ' (no decision before it expired)' : ` by ${a.decided_by}`}${a.decision_reason ? `: ${a.decision_reason}` : ''}`,
        {
          hint: 'Do not retry unchanged; ask again with approval_request if the situation changed.',
          details: { approval_id: a.id, decided_by: a.decided_by },
        },
      ),
    );
  }
  const askArgs = ask ? `, args: ${JSON.stringify(ask)}` : '';
  throw new SimError(
    toolError(
      'APPROVAL_REQUIRED',
      `${what === c.tool ? c.tool : `${c.tool}: ${what}`} is dangerous and needs a human approval in space ${c.spaceId}`,
      {
        hint: `Call approval_request {space_id: "${c.spaceId}", tool: "${c.tool}"${askArgs}, reason: "…"}, wait with approval_wait until it is approved, then call ${c.tool} again.`,
        details: { tool: c.tool, space_id: c.spaceId, ...(ask ? { args: ask } : {}) },
      },
    ),
  );
}

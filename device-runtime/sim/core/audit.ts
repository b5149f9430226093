import type { AuditEntry, Caller } from '../../protocol/index.js';

/** Argument names whose values are secrets wherever they appear. */
const SECRET_KEY = /token|secret|password|passwd|api[_-]?key|authorization|cookie|credential/i;
/** Tools whose `text` argument is sensitive (docs/protocol.md#tools: clipboard is sensitive). */
const SECRET_TEXT_TOOLS = new Set(['sys_clipboard_set']);

export const MASK = '***';

/**
 * Copy of `args` safe to keep: token-like fields masked at any depth, clipboard text masked, and
 * the text typed into a password field masked (`passwordField` is known only after the handler ran).
 */
export function maskArgs(tool: string, args: Record<string, unknown>, passwordField = false): Record<string, unknown> {
  const out = mask(args) as Record<string, unknown>;
  if ((SECRET_TEXT_TOOLS.has(tool) || (tool === 'ui_set_text' && passwordField)) && 'text' in out) out.text = MASK;
  return out;
}

function mask(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => mask(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [
      k,
      SECRET_KEY.test(k) ? MASK : mask(v, depth + 1),
    ]),
  );
}

export interface AuditFilter {
  space_id?: string;
  session_id?: string;
  tool?: string;
  code?: string;
  kind?: AuditEntry['kind'];
  since?: number;
  limit: number;
}

/**
 * The audit log: a bounded ring (memory stays flat under load; `recorded` counts everything ever
 * written, so a gap is visible). Cost: O(1) per record, O(n) per query.
 */
export class SimAudit {
  private entries: AuditEntry[] = [];
  private seq = 0;
  /** Tool calls ever recorded (kind 'call'), for comparing with what clients sent. */
  calls = 0;

  constructor(private readonly capacity = 20_000) {}

  get recorded(): number {
    return this.seq;
  }

  record(e: Omit<AuditEntry, 'seq'>): AuditEntry {
    const entry = { ...e, seq: ++this.seq };
    if (e.kind === 'call') this.calls++;
    this.entries.push(entry);
    // Drop in chunks so a full log does not shift the array on every call.
    if (this.entries.length > this.capacity * 1.1) this.entries.splice(0, this.entries.length - this.capacity);
    return entry;
  }

  /** A lease or approval change, not itself a tool call. */
  event(
    kind: 'lease' | 'approval',
    tool: string,
    who: { caller: Caller; session_id: string },
    space_id: string | null,
    args: Record<string, unknown>,
    ts = Date.now(),
  ): void {
    this.record({
      ts,
      kind,
      caller: who.caller,
      session_id: who.session_id,
      space_id,
      tool,
      args,
      code: 'OK',
      duration_ms: 0,
    });
  }

  query(f: AuditFilter): { entries: AuditEntry[]; total: number; recorded: number } {
    const matching = this.entries.filter(
      (e) =>
        (f.space_id === undefined || e.space_id === f.space_id) &&
        (f.session_id === undefined || e.session_id === f.session_id) &&
        (f.tool === undefined || e.tool === f.tool) &&
        (f.code === undefined || e.code === f.code) &&
        (f.kind === undefined || e.kind === f.kind) &&
        (f.since === undefined || e.ts >= f.since),
    );
    return { entries: matching.slice(-f.limit), total: matching.length, recorded: this.seq };
  }
}

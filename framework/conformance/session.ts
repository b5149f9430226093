import { decodeErrorBody, decodeResultBody, getTool, type ToolError } from '../../device-runtime/protocol/index.js';
import type { ToolTransport } from '../../device-runtime/client/index.js';
import { CheckFailed } from './check-failed.js';

/** One call's answer as the runtime sent it: no schema check (that is the tools group's job). */
export type Answer =
  { ok: true; body: Record<string, unknown>; ms: number } | { ok: false; error: ToolError; ms: number };

/**
 * A session with the runtime that records what it sent. It reads answers leniently — a
 * semantics check looks only at the fields it is about — so one wrong field fails the check
 * about that field and no unrelated one. DeviceClient is not used for the same reason: it
 * refuses a whole result over one field.
 */
export class Session {
  /** Every call made so far, as `tool {args}`, for the report. */
  readonly sent: string[] = [];

  /** A session over `transport`, which it owns and closes. */
  constructor(readonly transport: ToolTransport) {}

  /** The transport's session id, when it has one. */
  get id(): string | undefined {
    return this.transport.sessionId;
  }

  /** Call `name`; the answer, whatever it is. */
  async call(name: string, args: Record<string, unknown> = {}): Promise<Answer> {
    this.sent.push(`${name} ${short(args)}`);
    const t0 = performance.now();
    const raw = await this.transport.callTool(name, args);
    const ms = performance.now() - t0;
    if (raw.isError) {
      const error = decodeErrorBody(raw) as ToolError | undefined;
      return {
        ok: false,
        error:
          error && typeof error === 'object'
            ? error
            : ({
                code: 'PROTOCOL_ERROR',
                message: 'an error without an envelope',
                retryable: false,
                hint: null,
              } as ToolError),
        ms,
      };
    }
    const tool = getTool(name);
    const body = (tool ? decodeResultBody(tool, raw) : raw.structuredContent) as Record<string, unknown> | undefined;
    return { ok: true, body: body ?? {}, ms };
  }

  /** Call `name` and return its body; an error answer fails the check. */
  async ok(name: string, args: Record<string, unknown> = {}): Promise<any> {
    const a = await this.call(name, args);
    if (!a.ok) throw new CheckFailed(`${name} answered ${a.error.code}: ${a.error.message}`);
    return a.body;
  }

  /** Close the session (its transport). */
  close(): Promise<void> {
    return this.transport.close();
  }
}

/** A call's arguments in one short line for the report. */
export function short(v: unknown, max = 160): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** An answer in one short line for the report. */
export function describeAnswer(a: Answer): string {
  return a.ok ? `ok ${short(a.body, 200)}` : `${a.error.code}: ${a.error.message}`;
}

import type { CallResult, ToolTransport } from '../../device-runtime/client/index.js';

/**
 * A transport around another that may rewrite each call's arguments and each answer: the
 * simulator seen through one fault, without changing the simulator. `result` gets the decoded
 * body of a successful answer (structuredContent) and returns the body to send instead.
 */
export interface Rewrite {
  args?(name: string, args: Record<string, unknown>, sessionId: string | undefined): Record<string, unknown>;
  result?(name: string, body: Record<string, unknown>, args: Record<string, unknown>): Record<string, unknown>;
  /** Replace the whole answer (an error for a call that should succeed, or the other way round). */
  answer?(name: string, raw: CallResult, args: Record<string, unknown>): CallResult | Promise<CallResult>;
  /** Runs before the call is sent (a delay). */
  before?(name: string): Promise<void> | void;
  /** Runs when the connection is closed instead of (or before) closing it; return false to keep the session open. */
  close?(): boolean;
}

export function wrapTransport(inner: ToolTransport, rw: Rewrite): ToolTransport {
  return {
    get sessionId() {
      return inner.sessionId;
    },
    async callTool(name, args, signal) {
      await rw.before?.(name);
      const sent = rw.args ? rw.args(name, structuredClone(args), inner.sessionId) : args;
      let raw = await inner.callTool(name, sent, signal);
      if (rw.result && !raw.isError && raw.structuredContent) {
        const body = rw.result(name, structuredClone(raw.structuredContent), sent);
        raw = {
          ...raw,
          structuredContent: body,
          content: [
            { type: 'text', text: JSON.stringify(body) },
            ...(raw.content ?? []).filter((c) => c.type !== 'text'),
          ],
        };
      }
      return rw.answer ? rw.answer(name, raw, sent) : raw;
    },
    async close() {
      if (rw.close && rw.close() === false) return;
      await inner.close();
    },
  };
}

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  errorCodesOf,
  isToolName,
  type ToolError,
  type ToolInput,
  type ToolName,
  type ToolResult,
} from '../../device-runtime/protocol/index.js';
import { SimRuntime, type CallContext, type SimOptions } from '../../device-runtime/sim/runtime.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const apk = (name: string) => join(ROOT, 'fixtures/apks', name);
export const NOTES = 'com.nestwright.notes';

export function tempDir(prefix = 'nw-sim-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * An in-process runtime and a caller bound to one session: `ok` returns the result or throws
 * with the envelope, `fail` returns the envelope or throws with the result. Every error must be
 * one the protocol declares for that tool (TOOL_ERRORS): the tests double as a contract check.
 */
export function session(rt: SimRuntime, sessionId: string, caller: CallContext['caller'] = 'REMOTE_MCP') {
  const ctx = { sessionId, caller };
  return {
    ctx,
    async ok<N extends ToolName>(name: N, args: ToolInput<N>): Promise<ToolResult<N>> {
      const out = await rt.call(name, args, ctx);
      if (!out.ok) throw new Error(`${name}: ${out.error.code}: ${out.error.message}`);
      return out.result as ToolResult<N>;
    },
    async fail<N extends ToolName>(name: N, args: ToolInput<N> | Record<string, unknown>): Promise<ToolError> {
      const out = await rt.call(name, args, ctx);
      if (out.ok) throw new Error(`${name} succeeded but should have failed: ${JSON.stringify(out.result)}`);
      if (isToolName(name) && !errorCodesOf(name).includes(out.error.code)) {
        throw new Error(
          `${name} answered ${out.error.code}, which TOOL_ERRORS does not declare for it (device-runtime/protocol/tool-errors.ts)`,
        );
      }
      return out.error;
    },
  };
}

export function runtime(opts: SimOptions = {}): SimRuntime {
  return new SimRuntime(opts);
}

/** A space held EXCLUSIVE by `s`, with notes.apk installed. */
export async function spaceWithNotes(s: ReturnType<typeof session>, name = 'w'): Promise<string> {
  const { space_id } = await s.ok('space_create', { name });
  await s.ok('session_acquire', { space_id });
  await s.ok('space_install_apk', { space_id, apk_paths: [apk('notes.apk')] });
  return space_id;
}

import vm from 'node:vm';
import type { IsolateLimits } from './isolate.js';
import { ScriptError } from './script-error.js';
import { describeRequest, httpRequest, type ScriptRoute } from './script-http.js';
import { placeScope, type Reply, type ScriptHost, type ScriptThread, type ToThread } from './script-thread.js';

export { ScriptError, type ScriptErrorCode } from './script-error.js';
export type { ScriptRoute } from './script-http.js';

/**
 * The JavaScript of a flow or a skill (`evalScript`, `runScript`, `assertTrue`, `script` steps,
 * `${…}`), run the way Maestro's engine runs it: one scope per flow run in which the environment
 * variables are globals, `output` and `maestro.copiedText` are shared by every script and
 * sub-flow, `json()` parses, `http.get/post/put/delete/request` are synchronous (as in Maestro's
 * GraalJS) and go through the app instance's network proxy when one runs (script-http.ts), and
 * `console.log` reaches the run's output.
 *
 * Scripts come with flows, and flows are copied from elsewhere, so a scope is an isolate
 * (isolate.ts: QuickJS in WebAssembly, its own heap) with limits on time (each evaluation with the
 * promise jobs it queued), memory and stack. A script reaches nothing of the host but the API
 * above: no `require`, `process`, `import()`, file system or host object. What it computes
 * crosses back as text: a `${…}`'s value, `output` as JSON, `maestro.copiedText`.
 *
 * The isolates live on a script thread (script-thread.ts: so that a script can wait for its http
 * while this thread's event loop answers it), started with the process's first script: every call
 * that may evaluate is async, and a scope with no script costs nothing. A script stopped by a
 * limit ends its isolate (its queued jobs and heap with it): the next script of the scope gets a
 * new one, with `output` (up to 1 MB of JSON), the variables and `maestro.copiedText` carried over.
 */

/** The heap of one scope, bytes. */
export const SCRIPT_MEMORY_BYTES = 64 * 2 ** 20;
/** The stack of one scope, bytes (QuickJS's count; the host's own stack is below it). */
export const SCRIPT_STACK_BYTES = 128 * 2 ** 10;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

let nextScope = 1;

/** A scope that was never disposed frees its isolate when it is collected. */
const unused = new FinalizationRegistry<{ thread: ScriptThread; scope: number }>(({ thread, scope }) =>
  release(thread, scope),
);

function release(thread: ScriptThread, scope: number): void {
  if (!thread.dead) void thread.send({ op: 'dispose', scope }, null, 0).catch(() => {});
  thread.release();
}

/** One flow run's JavaScript scope. Dispose it when the run ends (its heap goes back at once). */
export class FlowScript {
  /** `maestro.copiedText` (what copyTextFrom kept) and `maestro.platform`, as scripts see them. */
  readonly maestro: { copiedText: string; readonly platform: string };
  private readonly id = nextScope++;
  /** The thread holding this scope's isolate, once it ran a script there. */
  private thread: ScriptThread | null = null;
  /** Every variable set, for a new thread; `pending` those the thread has not had yet. */
  private readonly vars = new Map<string, string>();
  private readonly pending = new Map<string, string>();
  private copied = '';
  private copiedChanged = false;
  private readonly host: ScriptHost;

  constructor(
    private readonly timeoutMs: number,
    log: (line: string) => void = () => {},
    private readonly limits: { memoryBytes?: number; stackBytes?: number } = {},
    /** The instance's network proxy `http` goes through, asked at each request; null (or none): direct. */
    network?: () => ScriptRoute | null | Promise<ScriptRoute | null>,
  ) {
    const maestro = { platform: 'android' } as { copiedText: string; platform: string };
    Object.defineProperty(maestro, 'copiedText', {
      enumerable: true,
      get: () => this.copied,
      set: (text: unknown) => {
        this.copied = String(text);
        this.copiedChanged = true;
      },
    });
    this.maestro = maestro;
    this.host = {
      log,
      async http(request, ms) {
        let route: ScriptRoute | null;
        try {
          route = (await network?.()) ?? null;
        } catch (e) {
          throw new Error(
            `${describeRequest(request)}: the instance's network proxy did not start: ${(e as Error).message}`,
          );
        }
        return httpRequest(request, ms, route);
      },
    };
  }

  /** A copy of the scope's `output` (its JSON, parsed). */
  async output(): Promise<Record<string, unknown>> {
    if (!this.thread || this.thread.dead) return {};
    // Reading `output` runs the script's code too (a `toJSON`): with its log and http, within its limit.
    const reply = await this.thread.send({ op: 'output', scope: this.id }, this.host, this.timeoutMs);
    const json = this.check(reply).value;
    return (json ? (JSON.parse(json) as Record<string, unknown> | null) : null) ?? {};
  }

  /** Make the variables in scope globals of the script scope (Maestro's env is JavaScript's too). */
  setVariables(vars: Record<string, string>): void {
    for (const [k, v] of Object.entries(vars))
      if (IDENTIFIER.test(k)) {
        this.vars.set(k, v);
        this.pending.set(k, v);
      }
  }

  /** Run a script (a file's text or an `evalScript`), within the limits. */
  async run(code: string, where: string): Promise<void> {
    await this.evaluate(code, where, 'run');
  }

  /** One `${…}`: an expression (`{a: 1}.a` too), else statements (`a = 1; b = 2`); its value as text. */
  async expression(code: string, where: string): Promise<string> {
    return (await this.evaluate(code, where, 'expression'))!;
  }

  /** A string with its `${expressions}` evaluated (`Hello ${name}`, `${output.user.id}`). */
  async interpolate(text: string, where: string): Promise<string> {
    if (!text.includes('${')) return text;
    let out = '';
    let i = 0;
    while (i < text.length) {
      const start = text.indexOf('${', i);
      if (start < 0) break;
      const end = closing(text, start + 2);
      if (end < 0)
        throw new ScriptError('SCRIPT_FAILED', `${where}: \`\${\` without its \`}\` in ${JSON.stringify(text)}`, where);
      out += text.slice(i, start) + (await this.expression(text.slice(start + 2, end), where));
      i = end + 1;
    }
    return out + text.slice(i);
  }

  /** Every string inside a value interpolated, in order. */
  async deep<T>(value: T, where: string): Promise<T> {
    if (typeof value === 'string') return (await this.interpolate(value, where)) as T;
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const v of value) out.push(await this.deep(v, where));
      return out as T;
    }
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = await this.deep(v, where);
      return out as T;
    }
    return value;
  }

  /** Free the isolate; a later script gets a new one (with the variables and `maestro.copiedText`). */
  dispose(): void {
    if (!this.thread) return;
    unused.unregister(this);
    release(this.thread, this.id);
    this.thread = null;
  }

  private async evaluate(code: string, where: string, mode: 'run' | 'expression'): Promise<string | undefined> {
    let limits: IsolateLimits | undefined;
    if (!this.thread || this.thread.dead) {
      if (this.thread) this.dispose();
      this.thread = placeScope();
      unused.register(this, { thread: this.thread, scope: this.id }, this);
      limits = {
        timeoutMs: this.timeoutMs,
        memoryBytes: this.limits.memoryBytes ?? SCRIPT_MEMORY_BYTES,
        stackBytes: this.limits.stackBytes ?? SCRIPT_STACK_BYTES,
      };
      // A new isolate there: it gets every variable and the copied text.
      for (const [k, v] of this.vars) this.pending.set(k, v);
      this.copiedChanged = true;
    }
    const message: Omit<Extract<ToThread, { op: 'eval' }>, 'id'> = {
      op: 'eval',
      scope: this.id,
      ...(limits ? { limits } : {}),
      vars: [...this.pending],
      ...(this.copiedChanged ? { copied: this.copied } : {}),
      code,
      where,
      mode,
    };
    this.pending.clear();
    this.copiedChanged = false;
    const reply = await this.thread.send(message, this.host, this.timeoutMs);
    if (reply.copied !== undefined) this.copied = reply.copied;
    return this.check(reply).value ?? undefined;
  }

  private check(reply: Reply): Reply {
    if (reply.error) throw new ScriptError(reply.error.code, reply.error.message, reply.error.where);
    return reply;
  }
}

/** The `}` closing an expression that starts at `from`, skipping nested braces and strings. */
export function closing(text: string, from: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '{') depth++;
    else if (c === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** Whether a Maestro condition string holds (`assertTrue`, `when: true`): not empty, false, 0, null or undefined. */
export function truthy(value: string): boolean {
  const v = value.trim();
  return v !== '' && !['false', '0', 'null', 'undefined', 'NaN'].includes(v);
}

/**
 * Syntax-check JavaScript without running it (the planner checks every script before a run, with
 * no engine loaded): V8 compiles the text and nothing ever runs the compiled script.
 */
export function checkSyntax(code: string): string | null {
  try {
    new vm.Script(code);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

import vm from 'node:vm';
import { Isolate, type IsolateLimits } from './isolate.js';
import { ScriptError } from './script-error.js';
import { httpRequest } from './script-http.js';

export { ScriptError, type ScriptErrorCode } from './script-error.js';

/**
 * The JavaScript of a flow or a skill (`evalScript`, `runScript`, `assertTrue`, `script` steps,
 * `${…}`), run the way Maestro's engine runs it: one scope per flow run in which the environment
 * variables are globals, `output` and `maestro.copiedText` are shared by every script and
 * sub-flow, `json()` parses, `http.get/post/put/delete/request` are synchronous (as in Maestro's
 * GraalJS, see script-http.ts) and `console.log` reaches the run's output.
 *
 * Scripts come with flows, and flows are copied from elsewhere, so a scope is an isolate
 * (isolate.ts: QuickJS in WebAssembly, its own heap) with limits on time (each evaluation with the
 * promise jobs it queued), memory and stack. A script reaches nothing of the host but the API
 * above: no `require`, `process`, `import()`, file system or host object. What it computes
 * crosses back as text: a `${…}`'s value, `output` as JSON, `maestro.copiedText`.
 *
 * The engine is loaded on the first evaluation of the process, so every call that may evaluate
 * is async; a scope with no script costs nothing. A script stopped by a limit ends its isolate
 * (its queued jobs and heap with it): the next script of the scope gets a new one, with `output`
 * (up to 1 MB of JSON), the variables and `maestro.copiedText` carried over.
 */

/** The heap of one scope, bytes. */
export const SCRIPT_MEMORY_BYTES = 64 * 2 ** 20;
/** The stack of one scope, bytes (QuickJS's count; the host's own stack is below it). */
export const SCRIPT_STACK_BYTES = 128 * 2 ** 10;
const CARRY_BYTES = 2 ** 20;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A scope that was never disposed frees its runtime when it is collected. */
const unused = new FinalizationRegistry<Isolate>((iso) => iso.dispose());

/** One flow run's JavaScript scope. Dispose it when the run ends (its heap goes back at once). */
export class FlowScript {
  /** `maestro.copiedText` (what copyTextFrom kept) and `maestro.platform`, as scripts see them. */
  readonly maestro: { copiedText: string; readonly platform: string };
  private iso: Isolate | null = null;
  private creating: Promise<Isolate> | null = null;
  /** Every variable set, for a new isolate; `pending` those its isolate has not had yet. */
  private readonly vars = new Map<string, string>();
  private readonly pending = new Map<string, string>();
  private copied = '';
  private copiedChanged = false;
  private carried: string | null = null;

  constructor(
    private readonly timeoutMs: number,
    private readonly log: (line: string) => void = () => {},
    private readonly limits: { memoryBytes?: number; stackBytes?: number } = {},
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
  }

  /** A copy of the scope's `output` (its JSON, parsed). */
  get output(): Record<string, unknown> {
    const json = !this.iso ? this.carried : this.iso.stopped ? this.iso.salvage() : this.iso.output('output');
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
    await this.evaluate(code, where, false);
  }

  /** One `${…}`: an expression (`{a: 1}.a` too), else statements (`a = 1; b = 2`); its value as text. */
  async expression(code: string, where: string): Promise<string> {
    const iso = await this.ready(where);
    return (await this.evaluate(iso.isExpression(code, where) ? `(${code}\n)` : code, where, true))!;
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

  /** Free the isolate; a later script gets a new one. */
  dispose(): void {
    if (!this.iso) return;
    unused.unregister(this);
    this.iso.dispose();
    this.iso = null;
    this.pending.clear();
    for (const [k, v] of this.vars) this.pending.set(k, v);
    this.copiedChanged = true;
  }

  private async evaluate(code: string, where: string, text: boolean): Promise<string | undefined> {
    const iso = await this.ready(where);
    if (this.pending.size) {
      iso.setGlobals(this.pending, where);
      this.pending.clear();
    }
    if (this.copiedChanged) {
      iso.setCopiedText(this.copied, where);
      this.copiedChanged = false;
    }
    let failed: unknown = null;
    let value: string | undefined;
    try {
      value = iso.evaluate(code, where, text);
    } catch (e) {
      failed = e;
    }
    if (!iso.stopped)
      try {
        this.copied = iso.copiedText(where);
      } catch (e) {
        failed ??= e;
      }
    if (failed) throw failed;
    return value;
  }

  /** The scope's isolate; a new one (with the old one's state) when there is none or it was stopped. */
  private ready(where: string): Promise<Isolate> {
    if (this.iso && !this.iso.stopped) return Promise.resolve(this.iso);
    this.creating ??= this.renew(where).finally(() => (this.creating = null));
    return this.creating;
  }

  private async renew(where: string): Promise<Isolate> {
    if (this.iso) {
      const json = this.iso.salvage();
      this.carried = json && json.length <= CARRY_BYTES ? json : null;
      this.dispose();
    }
    const iso = await Isolate.create(
      {
        timeoutMs: this.timeoutMs,
        memoryBytes: this.limits.memoryBytes ?? SCRIPT_MEMORY_BYTES,
        stackBytes: this.limits.stackBytes ?? SCRIPT_STACK_BYTES,
      } satisfies IsolateLimits,
      { log: this.log, http: httpRequest },
      where,
    );
    if (this.carried) iso.setOutput(this.carried, where);
    this.carried = null;
    this.iso = iso;
    unused.register(this, iso, this);
    return iso;
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

import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { ScriptError, type ScriptErrorCode } from './script-error.js';

/**
 * The isolate flow and skill scripts run in: QuickJS compiled to WebAssembly (quickjs-emscripten),
 * one QuickJS runtime per script scope, each with its own heap, a memory limit, a stack limit and
 * an interrupt handler that stops it at a deadline. A script sees the language's own globals and
 * what the prelude below defines (`output`, `maestro`, `json`, `console.log`, `http`), nothing of
 * the host: the two host functions it reaches (a log line, an http request) take and give text,
 * and are held in the prelude's closure, not in a global.
 *
 * Why this engine: node's `vm` is not a security boundary (its objects' constructors lead back to
 * the host's `process`, and its timeout does not cover promise jobs); isolated-vm is a native
 * addon (a compiler at install time, a build per Node version) that starts a V8 per isolate.
 * QuickJS in WebAssembly is plain JavaScript and a .wasm file to install, keeps every object of a
 * script in the module's linear memory, and runs promise jobs only when asked to, here under the
 * same deadline as the script. It runs synchronously, so Maestro's synchronous `http` stays so:
 * isolates live on a script thread (script-thread.ts), where a host function may wait.
 *
 * The module is loaded when the thread starts (a WebAssembly compile, tens of ms) and shared by
 * every scope on it; a run without scripts never starts the thread. Wasm frames run on the host's own
 * stack: a recursion that the stack limit does not catch (the engine's native code) overflows the
 * host stack instead, which leaves the module in an unknown state, so that module is dropped and
 * the next script loads a new one.
 */

/** The limits of one scope's runtime. */
export interface IsolateLimits {
  /** How long one evaluation (with the jobs it queued) may run, ms. */
  timeoutMs: number;
  /** The runtime's heap, bytes. */
  memoryBytes: number;
  /** The runtime's stack, bytes (QuickJS counts its own frames; the host's stack is below it). */
  stackBytes: number;
}

/** What a script may reach of the host: both take and give text. */
export interface IsolateHost {
  log(line: string): void;
  /** An http request as JSON, answered within `timeoutMs` (the time the evaluation has left); it may block. */
  http(request: string, timeoutMs: number): string;
}

interface Engine {
  module: QuickJSWASMModule;
  /** A trap left the module in an unknown state: nothing may run in it again. */
  broken: boolean;
}

let loading: Promise<Engine> | null = null;

/** The process's engine, loaded on first use; a new one when the last broke. */
async function engine(where: string): Promise<Engine> {
  for (;;) {
    const pending = (loading ??= import('quickjs-emscripten').then(async (q) => ({
      module: await q.newQuickJSWASMModule(),
      broken: false,
    })));
    try {
      const e = await pending;
      if (!e.broken) return e;
    } catch (e) {
      if (loading === pending) loading = null;
      throw new ScriptError(
        'SCRIPT_ENGINE',
        `${where}: the script engine (QuickJS) could not be loaded: ${String(e)}`,
        where,
      );
    }
    if (loading === pending) loading = null;
  }
}

/** Load the engine now (a script thread does as it starts), so its first script does not wait for it. */
export async function loadEngine(where: string): Promise<void> {
  await engine(where);
}

/**
 * Maestro's script API, defined in the isolate. Called once with the host functions; returns the
 * helpers the host calls (never reachable from a script). JSON and String are captured here so a
 * script that replaces them changes only its own results.
 */
const PRELUDE = `(hostLog, hostHttp) => {
  'use strict';
  const g = globalThis, stringify = JSON.stringify, parse = JSON.parse, S = String;
  g.output = {};
  g.maestro = { copiedText: '', platform: 'android' };
  g.json = (text) => parse(text);
  g.console = { log: (...a) => { hostLog(a.map((x) => S(x)).join(' ')); } };
  const send = (method, url, o) => {
    const b = o ? o.body : undefined;
    const body = b === undefined || b === null ? null : typeof b === 'string' ? b : stringify(b);
    return parse(hostHttp(stringify({ url: S(url), method, headers: (o && o.headers) || {}, body })));
  };
  g.http = {
    get: (u, o) => send('GET', u, o),
    post: (u, o) => send('POST', u, o),
    put: (u, o) => send('PUT', u, o),
    delete: (u, o) => send('DELETE', u, o),
    request: (u, o) => send(S((o && o.method) || 'GET').toUpperCase(), u, o),
  };
  return {
    text: (v) => (v === undefined ? 'undefined' : v === null ? 'null' : typeof v === 'object' ? stringify(v) : S(v)),
    outputJson: () => stringify(g.output === undefined ? null : g.output),
    setOutput: (j) => { g.output = parse(j); },
    copied: () => S(g.maestro && g.maestro.copiedText),
    setCopied: (t) => { g.maestro.copiedText = t; },
  };
}`;

type Helper = 'text' | 'outputJson' | 'setOutput' | 'copied' | 'setCopied';
const HELPERS: Helper[] = ['text', 'outputJson', 'setOutput', 'copied', 'setCopied'];

/** One scope's QuickJS runtime and context. Every entry runs under a fresh deadline. */
export class Isolate {
  private deadline = 0;
  private interrupted = false;
  /** Stopped by a limit: it takes no more scripts. */
  private spent = false;
  private helpers = new Map<Helper, QuickJSHandle>();

  private constructor(
    private readonly engine: Engine,
    private readonly rt: QuickJSRuntime,
    private readonly ctx: QuickJSContext,
    private readonly limits: IsolateLimits,
  ) {}

  static async create(limits: IsolateLimits, host: IsolateHost, where: string): Promise<Isolate> {
    const e = await engine(where);
    const rt = e.module.newRuntime();
    rt.setMemoryLimit(limits.memoryBytes);
    rt.setMaxStackSize(limits.stackBytes);
    const iso = new Isolate(e, rt, rt.newContext(), limits);
    rt.setInterruptHandler(() => {
      if (Date.now() <= iso.deadline) return false;
      iso.interrupted = true;
      return true;
    });
    iso.enter('(the script API)', () => iso.install(host));
    return iso;
  }

  private install(host: IsolateHost): void {
    const { ctx } = this;
    const log = ctx.newFunction('log', (h) => void host.log(ctx.getString(h)));
    const http = ctx.newFunction('http', (h) => ctx.newString(host.http(ctx.getString(h), this.deadline - Date.now())));
    const prelude = this.check('(the script API)', ctx.evalCode(PRELUDE, 'prelude.js', { type: 'global' }));
    const api = this.check('(the script API)', ctx.callFunction(prelude, ctx.undefined, log, http));
    for (const name of HELPERS) this.helpers.set(name, ctx.getProp(api, name));
    for (const h of [api, prelude, log, http]) h.dispose();
  }

  /**
   * Run `code` as a global script (its top-level declarations stay for the next one), then the
   * jobs it queued, all within one deadline. A script whose value is a rejected promise failed.
   * With `text`, its value as `${…}` shows it (objects as JSON); else undefined.
   */
  evaluate(code: string, where: string, text: boolean): string | undefined {
    return this.enter(where, () => {
      const r = this.ctx.evalCode(code, where, { type: 'global' });
      // The jobs run even when the script threw: none is left for the next script to run.
      const jobs = this.interrupted ? null : this.rt.executePendingJobs(-1);
      if (this.interrupted || r.error || jobs?.error) {
        const error = this.interrupted ? null : (r.error ?? jobs!.error!);
        for (const h of [r.error ?? r.value, jobs?.error]) if (h !== error && h?.alive) h.dispose();
        throw this.failure(where, error);
      }
      const value = r.value;
      try {
        const state = this.ctx.getPromiseState(value);
        if (state.type === 'rejected') throw this.failure(where, state.error);
        if (state.type === 'fulfilled' && !state.notAPromise) state.value.dispose();
        return text ? this.call(where, 'text', value) : undefined;
      } finally {
        value.dispose();
      }
    });
  }

  /** Stopped by a limit, or its engine broke (maybe under another scope): the scope needs a new one. */
  get stopped(): boolean {
    return this.spent || this.engine.broken;
  }

  /** Whether `code` parses as an expression (`${…}` holds an expression or statements). */
  isExpression(code: string, where: string): boolean {
    return this.enter(where, () => {
      const r = this.ctx.evalCode(`(${code}\n)`, where, { type: 'global', compileOnly: true });
      (r.error ?? r.value).dispose();
      return !r.error;
    });
  }

  /** Set globals (the flow's variables), as strings. */
  setGlobals(vars: Iterable<[string, string]>, where: string): void {
    this.enter(where, () => {
      for (const [k, v] of vars) {
        const h = this.ctx.newString(v);
        this.ctx.setProp(this.ctx.global, k, h);
        h.dispose();
      }
    });
  }

  /** `output` as JSON. */
  output(where: string): string {
    return this.enter(where, () => this.call(where, 'outputJson'));
  }

  setOutput(json: string, where: string): void {
    this.enter(where, () => void this.call(where, 'setOutput', json));
  }

  copiedText(where: string): string {
    return this.enter(where, () => this.call(where, 'copied'));
  }

  setCopiedText(text: string, where: string): void {
    this.enter(where, () => void this.call(where, 'setCopied', text));
  }

  /** `output` as JSON from a stopped isolate (its queued jobs do not run), within a second; null when it cannot be read. */
  salvage(): string | null {
    if (this.engine.broken || !this.rt.alive) return null;
    this.spent = false;
    try {
      return this.enter('(output)', () => this.call('(output)', 'outputJson'), Math.min(1000, this.limits.timeoutMs));
    } catch {
      return null;
    } finally {
      this.spent = true;
    }
  }

  /** Free the runtime (its heap goes back to the module); nothing when its engine broke. */
  dispose(): void {
    if (this.engine.broken || !this.rt.alive) return;
    try {
      for (const h of this.helpers.values()) h.dispose();
      this.ctx.dispose();
      this.rt.dispose();
    } catch {
      this.engine.broken = true;
    }
  }

  /** Run `body` under a fresh deadline; a trap (the host's stack, an abort in the module) breaks the engine. */
  private enter<T>(where: string, body: () => T, timeoutMs = this.limits.timeoutMs): T {
    if (this.stopped) throw new ScriptError('SCRIPT_ENGINE', `${where}: this script scope was stopped`, where);
    this.deadline = Date.now() + timeoutMs;
    this.interrupted = false;
    try {
      return body();
    } catch (e) {
      if (e instanceof ScriptError) throw e;
      this.engine.broken = true;
      this.spent = true;
      if (e instanceof RangeError)
        throw new ScriptError('SCRIPT_STACK', `${where}: the script nested too deeply and was stopped`, where);
      throw new ScriptError('SCRIPT_ENGINE', `${where}: the script engine failed (${String(e)})`, where);
    }
  }

  /** A helper of the prelude called with a string argument (or a value handle); its string result. */
  private call(where: string, name: Helper, arg?: string | QuickJSHandle): string {
    const h = typeof arg === 'string' ? this.ctx.newString(arg) : arg;
    try {
      const r = this.check(
        where,
        this.ctx.callFunction(this.helpers.get(name)!, this.ctx.undefined, ...(h ? [h] : [])),
      );
      try {
        return this.ctx.typeof(r) === 'string' ? this.ctx.getString(r) : '';
      } finally {
        r.dispose();
      }
    } finally {
      if (typeof arg === 'string') h!.dispose();
    }
  }

  private check(where: string, r: { error?: QuickJSHandle; value?: QuickJSHandle }): QuickJSHandle {
    if (r.error) throw this.failure(where, r.error);
    return r.value!;
  }

  /** The ScriptError for what a script threw (`null`: it was interrupted); the handle is disposed. */
  private failure(where: string, error: QuickJSHandle | null): ScriptError {
    let thrown: unknown = null;
    if (error && !this.interrupted)
      try {
        thrown = this.ctx.dump(error);
      } catch {
        thrown = null;
      }
    if (error?.alive) error.dispose();
    const stop = (code: ScriptErrorCode, why: string) => {
      this.spent = true;
      return new ScriptError(code, `${where}: ${why}`, where);
    };
    if (this.interrupted)
      return stop('SCRIPT_TIMEOUT', `the script ran longer than ${this.limits.timeoutMs}ms and was stopped`);
    const e = (thrown && typeof thrown === 'object' ? thrown : {}) as { name?: unknown; message?: unknown };
    // QuickJS raises its limits as InternalErrors with fixed messages (quickjs.c), its only signal.
    if (e.name === 'InternalError' && e.message === 'out of memory')
      return stop('SCRIPT_MEMORY', `the script used more than ${this.limits.memoryBytes / 2 ** 20} MB and was stopped`);
    if (e.name === 'InternalError' && e.message === 'stack overflow')
      return stop('SCRIPT_STACK', 'the script nested too deeply and was stopped');
    const what =
      typeof e.message === 'string'
        ? `${typeof e.name === 'string' ? e.name : 'Error'}: ${e.message}`
        : `Error: ${typeof thrown === 'string' ? thrown : JSON.stringify(thrown)}`;
    return new ScriptError('SCRIPT_FAILED', `${where}: ${what}`, where);
  }
}

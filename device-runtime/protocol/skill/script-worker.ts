import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { Isolate, loadEngine, type IsolateHost, type IsolateLimits } from './isolate.js';
import { ScriptError } from './script-error.js';
import { describeRequest } from './script-http.js';
import {
  ANSWERS,
  JOBS,
  type FromThread,
  type HttpAnswer,
  type ThreadData,
  type ToThread,
  type WireError,
} from './script-thread.js';

/**
 * A script thread (script-thread.ts says why there is one): the scopes' isolates, each message
 * run as it arrives, one at a time. Between messages the thread sleeps on its jobs counter, not in
 * its event loop (a futex wakes it sooner than the loop's message handle would); the loop runs only
 * while the engine loads. A script's `http` posts the request to the thread that sent the
 * evaluation and sleeps until that thread answers (or the evaluation's time is up); its
 * `console.log` lines are posted as they come, ahead of the evaluation's answer.
 */

const { signal, jobs, answers } = workerData as ThreadData;
const counter = new Int32Array(signal);
const port = parentPort!;
/** The message being run: its logs and requests are posted under its id. */
let current = 0;
let seq = 0;

/** How much longer than the request's own timeout the script waits for its answer, ms (the answer says why it failed). */
const ANSWER_SLACK_MS = 250;

const host: IsolateHost = {
  log: (line) => post({ kind: 'log', id: current, line }),
  http(request, timeoutMs) {
    const mine = ++seq;
    const ms = Math.max(1, Math.floor(timeoutMs));
    const until = Date.now() + ms + ANSWER_SLACK_MS;
    post({ kind: 'http', id: current, seq: mine, request, timeoutMs: ms });
    for (;;) {
      const seen = Atomics.load(counter, ANSWERS);
      for (let m = receiveMessageOnPort(answers); m; m = receiveMessageOnPort(answers)) {
        const a = m.message as HttpAnswer;
        // An answer that came after its script stopped waiting is dropped.
        if (a.seq !== mine) continue;
        if (a.error !== undefined) throw new Error(a.error);
        return a.answer!;
      }
      const left = until - Date.now();
      if (left <= 0 || Atomics.wait(counter, ANSWERS, seen, left) === 'timed-out')
        throw new Error(`${describeRequest(request)}: no answer within ${ms}ms`);
    }
  },
};

const CARRY_BYTES = 2 ** 20;

/** One scope's state on this thread: its isolate, renewed (with `output`, the variables and `maestro.copiedText`) when a limit stopped it. */
class ThreadScope {
  private iso: Isolate | null = null;
  private carried: string | null = null;
  /** Every variable set, for a new isolate; `pending` those its isolate has not had yet. */
  private readonly vars = new Map<string, string>();
  private readonly pending = new Map<string, string>();
  copied = '';
  private copiedChanged = false;

  constructor(private readonly limits: IsolateLimits) {}

  async evaluate(m: Extract<ToThread, { op: 'eval' }>): Promise<string | undefined> {
    for (const [k, v] of m.vars) {
      this.vars.set(k, v);
      this.pending.set(k, v);
    }
    if (m.copied !== undefined) {
      this.copied = m.copied;
      this.copiedChanged = true;
    }
    const { where } = m;
    const iso = await this.ready(where);
    if (this.pending.size) {
      iso.setGlobals(this.pending, where);
      this.pending.clear();
    }
    if (this.copiedChanged) {
      iso.setCopiedText(this.copied, where);
      this.copiedChanged = false;
    }
    const expression = m.mode === 'expression';
    const code = expression && iso.isExpression(m.code, where) ? `(${m.code}\n)` : m.code;
    let failed: unknown = null;
    let value: string | undefined;
    try {
      value = iso.evaluate(code, where, expression);
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

  /** `output` as JSON (salvaged from a stopped isolate), or null. */
  output(): string | null {
    if (!this.iso) return this.carried;
    return this.iso.stopped ? this.iso.salvage() : this.iso.output('output');
  }

  dispose(): void {
    this.iso?.dispose();
    this.iso = null;
  }

  private async ready(where: string): Promise<Isolate> {
    if (this.iso && !this.iso.stopped) return this.iso;
    if (this.iso) {
      const json = this.iso.salvage();
      this.carried = json && json.length <= CARRY_BYTES ? json : null;
      this.dispose();
      for (const [k, v] of this.vars) this.pending.set(k, v);
      this.copiedChanged = true;
    }
    const iso = await Isolate.create(this.limits, host, where);
    if (this.carried) iso.setOutput(this.carried, where);
    this.carried = null;
    this.iso = iso;
    return iso;
  }
}

const scopes = new Map<number, ThreadScope>();

function post(m: FromThread): void {
  port.postMessage(m);
}

function wire(e: unknown, where: string): WireError {
  if (e instanceof ScriptError) return { code: e.code, message: e.message, where: e.where };
  return { code: 'SCRIPT_ENGINE', message: `${where}: the script engine failed (${String(e)})`, where };
}

async function handle(m: ToThread): Promise<void> {
  current = m.id;
  const scope = scopes.get(m.scope);
  if (m.op === 'dispose') {
    scope?.dispose();
    scopes.delete(m.scope);
    return post({ kind: 'done', id: m.id });
  }
  if (m.op === 'output') {
    try {
      return post({ kind: 'done', id: m.id, value: scope?.output() ?? null });
    } catch (e) {
      return post({ kind: 'done', id: m.id, error: wire(e, '(output)') });
    }
  }
  let s = scope;
  if (!s) scopes.set(m.scope, (s = new ThreadScope(m.limits!)));
  try {
    post({ kind: 'done', id: m.id, value: await s.evaluate(m), copied: s.copied });
  } catch (e) {
    post({ kind: 'done', id: m.id, error: wire(e, m.where), copied: s.copied });
  }
}

/** The next message, waited for. */
function next(): ToThread {
  for (;;) {
    const seen = Atomics.load(counter, JOBS);
    const m = receiveMessageOnPort(jobs);
    if (m) return m.message as ToThread;
    Atomics.wait(counter, JOBS, seen);
  }
}

async function serve(): Promise<void> {
  try {
    await loadEngine('(the script engine)');
  } catch (e) {
    return post({ kind: 'ready', error: (e as Error).message });
  }
  post({ kind: 'ready' });
  // An evaluation's promise settles in microtasks; only loading the engine again waits for the loop.
  for (;;) await handle(next());
}

void serve();

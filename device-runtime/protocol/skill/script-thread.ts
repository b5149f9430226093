import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { IsolateLimits } from './isolate.js';
import { ScriptError, type ScriptErrorCode } from './script-error.js';

/**
 * Where flow and skill scripts run: a worker thread holding the scopes' isolates (isolate.ts),
 * which the caller's thread sends each evaluation to and awaits.
 *
 * Why a thread: Maestro's `http` is synchronous for the script (it reads the response on the next
 * line, with no `await`), so whatever runs the script must wait for the answer without returning
 * — and the answer may come from this very event loop: the instance's network proxy, its gate and
 * the test's route handlers run here. A script blocking this thread would hold the loop that has
 * to answer it. So the isolate runs on a thread of its own, where waiting is harmless: a script's
 * `http` posts the request here and sleeps in `Atomics.wait` on a shared counter; this thread makes
 * the request asynchronously (script-http.ts: through the instance's proxy, or direct) and posts
 * the answer on a port the script's thread reads synchronously (`receiveMessageOnPort`), then bumps
 * the counter. The isolate stays QuickJS in WebAssembly with the same limits; the thread only
 * lets it wait. The other ways were weighed: the isolate on this thread, blocked while another
 * thread makes the request, deadlocks on every routed request (its answer is made on this
 * thread's loop); only the scripts that call `http` on a thread cannot be told apart (a scope's
 * state is one heap, and any script may reach `http`, through a function an earlier one defined or
 * `globalThis['ht' + 'tp']`); QuickJS's asyncify build, which suspends a script inside this
 * thread, lets the host's stack end a recursion long before the isolate's stack limit, and is slower.
 *
 * Cost: one message each way per evaluation (figures in docs/maestro.md). The thread starts with
 * the process's first script (a run without scripts starts none) and is reused by every scope.
 * A scope is placed on a thread that holds no other; when every thread holds one — flows run in
 * parallel, or a route handler that runs a skill while a script waits for that route's answer —
 * another is started (up to {@link MAX_THREADS}), so a scope does not wait behind another's script
 * that waits for it. A thread is referenced (keeps the process alive) only while it has work; one
 * beyond the first that holds no scope for {@link IDLE_MS} is stopped.
 *
 * A watchdog stops a thread whose evaluation has not answered {@link GRACE_MS} after its time
 * limit — something inside the engine that its interrupt handler did not reach — so no script
 * holds a host past its limit; that scope's isolate goes with the thread, and the scopes it held
 * start again on a new one with their variables and `maestro.copiedText` (not their `output`).
 */

/** At most this many script threads per process. */
export const MAX_THREADS = 4;
/** How long past its time limit an evaluation may go unanswered before its thread is stopped, ms. */
const GRACE_MS = 10_000;
/** How long a thread beyond the first is kept with no scope, ms. */
const IDLE_MS = 30_000;

/** What a scope's evaluation may reach of this thread: its log, and its http, made here. */
export interface ScriptHost {
  log(line: string): void;
  http(request: string, timeoutMs: number): Promise<string>;
}

/** An error as it crosses between threads. */
export interface WireError {
  code: ScriptErrorCode;
  message: string;
  where: string;
}

/** What this thread asks of a script thread. `vars`/`copied`: what the scope got since its last message. */
export type ToThread = { id: number; scope: number } & (
  | {
      op: 'eval';
      /** The scope's limits, on its first message to this thread (which makes it there). */
      limits?: IsolateLimits;
      vars: Array<[string, string]>;
      copied?: string;
      code: string;
      where: string;
      /** `expression`: `code` is one `${…}` (an expression, else statements), its value as text. */
      mode: 'run' | 'expression';
    }
  | { op: 'output' }
  | { op: 'dispose' }
);

/** What a script thread says: `ready` once, then for each message its logs and http requests, then `done`. */
export type FromThread =
  | { kind: 'ready'; error?: string }
  | { kind: 'log'; id: number; line: string }
  | { kind: 'http'; id: number; seq: number; request: string; timeoutMs: number }
  | { kind: 'done'; id: number; value?: string | null; copied?: string; error?: WireError };

/** The answer to one http request, on the answers port. */
export interface HttpAnswer {
  seq: number;
  answer?: string;
  error?: string;
}

/**
 * What the thread needs from its creator: two counters it sleeps on (`[JOBS]` bumped with each
 * message on `jobs`, `[ANSWERS]` with each on `answers`) and the two ports, both read synchronously.
 */
export interface ThreadData {
  signal: SharedArrayBuffer;
  jobs: MessagePort;
  answers: MessagePort;
}

/** The counters' places in {@link ThreadData.signal}. */
export const JOBS = 0;
export const ANSWERS = 1;

export type Reply = Extract<FromThread, { kind: 'done' }>;

interface Job {
  message: ToThread;
  host: ScriptHost | null;
  /** The watchdog's bound, ms, or 0 for none. */
  limitMs: number;
  /** The first error of the host's log while the job ran. */
  logFailed?: Error;
  resolve(reply: Reply): void;
  reject(error: ScriptError): void;
}

let nextId = 1;
const threads: ScriptThread[] = [];

/** A thread for a new scope: one that holds no scope, else a new one, else the one holding fewest. */
export function placeScope(): ScriptThread {
  const free = threads.find((t) => t.scopes === 0);
  const thread =
    free ??
    (threads.length < MAX_THREADS ? new ScriptThread() : threads.reduce((a, b) => (b.scopes < a.scopes ? b : a)));
  if (!threads.includes(thread)) threads.push(thread);
  thread.hold();
  return thread;
}

/** One script thread: its jobs run one at a time, in order. */
export class ScriptThread {
  /** Scopes placed here and not yet disposed. */
  scopes = 0;
  private idle: ReturnType<typeof setTimeout> | undefined;
  /** Why it stopped; it takes no more work. */
  dead: string | null = null;
  private readonly worker: Worker;
  private readonly counter: Int32Array;
  private readonly jobs: MessagePort;
  private readonly answers: MessagePort;
  private ready = false;
  private readonly queue: Job[] = [];
  private current: Job | null = null;
  private watchdog: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    const signal = new SharedArrayBuffer(8);
    this.counter = new Int32Array(signal);
    const jobs = new MessageChannel();
    const answers = new MessageChannel();
    this.jobs = jobs.port1;
    this.answers = answers.port1;
    this.worker = startWorker({ signal, jobs: jobs.port2, answers: answers.port2 });
    this.worker.unref();
    this.worker.on('message', (m: FromThread) => this.heard(m));
    this.worker.on('error', (e) => this.stop(`the script thread failed: ${e.message}`));
    this.worker.on('exit', (code) => this.stop(`the script thread exited (${code})`));
  }

  /** Jobs queued or running. */
  get load(): number {
    return this.queue.length + (this.current ? 1 : 0);
  }

  /** Run one message; `limitMs` (its time limit) arms the watchdog. */
  send(message: Omit<ToThread, 'id'>, host: ScriptHost | null, limitMs: number): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const job = { message: { ...message, id: nextId++ } as ToThread, host, limitMs, resolve, reject };
      if (this.dead) return reject(this.failure(job, 'SCRIPT_ENGINE', this.dead));
      this.queue.push(job);
      this.worker.ref();
      this.pump();
    });
  }

  /** A scope was placed here. */
  hold(): void {
    this.scopes++;
    clearTimeout(this.idle);
    this.idle = undefined;
  }

  /** A scope placed here was disposed; a thread with none left (not the first) is stopped after {@link IDLE_MS}. */
  release(): void {
    this.scopes--;
    this.pump();
  }

  private pump(): void {
    if (this.current || !this.ready || this.dead) return;
    const job = this.queue.shift();
    if (!job) {
      this.worker.unref();
      if (this.scopes <= 0 && threads[0] !== this)
        this.idle ??= setTimeout(() => this.scopes <= 0 && this.load === 0 && this.stop('idle'), IDLE_MS).unref();
      return;
    }
    this.current = job;
    if (job.limitMs > 0) {
      this.watchdog = setTimeout(() => {
        const where = job.message.op === 'eval' ? job.message.where : '(script)';
        this.stop(`${where}: the script ran longer than ${job.limitMs}ms and was stopped`);
      }, job.limitMs + GRACE_MS);
    }
    this.wake(this.jobs, JOBS, job.message);
  }

  /** Post `message` on `port` and wake the thread (asleep on that port's counter). */
  private wake(port: MessagePort, counter: number, message: unknown): void {
    port.postMessage(message);
    Atomics.add(this.counter, counter, 1);
    Atomics.notify(this.counter, counter);
  }

  private heard(m: FromThread): void {
    if (m.kind === 'ready') {
      if (m.error) return this.stop(`the script engine (QuickJS) could not be loaded: ${m.error}`);
      this.ready = true;
      return this.pump();
    }
    const job = this.current;
    if (!job || job.message.id !== m.id) return;
    if (m.kind === 'log') {
      try {
        job.host?.log(m.line);
      } catch (e) {
        // The script's log sink failed: the evaluation fails with it once it ends, as it would have in the script.
        job.logFailed ??= e as Error;
      }
    } else if (m.kind === 'http') void this.http(job, m);
    else {
      clearTimeout(this.watchdog);
      this.current = null;
      if (job.logFailed && !m.error) {
        const where = job.message.op === 'eval' ? job.message.where : '(output)';
        const why = `${where}: console.log failed: ${job.logFailed.message}`;
        job.resolve({ ...m, error: { code: 'SCRIPT_FAILED', message: why, where } });
      } else job.resolve(m);
      this.pump();
    }
  }

  /** Make a script's request here, and wake the script with the answer. */
  private async http(job: Job, m: Extract<FromThread, { kind: 'http' }>): Promise<void> {
    let answer: HttpAnswer;
    try {
      if (!job.host) throw new Error('http is not available here');
      answer = { seq: m.seq, answer: await job.host.http(m.request, m.timeoutMs) };
    } catch (e) {
      answer = { seq: m.seq, error: (e as Error).message };
    }
    if (!this.dead) this.wake(this.answers, ANSWERS, answer);
  }

  /** Stop the thread: the running job fails with `why` (a timeout when the watchdog says so), the queued ones with SCRIPT_ENGINE. */
  private stop(why: string): void {
    if (this.dead) return;
    this.dead = why;
    clearTimeout(this.watchdog);
    clearTimeout(this.idle);
    threads.splice(threads.indexOf(this), 1);
    const running = this.current;
    this.current = null;
    if (running)
      running.reject(this.failure(running, why.includes('ran longer') ? 'SCRIPT_TIMEOUT' : 'SCRIPT_ENGINE', why));
    for (const job of this.queue.splice(0)) job.reject(this.failure(job, 'SCRIPT_ENGINE', why));
    this.jobs.close();
    this.answers.close();
    void this.worker.terminate();
  }

  private failure(job: Job, code: ScriptErrorCode, why: string): ScriptError {
    const where = job.message.op === 'eval' ? job.message.where : '(script)';
    const message = why.startsWith(`${where}: `)
      ? why
      : `${where}: the script's thread was stopped (${why}); the next script of its flow starts a new one`;
    return new ScriptError(code, message, where);
  }
}

/**
 * The script thread. Compiled (the published package) it is `dist/device-runtime/protocol/skill/
 * script-worker.js`, an entry point of the bundle (ci/bundle.mjs); this module's code may sit in a
 * shared chunk, so the path is taken from the package root, as framework/core/package-root.ts does (the
 * protocol imports nothing outside itself). Run from the TypeScript sources (this repository:
 * Playwright's loader, tsx) the thread is TypeScript too, and a worker thread does not inherit its
 * parent's loader, so it registers tsx (a devDependency) before importing `script-worker.ts` (as
 * reporters/allure's render thread does).
 */
function startWorker(data: ThreadData): Worker {
  const options = { workerData: data, transferList: [data.jobs, data.answers] };
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) {
    const root = here.slice(0, here.lastIndexOf(`${sep}dist${sep}`));
    return new Worker(join(root, 'dist', 'device-runtime', 'protocol', 'skill', 'script-worker.js'), options);
  }
  const tsx = pathToFileURL(tsxEsmApi()).href;
  const script = new URL('./script-worker.ts', import.meta.url).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((m) => { (m.register ?? m.default.register)(); return import(${JSON.stringify(script)}); })`,
    { ...options, eval: true },
  );
}

/** tsx's ESM register API (the `import` entry of `tsx/esm/api`; require.resolve would give the CJS one). */
function tsxEsmApi(): string {
  const pkgJson = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return join(dirname(pkgJson), pkg.exports['./esm/api']!.import.default);
}

import { execFileSync } from 'node:child_process';
import vm from 'node:vm';

/**
 * The JavaScript of a flow or a skill (`evalScript`, `runScript`, `assertTrue`, `script` steps,
 * `${…}`), run the way
 * Maestro's engine runs it: one scope per flow run in which the environment variables are
 * globals, `output` and `maestro.copiedText` are shared by every script and sub-flow, `json()`
 * parses, `http.get/post/put/delete/request` are synchronous (as in Maestro's GraalJS) and
 * `console.log` reaches the run's output.
 *
 * The sandbox is node's own `vm` with a `timeout` on every evaluation: scripts are the team's own
 * test-data set-up code, as trusted as the flow that names them, so the isolation needed is from
 * the runner's globals and from runaway loops, which `vm` gives without a native addon. A script
 * sees no `require`, `process` or file system. `http` is synchronous through a short-lived child
 * process doing one `fetch` (bounded by the same time limit): Maestro scripts read the response
 * on the next line, with no `await`.
 */

export class ScriptError extends Error {}

export interface HttpResponse {
  ok: boolean;
  status: number;
  body: string;
  headers: Record<string, string>;
}

const FETCH_CHILD = `
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', async () => {
  const { url, method, headers, body } = JSON.parse(input);
  try {
    const r = await fetch(url, { method, headers, body: body ?? undefined });
    const h = {};
    r.headers.forEach((v, k) => (h[k] = v));
    process.stdout.write(JSON.stringify({ ok: r.ok, status: r.status, body: await r.text(), headers: h }));
  } catch (e) {
    process.stdout.write(JSON.stringify({ error: String(e && e.cause ? e.cause : e) + " (url " + JSON.stringify(url) + ")" }));
  }
});`;

function request(
  url: string,
  method: string,
  opts: Record<string, unknown> | undefined,
  timeout: number,
): HttpResponse {
  const body = opts?.body;
  const input = JSON.stringify({
    url: String(url),
    method,
    headers: (opts?.headers as Record<string, string> | undefined) ?? {},
    body: body === undefined || body === null ? null : typeof body === 'string' ? body : JSON.stringify(body),
  });
  let out: string;
  try {
    // The runner's own loaders (NODE_OPTIONS of a test worker) stay out of the child.
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    out = execFileSync(process.execPath, ['-e', FETCH_CHILD], { input, timeout, encoding: 'utf8', env });
  } catch (e) {
    throw new ScriptError(
      `http.${method.toLowerCase()}(${url}): no answer within ${timeout}ms (${(e as Error).message.split('\n')[0]})`,
    );
  }
  const r = JSON.parse(out) as HttpResponse & { error?: string };
  if (r.error) throw new ScriptError(`http.${method.toLowerCase()}(${url}): ${r.error}`);
  return r;
}

/** One flow run's JavaScript scope. */
export class FlowScript {
  readonly output: Record<string, unknown> = {};
  readonly maestro: { copiedText: string; platform: string };
  private readonly context: vm.Context;

  constructor(
    private readonly timeoutMs: number,
    log: (line: string) => void,
  ) {
    this.maestro = { copiedText: '', platform: 'android' };
    const http = {
      get: (url: string, o?: Record<string, unknown>) => request(url, 'GET', o, timeoutMs),
      post: (url: string, o?: Record<string, unknown>) => request(url, 'POST', o, timeoutMs),
      put: (url: string, o?: Record<string, unknown>) => request(url, 'PUT', o, timeoutMs),
      delete: (url: string, o?: Record<string, unknown>) => request(url, 'DELETE', o, timeoutMs),
      request: (url: string, o?: Record<string, unknown>) =>
        request(url, String(o?.method ?? 'GET').toUpperCase(), o, timeoutMs),
    };
    this.context = vm.createContext({
      output: this.output,
      maestro: this.maestro,
      http,
      json: (s: string) => JSON.parse(s),
      console: { log: (...a: unknown[]) => log(a.map(String).join(' ')) },
    });
  }

  /** Make the variables in scope globals of the script scope (Maestro's env is JavaScript's too). */
  setVariables(vars: Record<string, string>): void {
    for (const [k, v] of Object.entries(vars)) if (/^[A-Za-z_$][\w$]*$/.test(k)) this.context[k] = v;
  }

  /** Run a script (a file's text or an `evalScript`), within the time limit. */
  run(code: string, where: string): unknown {
    try {
      return vm.runInContext(code, this.context, { timeout: this.timeoutMs, filename: where });
    } catch (e) {
      if (e instanceof ScriptError) throw e;
      const err = e as Error;
      if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
        throw new ScriptError(`${where}: the script ran longer than ${this.timeoutMs}ms and was stopped`);
      throw new ScriptError(`${where}: ${err?.name ?? 'Error'}: ${err?.message ?? String(e)}`);
    }
  }

  /** One `${…}`: an expression (`{a: 1}.a` too), else statements (`a = 1; b = 2`). */
  expression(code: string, where: string): unknown {
    if (checkSyntax(`(${code}\n)`) === null) return this.run(`(${code}\n)`, where);
    return this.run(code, where);
  }

  /** A string with its `${expressions}` evaluated (`Hello ${name}`, `${output.user.id}`). */
  interpolate(text: string, where: string): string {
    if (!text.includes('${')) return text;
    let out = '';
    let i = 0;
    while (i < text.length) {
      const start = text.indexOf('${', i);
      if (start < 0) break;
      const end = closing(text, start + 2);
      if (end < 0) throw new ScriptError(`${where}: \`\${\` without its \`}\` in ${JSON.stringify(text)}`);
      out += text.slice(i, start);
      const value = this.expression(text.slice(start + 2, end), where);
      out +=
        value === undefined
          ? 'undefined'
          : value === null
            ? 'null'
            : typeof value === 'object'
              ? JSON.stringify(value)
              : String(value);
      i = end + 1;
    }
    return out + text.slice(i);
  }

  /** Every string inside a value interpolated. */
  deep<T>(value: T, where: string): T {
    if (typeof value === 'string') return this.interpolate(value, where) as T;
    if (Array.isArray(value)) return value.map((v) => this.deep(v, where)) as T;
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.deep(v, where)])) as T;
    return value;
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

/** Syntax-check JavaScript without running it (the planner checks every script before a run). */
export function checkSyntax(code: string): string | null {
  try {
    new vm.Script(code);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

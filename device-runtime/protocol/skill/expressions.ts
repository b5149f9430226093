import type { Check, ParamValue, SkillStep } from './schema.js';
import { closing, FlowScript, type ScriptRoute } from './script.js';

/**
 * A skill step's values at run time. `${NAME}` of a declared parameter is its value; any other
 * `${…}` is a JavaScript expression evaluated in the run's script scope (the sandbox Maestro flows
 * use: the parameters and `output` are globals, `maestro.copiedText` is what `copy_text` kept),
 * so `fill: { value: "${output.user.name}" }` types what a `script` step computed. A `script`
 * step's code is run as written, never interpolated. Both sides of the protocol (the framework's
 * replay and a device's `skill_run`) resolve steps with this function.
 */

/** How long one script or `${…}` may run, in milliseconds. */
export const SCRIPT_TIMEOUT_MS = 10_000;

/**
 * The JavaScript scope of one skill run (shared by the skills it runs, as Maestro shares `output`);
 * dispose it when the run ends. `network`: the instance's proxy a script's `http` goes through
 * (asked at each request); none: straight from this host.
 */
export function skillScope(
  log: (line: string) => void = () => {},
  network?: () => Promise<ScriptRoute | null>,
): FlowScript {
  return new FlowScript(SCRIPT_TIMEOUT_MS, log, {}, network);
}

const PLAIN = /^[A-Za-z_][\w-]*$/;

async function resolveString(
  text: string,
  params: Record<string, ParamValue>,
  scope: FlowScript,
  where: string,
): Promise<string> {
  if (!text.includes('${')) return text;
  let out = '';
  let i = 0;
  for (let start = text.indexOf('${'); start >= 0; start = text.indexOf('${', i)) {
    const end = closing(text, start + 2);
    if (end < 0) break;
    const inner = text.slice(start + 2, end).trim();
    out += text.slice(i, start);
    out +=
      PLAIN.test(inner) && inner in params
        ? String(params[inner])
        : await scope.interpolate(text.slice(start, end + 1), where);
    i = end + 1;
  }
  return out + text.slice(i);
}

/** Every string of a value resolved, in order (a `${…}` may change what the next one sees). */
async function deep<T>(value: T, params: Record<string, ParamValue>, scope: FlowScript, where: string): Promise<T> {
  if (typeof value === 'string') return (await resolveString(value, params, scope, where)) as T;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const v of value) out.push(await deep(v, params, scope, where));
    return out as T;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await deep(v, params, scope, where);
    return out as T;
  }
  return value;
}

/** A step with its parameters and expressions resolved; `where` names it in a script error. */
export async function resolveStep(
  step: SkillStep,
  params: Record<string, ParamValue>,
  scope: FlowScript,
  where: string,
): Promise<SkillStep> {
  scope.setVariables(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])));
  if (step.kind === 'run' && step.run.while) {
    // A loop's condition is evaluated before each run (resolveCheck), not once with the step.
    const { while: cond, ...run } = step.run;
    const resolved = await deep({ ...step, run }, params, scope, where);
    return { ...resolved, run: { ...resolved.run, while: cond } } as SkillStep;
  }
  if (step.kind !== 'script') return deep(step, params, scope, where);
  const { script, ...rest } = step;
  const resolved = await deep(rest, params, scope, where);
  return {
    ...resolved,
    kind: 'script',
    script: typeof script === 'string' ? script : { ...script, env: await deep(script.env, params, scope, where) },
  } as SkillStep;
}

/** A check with its parameters and expressions resolved now (a `run` step's `while`, before each run). */
export async function resolveCheck(
  check: Check,
  params: Record<string, ParamValue>,
  scope: FlowScript,
  where: string,
): Promise<Check> {
  return deep(check, params, scope, where);
}

/**
 * How many times a `run` step runs its skill: `times` (resolved), else once, or until its
 * `while` stops holding; null when `times` did not come to a whole number.
 */
export function runTimes(run: { times?: number | string; while?: unknown }): number | null {
  if (run.times === undefined) return run.while ? Infinity : 1;
  const n = Number(String(run.times).trim());
  return Number.isInteger(n) && n >= 0 ? n : null;
}

/** Run a `script` step: its env becomes globals of the scope, then the code runs. */
export async function runScriptStep(
  step: Extract<SkillStep, { kind: 'script' }>,
  scope: FlowScript,
  where: string,
): Promise<void> {
  const s = typeof step.script === 'string' ? { code: step.script } : step.script;
  if ('env' in s && s.env) scope.setVariables(s.env);
  await scope.run(s.code, where);
}

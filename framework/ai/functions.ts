import type { Observation } from '../../device-runtime/protocol/index.js';
import type { ActOutcome } from '../../device-runtime/protocol/agent/loop.js';
import type { ApiCall } from '../core/api-call.js';
import { NestwrightError } from '../core/errors.js';
import type { AppPort } from '../core/port.js';
import type { CacheStep } from './cache.js';
import { fillPlaceholders, observeInApp, type Params } from './perform.js';

type FunctionStep = Extract<CacheStep, { action: 'function' }>;

/** `{placeholder}`s in the string values of a function's parameters; null when one is a secret (parameters are recorded). */
export function fillFunctionParams(input: Record<string, unknown>, params: Params): Record<string, unknown> | null {
  let secret = false;
  const fill = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const r = fillPlaceholders(v, params);
      secret ||= r.secret;
      return r.text;
    }
    if (Array.isArray(v)) return v.map(fill);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]));
    return v;
  };
  const out = fill(input) as Record<string, unknown>;
  return secret ? null : out;
}

/**
 * An app function the model called in an act step (a `fn_<id>` tool): run as a step of the act
 * call (source `function`), then the screen after it. Parameters the runtime refuses
 * (INVALID_ARGUMENT, naming the parameter) go back to the model; other errors end the step.
 */
export async function callFunction(
  app: AppPort,
  call: ApiCall,
  id: string,
  input: Record<string, unknown>,
  params: Params,
): Promise<ActOutcome<CacheStep>> {
  const filled = fillFunctionParams(input, params);
  if (!filled)
    return {
      ok: false,
      refused: 'a secret parameter cannot be passed to an app function (its parameters are recorded); use the screens',
      node: null,
    };
  let result: unknown;
  try {
    result = await app.functions.run(call, id, filled);
  } catch (e) {
    if (e instanceof NestwrightError && e.code === 'INVALID_ARGUMENT')
      return { ok: false, refused: e.message.replace(/^[\w.]+: /, ''), node: null };
    throw e;
  }
  const after = await observeInApp(app, call, `function ${id}`);
  const step: FunctionStep = { action: 'function', name: id, params: input };
  const shown = JSON.stringify(result) ?? 'null';
  return {
    ok: true,
    step,
    node: null,
    selector: null,
    after,
    said: `${id} returned ${shown.length > 600 ? `${shown.slice(0, 599)}…` : shown}`,
  };
}

/** A cached function step replayed: the function again with the same parameters; gone from the app, it is a miss to heal. */
export async function replayFunction(
  app: AppPort,
  call: ApiCall,
  step: FunctionStep,
  params: Params,
  miss: (message: string) => Error,
): Promise<Observation> {
  const fns = await app.functions.available(call);
  if (!fns?.some((f) => f.name === step.name))
    throw miss(
      `the function ${step.name} is gone (${fns ? `${app.package} no longer declares it` : 'the runtime offers no AppFunctions'})`,
    );
  const filled = fillFunctionParams(step.params, params);
  if (!filled) throw miss(`the cached call of ${step.name} takes a secret parameter`);
  await app.functions.run(call, step.name, filled);
  return observeInApp(app, call, `function ${step.name}`);
}

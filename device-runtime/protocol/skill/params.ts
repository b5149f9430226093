import { PARAM_REF, type ParamValue, type Skill } from './schema.js';

/** Parameters that do not fit the skill: each problem named, checked before any step runs. */
export class SkillParamError extends Error {
  readonly code = 'SKILL_PARAMS';
  constructor(
    readonly skill: string,
    readonly problems: string[],
  ) {
    super(`skill ${skill}: ${problems.join('; ')}`);
    this.name = 'SkillParamError';
  }
}

/**
 * The values a run uses: the given ones checked against the declared types (strings from a
 * command line or `skill_run` are converted: "3" for a number, "true"/"false" for a boolean),
 * then defaults. A missing required parameter, an ill-typed one or an unknown name is an error.
 */
export function resolveParams(skill: Skill, given: Record<string, unknown>): Record<string, ParamValue> {
  const problems: string[] = [];
  const out: Record<string, ParamValue> = {};
  for (const name of Object.keys(given)) {
    if (!(name in skill.params)) problems.push(`unknown parameter "${name}" (${describe(skill)})`);
  }
  for (const [name, spec] of Object.entries(skill.params)) {
    const raw = given[name];
    if (raw === undefined || raw === null) {
      if (spec.default !== undefined) out[name] = spec.default;
      else
        problems.push(
          `missing parameter "${name}" (${spec.type}${spec.example !== undefined ? `, e.g. ${JSON.stringify(spec.example)}` : ''})`,
        );
      continue;
    }
    const value = coerce(raw, spec.type);
    if (value === undefined) problems.push(`parameter "${name}" must be a ${spec.type}, got ${JSON.stringify(raw)}`);
    else out[name] = value;
  }
  if (problems.length) throw new SkillParamError(skill.name, problems);
  return out;
}

function coerce(raw: unknown, type: 'string' | 'number' | 'boolean'): ParamValue | undefined {
  switch (type) {
    case 'string':
      return typeof raw === 'string' ? raw : undefined;
    case 'number':
      if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
      if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
      return undefined;
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (raw === 'true' || raw === 'false') return raw === 'true';
      return undefined;
    default: {
      const never: never = type;
      throw new Error(`unknown parameter type ${String(never)}`);
    }
  }
}

function describe(skill: Skill): string {
  const names = Object.keys(skill.params);
  return names.length ? `its parameters are ${names.join(', ')}` : 'it takes no parameters';
}

/** Replace `${name}` in every string of a value (a step, a check) with the parameter's value. */
export function substitute<T>(value: T, params: Record<string, ParamValue>): T {
  if (typeof value === 'string') return value.replace(PARAM_REF, (_, name: string) => String(params[name] ?? '')) as T;
  if (Array.isArray(value)) return value.map((v) => substitute(v, params)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, params)])) as T;
  return value;
}

/**
 * A function step's parameters: `${name}` substituted as in {@link substitute}, except that a
 * value that is exactly one reference keeps the parameter's type (`quantity: ${count}` is a number).
 */
export function substituteParams(
  value: Record<string, unknown>,
  params: Record<string, ParamValue>,
): Record<string, unknown> {
  const whole = /^\$\{([A-Za-z_][\w-]*)\}$/;
  const typed = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const m = whole.exec(v);
      return m && m[1]! in params ? params[m[1]!] : substitute(v, params);
    }
    if (Array.isArray(v)) return v.map(typed);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typed(x)]));
    return v;
  };
  return typed(value) as Record<string, unknown>;
}

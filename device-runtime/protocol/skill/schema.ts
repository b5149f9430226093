import { z } from 'zod';
import { PackageNameSchema } from '../common.js';
import { parseSelector, SelectorSyntaxError } from '../selector.js';
import { KeySchema } from '../tools/ui.js';
import type { Check, Skill, SkillAi, SkillParam, SkillStep, Target, UiSkillStep } from './types.js';

export type * from './types.js';

/**
 * The skill format (`skills/*.yaml`): the single definition. Its types are written out in
 * types.ts (small declarations for users' type checks) and checked here, at compile time, to be
 * exactly what it infers; the editors' JSON Schema is derived from it (`skillJsonSchema()`), and
 * both the framework (replay as a test) and a device runtime (`skill_run`) parse skills with it.
 *
 * A step names its action by its key (`tap: text=Save`), as Maestro flows do. The parser adds the
 * key as `kind` before the discriminated union sees the step, so dispatch is an exhaustive
 * `switch (step.kind)`, and a step with no action or two of them is one clear error.
 */

/** `${name}` references to parameters inside any string of a step. */
export const PARAM_REF = /\$\{([A-Za-z_][\w-]*)\}/g;

/** A `${…}` that is not a parameter: a JavaScript expression, evaluated when the step runs. */
export const EXPR_REF = /\$\{[^}]*\}/g;

/** A selector in the documented syntax (`text=Save`, `id=title`, `role=button[name="Save"]`). */
export const SelectorSchema = z
  .string()
  .min(1)
  .superRefine((value, ctx) => {
    try {
      // Parameters are substituted at run time; check the syntax around them now.
      parseSelector(value.replace(PARAM_REF, 'x').replace(EXPR_REF, 'x'));
    } catch (e) {
      if (!(e instanceof SelectorSyntaxError)) throw e;
      ctx.addIssue({ code: 'custom', message: e.message });
    }
  })
  .describe('A selector: text=…, desc=…, id=…, class=…, role=…[name="…"], nth=N, joined by >>');

/** One selector, or alternatives tried in order (the first that is on screen is used). */
export const TargetSchema = z.union([SelectorSchema, z.array(SelectorSchema).min(1)]);

/**
 * Add `kind` = the one action key present. A missing or doubled action is an issue on the
 * object itself, so it is reported at the step's line.
 */
function keyed(keys: readonly string[], what: string) {
  return (value: unknown, ctx: { addIssue(issue: { code: 'custom'; message: string; input?: unknown }): void }) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const present = keys.filter((k) => k in value);
    if (present.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          present.length === 0
            ? `a ${what} needs one of: ${keys.join(', ')}`
            : `a ${what} has one action, this one has ${present.join(' and ')}; split it into ${present.length} ${what}s`,
      });
      return value;
    }
    return { ...value, kind: present[0] };
  };
}

const CHECK_KEYS = ['visible', 'hidden', 'text', 'count', 'activity', 'true'] as const;

/** A check on the screen: what `pre`, `post`, `when`, `assert` and `wait_for` hold to. */
const CheckImpl = z.preprocess(
  keyed(CHECK_KEYS, 'check'),
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('visible'), visible: TargetSchema.describe('On screen (any alternative)') }),
    z.strictObject({ kind: z.literal('hidden'), hidden: TargetSchema.describe('Not on screen (no alternative)') }),
    z.strictObject({
      kind: z.literal('text'),
      text: z
        .strictObject({ target: SelectorSchema, value: z.string(), exact: z.boolean().default(true) })
        .describe('The one matching node has this text'),
    }),
    z.strictObject({
      kind: z.literal('count'),
      count: z.strictObject({ target: SelectorSchema, value: z.number().int().min(0) }),
    }),
    z.strictObject({
      kind: z.literal('activity'),
      activity: z.string().min(1).describe('The activity in front, e.g. .MainActivity'),
    }),
    // Runtime variables (issue 37): a condition computed by JavaScript.
    z.strictObject({
      kind: z.literal('true'),
      true: z
        .union([z.string(), z.boolean()])
        .describe('Holds when the value, after ${…} are evaluated, is not empty, false, 0, null or undefined'),
    }),
  ]),
);
export const CheckSchema: z.ZodType<Check> = CheckImpl;

/**
 * What happens when a step no longer resolves: `fallback` lets the AI agent do the step's
 * intent (its post-checks verify it) and propose a rewritten step; `off` fails as a replay does.
 */
export const SkillAiSchema = z
  .enum(['fallback', 'off'])
  .describe("When a step's target is gone: 'fallback' lets the AI agent do its intent, checked by its post-checks");

const common = {
  ai: SkillAiSchema.optional().describe("This step's AI fallback (overrides the skill's ai and use.skills.ai)"),
  intent: z
    .string()
    .min(1)
    .optional()
    .describe('What the step is for, in words: titles, reports, and the plan of a fallback'),
  pre: z.array(CheckImpl).optional().describe('Must hold before the step acts'),
  post: z.array(CheckImpl).optional().describe('Must hold after the step: the proof that it did what it says'),
  optional: z
    .boolean()
    .optional()
    .describe('A step that fails to find its target is skipped instead of failing the skill'),
  when: CheckImpl.optional().describe('Run the step only when this holds on the current screen'),
  retries: z
    .number()
    .int()
    .min(1)
    .max(3)
    .optional()
    .describe(
      'Run the step again, up to this many times, when it fails (a Maestro `retry`: a `run` step retries the whole skill)',
    ),
  timeout: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Milliseconds for the action and each check (default: the action timeout)'),
};

const STEP_KEYS = [
  'launch',
  'tap',
  'long_press',
  'fill',
  'clear',
  'press',
  'scroll_to',
  'swipe',
  'wait_for',
  'assert',
  'run',
  // What Maestro flows need (issue 37):
  'script',
  'copy_text',
  'hide_keyboard',
  'stop_app',
  'open_link',
  'screenshot',
  // Maestro's assertWithAI (issue 48).
  'ai_assert',
] as const;

const ParamValueSchema = z.union([z.string(), z.number(), z.boolean()]);

const UI_VARIANTS = [
  z.strictObject({
    kind: z.literal('launch'),
    launch: z.union([z.literal(true), z.strictObject({ activity: z.string().min(1).optional() })]),
    ...common,
  }),
  z.strictObject({ kind: z.literal('tap'), tap: TargetSchema, ...common }),
  z.strictObject({ kind: z.literal('long_press'), long_press: TargetSchema, ...common }),
  z.strictObject({
    kind: z.literal('fill'),
    fill: z.strictObject({ target: TargetSchema, value: z.string() }),
    ...common,
  }),
  z.strictObject({ kind: z.literal('clear'), clear: TargetSchema, ...common }),
  z.strictObject({ kind: z.literal('press'), press: KeySchema, ...common }),
  z.strictObject({ kind: z.literal('scroll_to'), scroll_to: TargetSchema, ...common }),
  z.strictObject({
    kind: z.literal('swipe'),
    swipe: z.strictObject({
      target: TargetSchema.optional().describe('The node to swipe on; without it, the screen from its centre'),
      direction: z.enum(['up', 'down', 'left', 'right']),
      distance: z.number().min(0.05).max(0.95).optional(),
    }),
    ...common,
  }),
  z.strictObject({
    kind: z.literal('wait_for'),
    wait_for: z.union([z.literal('idle').describe('The screen stops changing'), CheckImpl]),
    ...common,
  }),
  z.strictObject({ kind: z.literal('assert'), assert: CheckImpl, ...common }),
  z.strictObject({
    kind: z.literal('run'),
    run: z.strictObject({
      skill: z.string().min(1).describe('Path of the skill, relative to this file'),
      params: z.record(z.string(), ParamValueSchema).default({}),
      // A Maestro `repeat`: `times` and `while`, alone or both.
      times: z
        .union([z.number().int().min(0), z.string().regex(/\$\{[^}]*\}/, 'times is a number or a ${…} expression')])
        .optional()
        .describe('Run the skill this many times (a number, or a ${…} expression evaluated when the step runs)'),
      while: CheckImpl.optional().describe(
        'Run the skill again while this holds on the screen, checked before each run (its ${…} evaluated each time); without times, until it does not',
      ),
    }),
    ...common,
  }),
  // What Maestro flows need (issue 37): JavaScript in the run's sandbox, text kept for later steps, app and screen steps.
  z.strictObject({
    kind: z.literal('script'),
    script: z
      .union([
        z.string().min(1),
        z.strictObject({ code: z.string().min(1), env: z.record(z.string(), z.string()).optional() }),
      ])
      .describe("JavaScript run in the skill run's sandbox (`output`, parameters and env as globals, `http`, `json`)"),
    ...common,
  }),
  z.strictObject({
    kind: z.literal('copy_text'),
    copy_text: TargetSchema.describe("Keep this node's text as ${maestro.copiedText} for later steps"),
    ...common,
  }),
  z.strictObject({
    kind: z.literal('hide_keyboard'),
    hide_keyboard: z.literal(true).describe('Close the soft keyboard when it is up (a back press); nothing otherwise'),
    ...common,
  }),
  z.strictObject({
    kind: z.literal('stop_app'),
    stop_app: z.literal(true).describe('Stop the app (a later `launch` starts it again, its data kept)'),
    ...common,
  }),
  z.strictObject({
    kind: z.literal('open_link'),
    open_link: z.string().min(1).describe('Open a link (a deep link or a web address) with a VIEW intent'),
    ...common,
  }),
  z.strictObject({
    kind: z.literal('ai_assert'),
    ai_assert: z
      .string()
      .min(1)
      .describe(
        'A statement the model judges on the current screen (app.ai.assert, configured with use.ai); a runtime without a model fails it',
      ),
    ...common,
  }),
  z.strictObject({
    kind: z.literal('screenshot'),
    screenshot: z
      .string()
      .min(1)
      .describe('Take a screenshot named so: attached to the test, or its sha256 in the step evidence'),
    ...common,
  }),
] as const;

/** A step that acts through the UI (every step but `fn`): what a `fn` step's `ui` fallback holds. */
const UiStepImpl = z.preprocess(keyed(STEP_KEYS, 'step'), z.discriminatedUnion('kind', UI_VARIANTS));
export const UiStepSchema: z.ZodType<UiSkillStep> = UiStepImpl;

/**
 * A step done by one of the app's declared functions (AppFunctions, `appfn_execute`) when the
 * runtime and the app have it, else by its `ui` steps; its `post` checks hold either way.
 */
const FnStepSchema = z.strictObject({
  kind: z.literal('fn'),
  fn: z.strictObject({
    name: z.string().min(1).describe('The function id, as appfn_list names it (createNote)'),
    params: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("Its parameters; a value that is exactly ${name} keeps the skill parameter's type"),
  }),
  ui: z
    .array(UiStepImpl)
    .min(1)
    .optional()
    .describe('The same task through the UI, run when the runtime or the app has no such function'),
  ...common,
});

const StepImpl = z.preprocess(
  keyed([...STEP_KEYS, 'fn'], 'step'),
  z.discriminatedUnion('kind', [...UI_VARIANTS, FnStepSchema]),
);
export const StepSchema: z.ZodType<SkillStep> = StepImpl;

const ParamImpl = z.strictObject({
  type: z.enum(['string', 'number', 'boolean']).default('string'),
  description: z.string().optional(),
  example: ParamValueSchema.optional(),
  default: ParamValueSchema.optional().describe(
    'Used when the parameter is not given; without it the parameter is required',
  ),
});
export const ParamSchema: z.ZodType<SkillParam> = ParamImpl;

const SkillImpl = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'a skill name is lower case: letters, digits, . _ -'),
    description: z.string().optional(),
    app: PackageNameSchema.describe('Package of the app the skill drives'),
    apk: z.string().optional().describe('APK to install when the skill runs outside a test (relative to this file)'),
    ai: SkillAiSchema.optional().describe(
      "Every step's AI fallback (a step's own ai overrides it; default use.skills.ai, else off)",
    ),
    params: z
      .record(z.string().regex(/^[A-Za-z_][\w-]*$/, 'a parameter name is letters, digits, _ or -'), ParamImpl)
      .default({}),
    steps: z.array(StepImpl).min(1, 'a skill has at least one step'),
  })
  .superRefine((skill, ctx) => {
    // Every ${name} in the steps is a declared parameter: a typo is an error at its line, now.
    const walk = (value: unknown, path: (string | number)[]) => {
      if (typeof value === 'string') {
        for (const m of value.matchAll(PARAM_REF)) {
          if (!(m[1]! in skill.params)) {
            const known = Object.keys(skill.params);
            ctx.addIssue({
              code: 'custom',
              path,
              message: `\${${m[1]}} is not a parameter of this skill; ${known.length ? `its parameters are ${known.join(', ')}` : 'declare it under params:'}`,
            });
          }
        }
      } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
      else if (value && typeof value === 'object')
        for (const [k, v] of Object.entries(value))
          // A script's code is JavaScript (its `${…}` are template literals), not a parameter reference.
          if (k !== 'kind' && k !== 'code' && !(k === 'script' && typeof v === 'string')) walk(v, [...path, k]);
    };
    skill.steps.forEach((s, i) => walk(s, ['steps', i]));
  });
export const SkillSchema: z.ZodType<Skill> = SkillImpl;

/** Equal types (identical, not only assignable both ways). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compile time: each type of types.ts is exactly what its schema infers (a change to one fails here). */
const written: [
  Same<z.output<typeof TargetSchema>, Target>,
  Same<z.output<typeof CheckImpl>, Check>,
  Same<z.output<typeof UiStepImpl>, UiSkillStep>,
  Same<z.output<typeof StepImpl>, SkillStep>,
  Same<z.output<typeof ParamImpl>, SkillParam>,
  Same<z.output<typeof SkillImpl>, Skill>,
  Same<z.output<typeof SkillAiSchema>, SkillAi>,
] = [true, true, true, true, true, true, true];
void written;

/** JSON Schema (draft 2020-12) of a skill file, for editors (`# yaml-language-server: $schema=…`). */
export function skillJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(SkillImpl, { io: 'input', unrepresentable: 'any', reused: 'ref' }) as Record<
    string,
    unknown
  >;
  return { ...(withoutKind(schema) as Record<string, unknown>), title: 'nestwright skill' };
}

/** `kind` is added by the parser, not written in files: drop it from the editors' schema. */
function withoutKind(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutKind);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties' && v && typeof v === 'object' && 'kind' in v) {
      const { kind: _, ...rest } = v as Record<string, unknown>;
      out[k] = withoutKind(rest);
    } else if (k === 'required' && Array.isArray(v)) out[k] = v.filter((x) => x !== 'kind');
    else out[k] = withoutKind(v);
  }
  return out;
}

import path from 'node:path';
import { test } from '@playwright/test';
import type { Observation } from '../../device-runtime/protocol/index.js';
import {
  describeCheck,
  describeStep,
  stepSelector,
  resolveParams,
  SkillParamError,
  substitute,
  substituteParams,
  resolveCheck,
  resolveStep,
  runTimes,
  skillScope,
  ScriptError,
  type FlowScript,
  type ParamValue,
  type Skill,
  type SkillStep,
  type StepKind,
  type UiSkillStep,
} from '../../device-runtime/protocol/skill/index.js';
import { NestwrightError, TimeoutError, type ApiName } from '../core/errors.js';
import type { ApiCall } from '../core/api-call.js';
import type { AppPort } from '../core/port.js';
import { inTest } from '../core/in-test.js';
import type { TrajectoryStep } from '../core/trajectory.js';
import { evaluate } from './checks.js';
import { aiFallback, fallbackOf, isMiss, proposeRewrite } from './fallback.js';
import { hold, Skipped } from './hold.js';
import { actStep, type StepPlace, type Via } from './step-actions.js';
import { loadSkill } from './load.js';

/** A skill with its parameters resolved and every skill it runs loaded and checked too. */
export interface PlannedSkill {
  skill: Skill;
  path: string;
  params: Record<string, ParamValue>;
  /** The skills its `run` steps name, by step index. */
  nested: Map<number, PlannedSkill>;
}

export interface SkillStepResult {
  /** 1-based, as in messages. */
  index: number;
  title: string;
  kind: StepKind;
  intent: string | null;
  status: 'passed' | 'skipped' | 'failed';
  durationMs: number;
  error: string | null;
  /** A `fn:` step: whether the app's function did it or its `ui` steps did; `ai`: the AI fallback did it. */
  via?: 'function' | 'ui' | 'ai';
  /** The id of the rewrite proposed by a passing AI fallback (`nestwright skill proposals`). */
  proposal?: string;
}

/** What `app.runSkill()` returns: the skill, and each step's result. */
export interface SkillRunResult {
  /** The skill's `name`. */
  skill: string;
  /** The YAML file it was read from. */
  file: string;
  /** Every step passed. */
  ok: boolean;
  /** One result per step that ran, in order. */
  steps: SkillStepResult[];
  /** The failure, when a step failed: its message says the step, what was expected and the screen. */
  error: SkillFailedError | null;
}

/** A step of a skill failed: which one, why, and what was on screen. */
export class SkillFailedError extends NestwrightError {
  constructor(
    call: ApiName,
    message: string,
    readonly skill: string,
    readonly step: number,
    readonly stepTitle: string,
    readonly observation: Observation | null,
    options?: { cause?: unknown },
  ) {
    super(call, message, { ...options, code: 'SKILL_FAILED' });
  }
}

/**
 * Load a skill and everything it runs, and check every parameter, before any step touches the
 * device: a missing or ill-typed parameter, a bad file or a cycle of `run`s is an error now.
 */
export function planSkill(
  call: ApiName,
  file: string,
  given: Record<string, unknown>,
  from?: string,
  stack: string[] = [],
): PlannedSkill {
  const { skill, path: at } = loadSkill(call, file, from);
  if (stack.includes(at))
    throw new NestwrightError(call, `skill ${skill.name} runs itself (${[...stack, at].map(shown).join(' → ')})`, {
      code: 'SKILL_INVALID',
    });
  let params: Record<string, ParamValue>;
  try {
    params = resolveParams(skill, given);
  } catch (e) {
    if (e instanceof SkillParamError)
      throw new NestwrightError(call, `${e.message} — nothing was run`, { cause: e, code: 'USAGE' });
    throw e;
  }
  const nested = new Map<number, PlannedSkill>();
  skill.steps.forEach((step, i) => {
    if (step.kind === 'run')
      nested.set(i, planSkill(call, step.run.skill, substitute(step.run.params, params), at, [...stack, at]));
  });
  return { skill, path: at, params, nested };
}

const trajectoryKind = (kind: StepKind): TrajectoryStep['kind'] =>
  kind === 'assert' || kind === 'wait_for'
    ? 'assertion'
    : kind === 'launch' || kind === 'run' || kind === 'fn'
      ? 'app'
      : 'action';

/** One of a `fn:` step's `ui` steps, as a step of its own (its own checks, title and record). */
async function uiStep(
  app: AppPort,
  planned: PlannedSkill,
  index: number,
  ui: UiSkillStep,
  call: ApiCall,
  scope: FlowScript,
): Promise<void> {
  await app.wrap(`skill.${ui.kind}`, {}, (c) =>
    app.step(
      c,
      { kind: trajectoryKind(ui.kind), title: ui.intent ?? describeStep(ui), selector: stepSelector(ui) },
      () => runStepOnce(app, planned, index, ui, call, scope),
    ),
  );
}

/**
 * Replay a planned skill on an app instance. Every step is a `test.step` and a trajectory record
 * with source `skill`; actions go through the same locators a spec uses (auto-wait, strictness,
 * verification), so a skill step costs what the same locator step costs. Stops at the first
 * failed step and returns the failure rather than throwing it.
 */
export async function replaySkill(
  app: AppPort,
  planned: PlannedSkill,
  call: ApiCall,
  given?: FlowScript,
): Promise<SkillRunResult> {
  const { skill } = planned;
  if (skill.app !== app.package) {
    throw new NestwrightError(
      call,
      `skill ${skill.name} drives ${skill.app}, but this app is ${app.package}; run it on an instance of ${skill.app}`,
      { code: 'USAGE' },
    );
  }
  // The top skill's scope is shared by the skills it runs, and freed when it ends.
  // A script's http goes through the instance's network proxy when one runs (routes and HAR see it).
  const scope =
    given ??
    skillScope(
      (line) => console.log(line),
      () => app.scriptNetwork(),
    );
  const results: SkillStepResult[] = [];
  const previous = app.trajectory.source;
  app.trajectory.source = 'skill';
  let error: SkillFailedError | null = null;
  const all = async () => {
    for (const [i, raw] of skill.steps.entries()) {
      // A `${…}` that throws fails the step, as its action would.
      let step = raw;
      let unresolved: ScriptError | null = null;
      try {
        step = await resolveStep(raw, planned.params, scope, `${shown(planned.path)} step ${i + 1}`);
        // A value that is exactly ${name} keeps the parameter's type in a function's parameters.
        if (step.kind === 'fn' && raw.kind === 'fn')
          step = { ...step, fn: { ...step.fn, params: substituteParams(raw.fn.params, planned.params) } };
      } catch (e) {
        if (!(e instanceof ScriptError)) throw e;
        unresolved = e;
      }
      const what = describeStep(step);
      const title = `${skill.name} ${i + 1}/${skill.steps.length}: ${step.intent ? `${step.intent} (${what})` : what}`;
      const started = Date.now();
      const result: SkillStepResult = {
        index: i + 1,
        title,
        kind: step.kind,
        intent: step.intent ?? null,
        status: 'passed',
        durationMs: 0,
        error: null,
      };
      results.push(result);
      try {
        await app.wrap(`skill.${step.kind}`, {}, (stepCall) =>
          app.step(
            stepCall,
            { kind: trajectoryKind(step.kind), title, selector: stepSelector(step) },
            async (record) => {
              const first = app.trajectory.steps.length;
              if (unresolved)
                throw new NestwrightError(call, unresolved.message, { cause: unresolved, code: 'SKILL_FAILED' });
              try {
                const via = await runStep(app, planned, i, step, call, scope, raw);
                if (via === 'ai' || typeof via === 'object') result.via = 'ai';
                else if (via) result.via = via;
                if (typeof via === 'object') result.proposal = via.proposal;
              } catch (e) {
                if (!(e instanceof Skipped)) throw e;
                result.status = 'skipped';
                result.error = e.message;
              }
              const inner = app.trajectory.steps.slice(first);
              record.node = inner.find((r) => r.node)?.node ?? null;
              record.before = inner[0]?.before ?? null;
              record.after = inner[inner.length - 1]?.after ?? null;
            },
          ),
        );
      } catch (e) {
        result.status = 'failed';
        const obs = (e as { observation?: Observation | null }).observation ?? null;
        const message = `skill ${skill.name} (${shown(planned.path)}) failed at step ${i + 1} "${step.intent ?? what}":\n${(e as Error).message ?? String(e)}`;
        result.error = message;
        error =
          e instanceof SkillFailedError
            ? e
            : new SkillFailedError(call, message, skill.name, i + 1, title, obs, { cause: e });
        if (isFatal(e)) throw e;
        return;
      } finally {
        result.durationMs = Date.now() - started;
      }
    }
  };
  try {
    await (inTest()
      ? test.step(`Run skill ${skill.name}`, all, { box: true }).catch((e) => {
          if (!error) throw e;
        })
      : all());
  } finally {
    app.trajectory.source = previous;
    if (!given) scope.dispose();
  }
  return { skill: skill.name, file: planned.path, ok: !error, steps: results, error };
}

/** A path as messages show it: relative to the working directory when it is under it. */
export function shown(p: string): string {
  const rel = path.relative(process.cwd(), p);
  return rel && !rel.startsWith('..') ? rel : p;
}

/** A crash or a lost device ends the test as is; it is not a failed step to report. */
function isFatal(e: unknown): boolean {
  const name = (e as Error)?.name;
  return name === 'AppCrashedError' || name === 'DeviceDisconnectedError';
}

/** A step, run again up to `retries` times when it fails (not when it was skipped or the app crashed). */
async function runStep(
  app: AppPort,
  planned: PlannedSkill,
  index: number,
  step: SkillStep,
  call: ApiCall,
  scope: FlowScript,
  raw?: SkillStep,
): Promise<Via> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await runStepOnce(app, planned, index, step, call, scope, raw);
    } catch (e) {
      if (e instanceof Skipped || isFatal(e) || attempt >= (step.retries ?? 0)) throw e;
    }
  }
}

async function runStepOnce(
  app: AppPort,
  planned: PlannedSkill,
  index: number,
  step: SkillStep,
  call: ApiCall,
  scope: FlowScript,
  raw?: SkillStep,
): Promise<Via> {
  const actionTimeout = step.timeout ?? app.options.actionTimeout;
  const checkTimeout = step.timeout ?? app.options.expectTimeout;
  if (step.when) {
    const obs = await app.observe(call);
    const r = evaluate(step.when, obs, call);
    if (!r.pass) throw new Skipped(`skipped: when ${describeCheck(step.when)} did not hold (${r.received})`);
  }
  for (const check of step.pre ?? []) await hold(app, 'pre', check, checkTimeout, call, step.optional === true);
  let via: Via;
  let fellBack: { calls: Awaited<ReturnType<typeof aiFallback>>; why: string } | null = null;
  try {
    via =
      (await actStep(app, step, actionTimeout, checkTimeout, call, scope, place(app, planned, index, call, scope))) ||
      undefined;
  } catch (e) {
    if (step.optional && e instanceof TimeoutError)
      throw new Skipped(`skipped: optional step's target was not there (${e.message.split('\n')[0]})`);
    // The step no longer resolves: with `ai: fallback` the agent does its intent, the post-checks judge.
    if (!raw || !isMiss(step, e) || fallbackOf(planned.skill, step) !== 'fallback') throw e;
    fellBack = {
      calls: await aiFallback(app, planned.skill, step, planned.params, e),
      why: String((e as Error).message).split('\n')[0]!,
    };
    via = 'ai';
  }
  for (const check of step.post ?? []) await hold(app, 'post', check, checkTimeout, call, false);
  if (fellBack && raw) {
    const p = proposeRewrite(planned.skill, planned.path, index, raw, fellBack.calls, planned.params, fellBack.why);
    if (p) return { proposal: p.id };
  }
  return via;
}

/** The step's place in its skill, for the steps that run more steps (`run:`, a `fn:` step's `ui`). */
function place(app: AppPort, planned: PlannedSkill, index: number, call: ApiCall, scope: FlowScript): StepPlace {
  return {
    where: `${shown(planned.path)} step ${index + 1}`,
    runNested: async (run) => {
      const nested = planned.nested.get(index);
      // Every run: step was planned before the first step ran (planSkill): a miss is nestwright's bug.
      if (!nested)
        throw new NestwrightError(call, `step ${index + 1} runs ${run.skill}, which was not planned`, {
          code: 'NESTWRIGHT_BUG',
        });
      const times = runTimes(run);
      if (times === null)
        throw new NestwrightError(call, `step ${index + 1}: times ${JSON.stringify(run.times)} is not a whole number`, {
          code: 'SKILL_INVALID',
        });
      const where = `${shown(planned.path)} step ${index + 1}`;
      for (let n = 0; n < times; n++) {
        // Maestro's repeat: the condition is checked on the screen before each run.
        if (run.while) {
          const check = await resolveCheck(run.while, planned.params, scope, where);
          if (!evaluate(check, await app.observe(call), call).pass) break;
        }
        const r = await replaySkill(app, nested, call, scope);
        if (r.error) throw r.error;
      }
    },
    uiStep: (ui) => uiStep(app, planned, index, ui, call, scope),
  };
}

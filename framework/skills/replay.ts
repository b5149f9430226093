import path from 'node:path';
import { test } from '@playwright/test';
import type { Observation } from '../../device-runtime/protocol/index.js';
import { ownText } from '../../device-runtime/protocol/selector.js';
import {
  describeCheck,
  describeStep,
  stepSelector,
  resolveParams,
  SkillParamError,
  substitute,
  substituteParams,
  resolveStep,
  runScriptStep,
  skillScope,
  ScriptError,
  type FlowScript,
  type Check,
  type ParamValue,
  type Skill,
  type SkillStep,
  type StepKind,
  type Target,
  type UiSkillStep,
} from '../../device-runtime/protocol/skill/index.js';
import { describeScreen, NestwrightError, TimeoutError, type ApiName } from '../errors.js';
import { poll } from '../poll.js';
import type { ApiCall } from '../core/api-call.js';
import type { AppPort, PortLocator } from '../port.js';
import { inTest } from '../step-recorder.js';
import { resolveSteps } from '../selector.js';
import type { TrajectoryStep } from '../trajectory.js';
import { evaluate, waitCheck } from './checks.js';
import { aiFallback, fallbackOf, isMiss, proposeRewrite } from './fallback.js';
import { runFnStep } from './fn-step.js';
import { idle, pick } from './targets.js';
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
    throw new NestwrightError(call, `skill ${skill.name} runs itself (${[...stack, at].map(shown).join(' → ')})`);
  let params: Record<string, ParamValue>;
  try {
    params = resolveParams(skill, given);
  } catch (e) {
    if (e instanceof SkillParamError) throw new NestwrightError(call, `${e.message} — nothing was run`, { cause: e });
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

/** How a `fn:` step was done; undefined for every other step. */
type Via = 'function' | 'ui' | 'ai' | { proposal: string } | undefined;

/** A skill step with its parameters in: `${name}` replaced, a function's parameters keeping their types. */
function withParams(raw: SkillStep, params: Record<string, ParamValue>): SkillStep {
  const step = substitute(raw, params);
  return step.kind === 'fn' && raw.kind === 'fn'
    ? { ...step, fn: { ...step.fn, params: substituteParams(raw.fn.params, params) } }
    : step;
}

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

/** A step did not apply (its `when` did not hold, or an optional target was not there). */
class Skipped extends Error {}

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
  scope: FlowScript = skillScope((line) => console.log(line)),
): Promise<SkillRunResult> {
  const { skill } = planned;
  if (skill.app !== app.package) {
    throw new NestwrightError(
      call,
      `skill ${skill.name} drives ${skill.app}, but this app is ${app.package}; run it on an instance of ${skill.app}`,
    );
  }
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
        step = resolveStep(raw, planned.params, scope, `${shown(planned.path)} step ${i + 1}`);
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
              if (unresolved) throw new NestwrightError(call, unresolved.message, { cause: unresolved });
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
    via = (await act(app, planned, index, step, actionTimeout, checkTimeout, call, scope)) || undefined;
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

/** Wait for a check, as a step of its own; a check that does not hold fails with the screen. */
async function hold(
  app: AppPort,
  phase: 'pre' | 'post' | 'assert',
  check: Check,
  timeout: number,
  call: ApiCall,
  optional: boolean,
): Promise<void> {
  const label = phase === 'assert' ? 'Expect' : phase === 'pre' ? 'Precondition' : 'Post-check';
  await app.wrap(`skill.${phase}`, {}, (checkCall) =>
    app.step(
      checkCall,
      { kind: 'assertion', title: `${label}: ${describeCheck(check)}`, selector: null },
      async (record) => {
        const r = await waitCheck(app, check, timeout, call);
        record.before = record.after = r.obs?.snapshot_id ?? null;
        if (r.pass) return;
        if (optional) throw new Skipped(`skipped: precondition ${describeCheck(check)} did not hold (${r.received})`);
        const what =
          phase === 'pre' ? 'precondition not met' : phase === 'post' ? 'post-check failed' : 'assertion failed';
        throw new TimeoutError(
          call,
          `${what}: ${describeCheck(check)} did not hold within ${timeout}ms\n  Expected: ${describeCheck(check)}\n  Received: ${r.received}\nScreen:\n${describeScreen(r.obs)}`,
          [],
          r.obs,
        );
      },
    ),
  );
}

async function act(
  app: AppPort,
  planned: PlannedSkill,
  index: number,
  step: SkillStep,
  timeout: number,
  checkTimeout: number,
  call: ApiCall,
  scope: FlowScript,
): Promise<Via | void> {
  switch (step.kind) {
    case 'launch':
      return app.launch(step.launch === true ? {} : step.launch);
    case 'tap':
      return (await pick(app, step.tap, timeout, call)).tap({ timeout });
    case 'long_press':
      return (await pick(app, step.long_press, timeout, call)).longPress({ timeout });
    case 'fill':
      return (await pick(app, step.fill.target, timeout, call)).fill(step.fill.value, { timeout });
    case 'clear':
      return (await pick(app, step.clear, timeout, call)).clear({ timeout });
    case 'press':
      return app.press(step.press);
    case 'scroll_to':
      return (await pick(app, step.scroll_to, timeout, call)).scrollIntoView({ timeout });
    case 'swipe':
      return (await pick(app, step.swipe.target, timeout, call)).swipe(step.swipe.direction, {
        timeout,
        ...(step.swipe.distance !== undefined ? { distance: step.swipe.distance } : {}),
      });
    case 'wait_for':
      return step.wait_for === 'idle'
        ? idle(app, timeout, call)
        : hold(app, 'assert', step.wait_for, checkTimeout, call, false);
    case 'assert':
      return hold(app, 'assert', step.assert, checkTimeout, call, false);
    case 'run': {
      const nested = planned.nested.get(index);
      if (!nested) throw new NestwrightError(call, `step ${index + 1} runs ${step.run.skill}, which was not planned`);
      const r = await replaySkill(app, nested, call, scope);
      if (r.error) throw r.error;
      return;
    }
    case 'fn':
      return runFnStep(app, step, call, (ui) => uiStep(app, planned, index, ui, call, scope));
    case 'script':
      try {
        return runScriptStep(step, scope, `${shown(planned.path)} step ${index + 1}`);
      } catch (e) {
        if (e instanceof ScriptError) throw new NestwrightError(call, e.message, { cause: e });
        throw e;
      }
    case 'hide_keyboard':
      // Only when it is up: a back with no keyboard would leave the screen.
      if ((await app.observe(call)).keyboard) await app.press('back');
      return;
    case 'stop_app':
      return app.stop();
    case 'screenshot': {
      const png = await app.screenshot(call);
      if (!png) throw new NestwrightError(call, `screenshot ${step.screenshot}: this runtime takes no screenshots`);
      const name = step.screenshot.replace(/\.png$/i, '');
      if (inTest()) await test.info().attach(`${name}.png`, { body: png, contentType: 'image/png' });
      return;
    }
    case 'open_link':
      return app.intent({ action: 'android.intent.action.VIEW', data: step.open_link });
    case 'copy_text': {
      const { node } = await (await pick(app, step.copy_text, timeout, call)).waitForActionable(call, { timeout });
      scope.maestro.copiedText = ownText(node);
      return;
    }
    default: {
      const never: never = step;
      throw new NestwrightError(call, `unknown step ${JSON.stringify(never)}`);
    }
  }
}

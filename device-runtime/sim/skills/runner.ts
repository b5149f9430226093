import {
  toolError,
  type Observation,
  type ToolInput,
  type ToolName,
  type ToolResult,
  type UiNode,
} from '../../protocol/index.js';
import { ownText, parseSelector, resolveSteps } from '../../protocol/selector.js';
import { swipeEnds } from '../../protocol/swipe.js';
import {
  describeCheck,
  describeStep,
  stepSelector,
  evaluateCheck,
  resolveParams,
  SkillParamError,
  substitute,
  substituteParams,
  resolveCheck,
  resolveStep,
  runScriptStep,
  runTimes,
  skillScope,
  ScriptError,
  type Check,
  type ParamValue,
  type SkillStep,
  type Target,
} from '../../protocol/skill/index.js';
import type { SkillStepEvidenceSchema } from '../../protocol/tools/agent.js';
import { SimError } from '../core/sim-error.js';
import type { CallContext, ToolCaller } from '../core/call-context.js';
import type { LibrarySkill, SkillLibrary } from './library.js';
import type { z } from 'zod';

type Evidence = z.infer<typeof SkillStepEvidenceSchema>;

/** A step that did not apply (its `when` did not hold, an optional target was not there). */
class Skipped extends Error {}
/** A step that failed: the message says what was expected and what the screen showed. */
class StepFailed extends Error {}

const DEFAULT_TIMEOUT = 5_000;
const MAX_NESTING = 8;

/**
 * `skill_run` on the device: the skill's steps replayed through the runtime's own tools, as the
 * device's local agent would call them (so they are leased, audited and validated like any call).
 * Waiting is done here, next to the screen: each target is resolved against fresh observations
 * (scrolling a list to bring it into view), each check retried until its timeout.
 */
export class DeviceSkillRunner {
  readonly evidence: Evidence[] = [];
  /**
   * The run's JavaScript scope: `script` steps, `${…}` expressions and `copy_text`, shared by nested
   * skills; its owner disposes it. A script's `http` goes straight from this host: the device knows
   * no test's proxy (the framework's own replay sends it through the instance's network).
   */
  readonly scope = skillScope();

  constructor(
    private readonly rt: ToolCaller,
    private readonly ctx: CallContext,
    private readonly spaceId: string,
    private readonly library: SkillLibrary,
  ) {}

  /** Check the parameters (of this skill and every skill it runs) before any step acts. */
  plan(entry: LibrarySkill, given: Record<string, unknown>, depth = 0): Record<string, ParamValue> {
    if (depth > MAX_NESTING)
      throw new SimError(
        toolError(
          'INVALID_ARGUMENT',
          `skill ${entry.skill.name}: skills run each other more than ${MAX_NESTING} deep (a cycle?)`,
        ),
      );
    let params: Record<string, ParamValue>;
    try {
      params = resolveParams(entry.skill, given);
    } catch (e) {
      if (e instanceof SkillParamError)
        throw new SimError(
          toolError('INVALID_ARGUMENT', `${e.message}; nothing was run`, {
            hint: 'skill_list lists each skill with its parameters.',
          }),
        );
      throw e;
    }
    for (const step of entry.skill.steps) {
      if (step.kind !== 'run') continue;
      const nested = this.library.byPath(entry.path, step.run.skill);
      if (!nested)
        throw new SimError(
          toolError(
            'SKILL_NOT_FOUND',
            `skill ${entry.skill.name} runs ${step.run.skill}, which this runtime does not serve`,
          ),
        );
      this.plan(nested, substitute(step.run.params, params), depth + 1);
    }
    return params;
  }

  /** The parameters of the skill whose steps are running (a `run` step's `while` is resolved with them). */
  private params: Record<string, ParamValue> = {};

  /** Replay; the first failed step ends the run. Returns the 1-based failed step, or null. */
  async run(
    entry: LibrarySkill,
    params: Record<string, ParamValue>,
    prefix = '',
  ): Promise<{ failed: number | null; message: string | null }> {
    const outer = this.params;
    this.params = params;
    try {
      return await this.runSteps(entry, params, prefix);
    } finally {
      this.params = outer;
    }
  }

  private async runSteps(
    entry: LibrarySkill,
    params: Record<string, ParamValue>,
    prefix: string,
  ): Promise<{ failed: number | null; message: string | null }> {
    const { skill } = entry;
    const first = await this.observe();
    if (first.package !== skill.app) await this.call('space_launch', { space_id: this.spaceId, package: skill.app });
    for (const [i, raw] of skill.steps.entries()) {
      let step: SkillStep;
      try {
        step = await resolveStep(raw, params, this.scope, `${entry.path} step ${i + 1}`);
      } catch (e) {
        if (!(e instanceof ScriptError)) throw e;
        const message = `skill ${skill.name} failed at step ${i + 1} "${raw.intent ?? describeStep(raw)}": ${e.message}`;
        this.evidence.push({
          index: this.evidence.length + 1,
          title: `${prefix}${skill.name} ${i + 1}/${skill.steps.length}: ${describeStep(raw)}`,
          intent: raw.intent ?? null,
          status: 'failed',
          selector: stepSelector(raw),
          node: null,
          before: null,
          after: null,
          duration_ms: 0,
          message,
        });
        return { failed: this.evidence.length, message };
      }
      if (step.kind === 'fn' && raw.kind === 'fn') step.fn.params = substituteParams(raw.fn.params, params);
      const title = `${prefix}${skill.name} ${i + 1}/${skill.steps.length}: ${step.intent ? `${step.intent} (${describeStep(step)})` : describeStep(step)}`;
      const ev: Evidence = {
        index: this.evidence.length + 1,
        title,
        intent: step.intent ?? null,
        status: 'passed',
        selector: stepSelector(step),
        node: null,
        before: null,
        after: null,
        duration_ms: 0,
        message: null,
      };
      this.evidence.push(ev);
      const started = Date.now();
      try {
        await this.step(entry, step, ev, prefix);
      } catch (e) {
        if (e instanceof Skipped) {
          ev.status = 'skipped';
          ev.message = e.message;
        } else if (e instanceof StepFailed) {
          ev.status = 'failed';
          ev.message = `skill ${skill.name} failed at step ${i + 1} "${step.intent ?? describeStep(step)}": ${e.message}`;
          return { failed: ev.index, message: ev.message };
        } else throw e;
      } finally {
        ev.duration_ms = Date.now() - started;
        ev.after ??= (await this.observe().catch(() => null))?.snapshot_id ?? null;
      }
    }
    return { failed: null, message: null };
  }

  /** A step, run again up to `retries` times when it fails. */
  private async step(entry: LibrarySkill, step: SkillStep, ev: Evidence, prefix: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.stepOnce(entry, step, ev, prefix);
      } catch (e) {
        if (!(e instanceof StepFailed) || attempt >= (step.retries ?? 0)) throw e;
      }
    }
  }

  private async stepOnce(entry: LibrarySkill, step: SkillStep, ev: Evidence, prefix: string): Promise<void> {
    const timeout = step.timeout ?? DEFAULT_TIMEOUT;
    if (step.when) {
      const r = evaluateCheck(step.when, await this.observe());
      if (!r.pass) throw new Skipped(`when ${describeCheck(step.when)} did not hold (${r.received})`);
    }
    for (const check of step.pre ?? []) await this.hold('precondition not met', check, timeout, step.optional === true);
    const before = await this.observe();
    ev.before = before.snapshot_id;
    try {
      await this.act(entry, step, ev, timeout, prefix);
    } catch (e) {
      if (step.optional && e instanceof StepFailed) throw new Skipped(`optional step: ${e.message.split('\n')[0]}`);
      throw e;
    }
    for (const check of step.post ?? []) await this.hold('post-check failed', check, timeout, false);
  }

  private async act(
    entry: LibrarySkill,
    step: SkillStep,
    ev: Evidence,
    timeout: number,
    prefix: string,
  ): Promise<void> {
    const id = this.spaceId;
    const on = async (target: Target, then: (node: UiNode, obs: Observation) => Promise<unknown>) => {
      const { node, obs } = await this.resolve(target, timeout);
      ev.node = node;
      ev.before = obs.snapshot_id;
      await then(node, obs);
    };
    switch (step.kind) {
      case 'launch':
        await this.call('space_launch', {
          space_id: id,
          package: entry.skill.app,
          ...(step.launch !== true && step.launch.activity ? { activity: step.launch.activity } : {}),
        });
        return;
      case 'tap':
        return on(step.tap, (n, o) => this.call('ui_tap', { space_id: id, node_id: n.id, snapshot_id: o.snapshot_id }));
      case 'long_press':
        return on(step.long_press, (n, o) =>
          this.call('ui_long_press', { space_id: id, node_id: n.id, snapshot_id: o.snapshot_id, duration_ms: 800 }),
        );
      case 'fill':
        return on(step.fill.target, (n, o) =>
          this.call('ui_set_text', { space_id: id, node_id: n.id, snapshot_id: o.snapshot_id, text: step.fill.value }),
        );
      case 'clear':
        return on(step.clear, (n, o) =>
          this.call('ui_set_text', { space_id: id, node_id: n.id, snapshot_id: o.snapshot_id, text: '' }),
        );
      case 'scroll_to':
        return on(step.scroll_to, async () => {});
      case 'swipe': {
        const swipeOn = (bounds: readonly [number, number, number, number]) => {
          const [from, to] = swipeEnds(bounds, step.swipe.direction, step.swipe.distance ?? 0.6);
          return this.call('ui_swipe', { space_id: id, from, to, duration_ms: 300 });
        };
        if (step.swipe.target !== undefined) return on(step.swipe.target, (n) => swipeOn(n.bounds));
        // No target: the screen, from its centre (Maestro's `scroll` and screen `swipe`).
        const { width, height } = (await this.observe()).screen;
        await swipeOn([0, 0, width, height]);
        return;
      }
      case 'press':
        await this.call('ui_key', { space_id: id, key: step.press });
        return;
      case 'wait_for':
        return step.wait_for === 'idle' ? this.idle(timeout) : this.hold('wait failed', step.wait_for, timeout, false);
      case 'assert':
        return this.hold('assertion failed', step.assert, timeout, false);
      case 'run': {
        const nested = this.library.byPath(entry.path, step.run.skill)!;
        const times = runTimes(step.run);
        if (times === null) throw new StepFailed(`times ${JSON.stringify(step.run.times)} is not a whole number`);
        for (let n = 0; n < times; n++) {
          // Maestro's repeat: the condition is checked on the screen before each run.
          if (step.run.while) {
            const check = await resolveCheck(step.run.while, this.params, this.scope, `${entry.path} step`);
            if (!evaluateCheck(check, await this.observe()).pass) break;
          }
          const r = await this.run(nested, resolveParams(nested.skill, step.run.params), `${prefix}  `);
          if (r.failed !== null) throw new StepFailed(r.message ?? 'a step of the skill it runs failed');
        }
        return;
      }
      case 'fn': {
        // The app's function when it has one (design §0.1: the fast path), else the UI steps.
        const list = await this.rt.call('appfn_list', { space_id: id, package: entry.skill.app }, this.ctx);
        const has = list.ok && list.result.functions.some((f) => f.id === step.fn.name);
        if (has) {
          await this.call('appfn_execute', {
            space_id: id,
            package: entry.skill.app,
            function_id: step.fn.name,
            params: step.fn.params,
          });
          return;
        }
        if (!step.ui)
          throw new StepFailed(
            `the step calls ${step.fn.name}, which ${list.ok ? `${entry.skill.app} does not declare` : `this device cannot call (${list.error.code})`}, and it has no ui: steps to fall back to`,
          );
        for (const ui of step.ui) await this.stepOnce(entry, ui, ev, prefix);
        return;
      }
      case 'script':
        try {
          return await runScriptStep(step, this.scope, `${entry.path} step`);
        } catch (e) {
          if (e instanceof ScriptError) throw new StepFailed(e.message);
          throw e;
        }
      case 'hide_keyboard':
        // Only when it is up: a back with no keyboard would leave the screen.
        if ((await this.observe()).keyboard) await this.call('ui_key', { space_id: id, key: 'back' });
        return;
      case 'screenshot': {
        const shot = await this.call('ui_screenshot', { space_id: id, scale: 1 });
        ev.message = `screenshot ${step.screenshot}: ${shot.sha256} (${shot.width}x${shot.height})`;
        return;
      }
      case 'stop_app':
        await this.call('space_stop', { space_id: id, package: entry.skill.app });
        return;
      case 'open_link':
        await this.call('app_intent', { space_id: id, action: 'android.intent.action.VIEW', data: step.open_link });
        return;
      case 'copy_text':
        return on(step.copy_text, async (n) => {
          this.scope.maestro.copiedText = ownText(n);
        });
      case 'ai_assert':
        // No model runs on the device: the framework's replay (app.runSkill in a test) asks one.
        throw new StepFailed(
          `NOT_SUPPORTED: an ai_assert step needs a model, which this runtime has not; replay the skill in a test (app.runSkill, with use.ai) to judge ${JSON.stringify(step.ai_assert)}`,
        );
      default: {
        const never: never = step;
        throw new SimError(toolError('INVALID_ARGUMENT', `unknown step ${JSON.stringify(never)}`));
      }
    }
  }

  private async call<N extends ToolName>(name: N, args: ToolInput<N>): Promise<ToolResult<N>> {
    const out = await this.rt.call<N>(name, args, this.ctx);
    if (!out.ok) {
      // A crash ends the run as the tool's own error; anything else fails the step.
      if (out.error.code === 'APP_CRASHED') throw new SimError(out.error);
      throw new StepFailed(`${name}: ${out.error.code}: ${out.error.message}`);
    }
    return out.result;
  }

  private observe(): Promise<Observation> {
    return this.call('ui_observe', { space_id: this.spaceId, max_nodes: 400, detail: 'compact' });
  }

  /** Until one alternative names exactly one node; a list on screen is scrolled to find it. */
  private async resolve(target: Target, timeout: number): Promise<{ node: UiNode; obs: Observation }> {
    const alternatives = typeof target === 'string' ? [target] : target;
    const deadline = Date.now() + timeout;
    let direction: 'down' | 'up' = 'down';
    let last: Observation | null = null;
    for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
      const obs = (last = await this.observe());
      if (!obs.tree_missing) {
        for (const sel of alternatives) {
          const nodes = resolveSteps(obs.nodes, parseSelector(sel));
          if (nodes.length > 1)
            throw new StepFailed(`${sel} matches ${nodes.length} nodes; a step acts on one (strict)`);
          if (nodes.length === 1) return { node: nodes[0]!, obs };
        }
        if (obs.nodes.some((n) => n.scrollable) && Date.now() < deadline) {
          const { moved } = await this.call('ui_scroll', { space_id: this.spaceId, direction, amount: 1 });
          if (!moved) direction = direction === 'down' ? 'up' : 'down';
          continue;
        }
      }
      if (Date.now() + wait > deadline) break;
      await new Promise((r) => setTimeout(r, wait));
    }
    throw new StepFailed(
      `${alternatives.join(' | ')} is not on screen after ${timeout}ms; on screen: ${screenLine(last)}`,
    );
  }

  private async hold(what: string, check: Check, timeout: number, skipOnFail: boolean): Promise<void> {
    const deadline = Date.now() + timeout;
    let received = '';
    let last: Observation | null = null;
    for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
      last = await this.observe();
      const r = evaluateCheck(check, last);
      if (r.pass) return;
      received = r.received;
      if (Date.now() + wait > deadline) break;
      await new Promise((res) => setTimeout(res, wait));
    }
    const message = `${what}: expected ${describeCheck(check)}, received ${received}; on screen: ${screenLine(last)}`;
    if (skipOnFail) throw new Skipped(message);
    throw new StepFailed(message);
  }

  private async idle(timeout: number): Promise<void> {
    const deadline = Date.now() + timeout;
    let hash: string | undefined;
    while (Date.now() < deadline) {
      const obs = await this.observe();
      if (!obs.tree_missing && obs.screen_hash !== undefined && obs.screen_hash === hash) return;
      hash = obs.screen_hash;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new StepFailed(`the screen kept changing for ${timeout}ms`);
  }
}

/** The screen in one line for a failure message: activity and the first texts. */
function screenLine(obs: Observation | null): string {
  if (!obs) return '(nothing observed)';
  const texts = obs.nodes
    .map((n) => n.text ?? n.desc)
    .filter(Boolean)
    .slice(0, 12);
  return `${obs.package ?? '(no app)'} ${obs.activity ?? ''} [${texts.map((t) => JSON.stringify(t)).join(', ')}]`;
}

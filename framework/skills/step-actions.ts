import { test } from '@playwright/test';
import { ownText } from '../../device-runtime/protocol/selector.js';
import { swipeEnds, type SwipeDirection } from '../../device-runtime/protocol/swipe.js';
import {
  runScriptStep,
  ScriptError,
  type FlowScript,
  type SkillStep,
  type UiSkillStep,
} from '../../device-runtime/protocol/skill/index.js';
import type { ApiCall } from '../core/api-call.js';
import { NestwrightError } from '../core/errors.js';
import type { AppPort } from '../core/port.js';
import { inTest } from '../core/in-test.js';
import { runFnStep } from './fn-step.js';
import { assertStatement } from '../ai/verdict.js';
import { hold, Skipped } from './hold.js';
import { idle, pick } from './targets.js';

/** How a `fn:` step was done; undefined for every other step. */
export type Via = 'function' | 'ui' | 'ai' | { proposal: string } | undefined;

/** Where a step is in its skill, and what the replay does for the steps that run more steps. */
export interface StepPlace {
  /** `skills/x.yaml step 3`, for script errors. */
  where: string;
  /** Replay the skill a `run:` step names (planned with the skill), `times` or while its `while` holds. */
  runNested(run: Extract<SkillStep, { kind: 'run' }>['run']): Promise<void>;
  /** One of a `fn:` step's `ui` steps, as a step of its own. */
  uiStep(ui: UiSkillStep): Promise<void>;
}

/**
 * What one skill step does, through the same locators and app calls a spec uses: a tap picks
 * its target (skills/targets.ts) and taps it, a check waits (skills/hold.ts), a `fn:` step calls
 * the app's function or its `ui` steps. The replay (skills/replay.ts) wraps it in its step,
 * checks, retries and fallback.
 */
export async function actStep(
  app: AppPort,
  step: SkillStep,
  timeout: number,
  checkTimeout: number,
  call: ApiCall,
  scope: FlowScript,
  at: StepPlace,
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
      if (step.swipe.target === undefined) return swipeScreen(app, call, step.swipe.direction, step.swipe.distance);
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
    case 'run':
      return at.runNested(step.run);
    case 'fn':
      return runFnStep(app, step, call, at.uiStep);
    case 'script':
      try {
        return await runScriptStep(step, scope, at.where);
      } catch (e) {
        // SKILL_FAILED, whose class is the script error's (SCRIPT_FAILED, SCRIPT_TIMEOUT…).
        if (e instanceof ScriptError) throw new NestwrightError(call, e.message, { cause: e, code: 'SKILL_FAILED' });
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
      if (!png)
        throw new NestwrightError(call, `screenshot ${step.screenshot}: this runtime takes no screenshots`, {
          code: 'NOT_SUPPORTED',
        });
      const name = step.screenshot.replace(/\.png$/i, '');
      if (inTest()) await test.info().attach(`${name}.png`, { body: png, contentType: 'image/png' });
      return;
    }
    case 'open_link':
      return app.intent({ action: 'android.intent.action.VIEW', data: step.open_link });
    case 'ai_assert':
      try {
        return await assertStatement(app, step.ai_assert);
      } catch (e) {
        // Maestro's assertWithAI is optional by default: a false verdict skips, a model that cannot be asked fails.
        if (step.optional && (e as { code?: string }).code === 'AI_ASSERTION_FAILED')
          throw new Skipped(`skipped: ${(e as Error).message.split('\n')[0]}`);
        throw e;
      }
    case 'copy_text': {
      const { node } = await (await pick(app, step.copy_text, timeout, call)).waitForActionable(call, { timeout });
      scope.maestro.copiedText = ownText(node);
      return;
    }
    default: {
      const never: never = step;
      throw new NestwrightError(call, `unknown step ${JSON.stringify(never)}`, { code: 'NESTWRIGHT_BUG' });
    }
  }
}

/** A swipe across the screen from its centre (Maestro's `scroll` and screen `swipe`), `distance` of its size. */
async function swipeScreen(app: AppPort, call: ApiCall, direction: SwipeDirection, distance = 0.6): Promise<void> {
  const { width, height } = (await app.observe(call)).screen;
  const [from, to] = swipeEnds([0, 0, width, height], direction, distance);
  await app.call(call, 'ui_swipe', { space_id: app.spaceId, from, to, duration_ms: 300 });
}

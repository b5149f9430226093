import type { Check, SkillStep, Target } from './schema.js';

/** A target as it reads in titles: one selector, or alternatives joined by ` | `. */
export function describeTarget(target: Target): string {
  return typeof target === 'string' ? target : target.join(' | ');
}

/** The selector a step acts on, as it reads in titles and evidence; null for steps without one. */
export function stepSelector(step: SkillStep): string | null {
  switch (step.kind) {
    case 'tap':
      return describeTarget(step.tap);
    case 'long_press':
      return describeTarget(step.long_press);
    case 'fill':
      return describeTarget(step.fill.target);
    case 'clear':
      return describeTarget(step.clear);
    case 'scroll_to':
      return describeTarget(step.scroll_to);
    case 'swipe':
      return step.swipe.target === undefined ? null : describeTarget(step.swipe.target);
    case 'copy_text':
      return describeTarget(step.copy_text);
    default:
      return null;
  }
}

/** A check as it reads in titles and failures: `visible text=Saved`, `activity .MainActivity`. */
export function describeCheck(check: Check): string {
  switch (check.kind) {
    case 'visible':
      return `visible ${describeTarget(check.visible)}`;
    case 'hidden':
      return `hidden ${describeTarget(check.hidden)}`;
    case 'text':
      return `text of ${check.text.target} ${check.text.exact ? 'is' : 'contains'} ${JSON.stringify(check.text.value)}`;
    case 'count':
      return `count of ${check.count.target} is ${check.count.value}`;
    case 'activity':
      return `activity ${check.activity}`;
    case 'true':
      return `true ${JSON.stringify(check.true)}`;
    default: {
      const never: never = check;
      throw new Error(`unknown check ${JSON.stringify(never)}`);
    }
  }
}

/** A step's title when it has no intent: what it does, in the words of step titles elsewhere. */
export function describeStep(step: SkillStep): string {
  switch (step.kind) {
    case 'launch':
      return `Launch${step.launch !== true && step.launch.activity ? ` ${step.launch.activity}` : ''}`;
    case 'tap':
      return `Tap ${describeTarget(step.tap)}`;
    case 'long_press':
      return `Long-press ${describeTarget(step.long_press)}`;
    case 'fill':
      return `Fill ${describeTarget(step.fill.target)} with ${JSON.stringify(step.fill.value)}`;
    case 'clear':
      return `Clear ${describeTarget(step.clear)}`;
    case 'press':
      return `Press ${step.press}`;
    case 'scroll_to':
      return `Scroll to ${describeTarget(step.scroll_to)}`;
    case 'swipe':
      return `Swipe ${step.swipe.direction} on ${step.swipe.target === undefined ? 'the screen' : describeTarget(step.swipe.target)}`;
    case 'wait_for':
      return `Wait for ${step.wait_for === 'idle' ? 'the screen to settle' : describeCheck(step.wait_for)}`;
    case 'assert':
      return `Assert ${describeCheck(step.assert)}`;
    case 'run': {
      const times = step.run.times !== undefined ? ` ${step.run.times} times` : '';
      return `Run skill ${step.run.skill}${times}${step.run.while ? ` while ${describeCheck(step.run.while)}` : ''}`;
    }
    case 'fn':
      return `Call ${step.fn.name}${step.ui ? ` (or ${step.ui.length} UI step${step.ui.length > 1 ? 's' : ''})` : ''}`;
    case 'script': {
      const code = (typeof step.script === 'string' ? step.script : step.script.code).trim().split('\n')[0]!;
      return `Run script ${code.length > 60 ? `${code.slice(0, 57)}…` : code}`;
    }
    case 'hide_keyboard':
      return 'Hide the keyboard';
    case 'stop_app':
      return 'Stop the app';
    case 'screenshot':
      return `Screenshot ${step.screenshot}`;
    case 'open_link':
      return `Open ${step.open_link}`;
    case 'copy_text':
      return `Copy the text of ${describeTarget(step.copy_text)}`;
    case 'ai_assert':
      return `AI assert: ${step.ai_assert}`;
    default: {
      const never: never = step;
      throw new Error(`unknown step ${JSON.stringify(never)}`);
    }
  }
}

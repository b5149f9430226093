import type { Observation } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from '../core/api-call.js';
import type { AppPort } from '../core/port.js';
import { StrictModeViolationError, TimeoutError } from '../core/errors.js';
import type { CacheStep } from './cache.js';
import { AiError } from './errors.js';
import { replayFunction } from './functions.js';
import { fillPlaceholders, observeInApp, type Params } from './perform.js';

const SWIPE = { up: 'down', down: 'up', left: 'right', right: 'left' } as const;

/** Why a cached step could not be replayed: it no longer resolves (heal it) or it broke. */
export class ReplayMiss extends Error {}

/**
 * One cached step, through the same locator actions as a scripted test: zero model calls.
 * A locator that no longer resolves (timeout, or several matches) is a {@link ReplayMiss}.
 */
export async function replayStep(
  app: AppPort,
  call: ApiCall,
  step: CacheStep,
  params: Params,
  timeout: number,
): Promise<Observation> {
  if (step.action === 'function') return replayFunction(app, call, step, params, (m) => new ReplayMiss(m));
  const selector = 'selector' in step ? fillPlaceholders(step.selector, params).text : '';
  const loc = 'selector' in step ? app.locator(selector) : null;
  try {
    switch (step.action) {
      case 'tap':
        await loc!.tap({ timeout });
        break;
      case 'long_press':
        await loc!.longPress({ timeout });
        break;
      case 'type_text': {
        const typed = fillPlaceholders(step.text, params);
        if (typed.secret) {
          const { node } = await loc!.waitForActionable(call, { timeout });
          if (!node.password)
            throw new AiError(
              call,
              'AI_PARAMS',
              `the cached step types a secret into ${selector}, which is not a password field now`,
            );
        }
        await loc!.fill(typed.text, { timeout, secret: typed.secret });
        break;
      }
      case 'scroll':
        await loc!.swipe(SWIPE[step.direction], { distance: 0.7, timeout });
        break;
      case 'press_key':
        await app.press(step.key);
        break;
      default: {
        const never: never = step;
        throw new Error(`unknown cached step ${JSON.stringify(never)}`);
      }
    }
  } catch (e) {
    if (e instanceof TimeoutError || e instanceof StrictModeViolationError)
      throw new ReplayMiss(`${describeStep(step)} no longer resolves: ${e.message.split('\n')[0]}`, { cause: e });
    throw e;
  }
  return observeInApp(app, call, describeStep(step));
}

export function describeStep(s: CacheStep): string {
  switch (s.action) {
    case 'press_key':
      return `press ${s.key}`;
    case 'type_text':
      return `type ${JSON.stringify(s.text)} into ${s.selector}`;
    case 'scroll':
      return `scroll ${s.direction} ${s.selector}`;
    case 'function':
      return `call ${s.name}(${JSON.stringify(s.params)})`;
    default:
      return `${s.action.replace('_', '-')} ${s.selector}`;
  }
}

import { NestwrightError } from '../core/errors.js';

/**
 * Codes of AI step failures, so tests, reports and CI can tell them apart without reading text.
 *   AI_NO_API_KEY        a model is needed and no key is configured (the message names the variable)
 *   AI_CONFIG            use.ai is malformed (the message has the path of the bad field)
 *   AI_MODEL_ERROR       the model API failed (after the SDK's retries), with its HTTP status
 *   AI_BAD_OUTPUT        the model's tool input did not match the contract, even when asked again
 *   AI_UNGROUNDED        a verdict or extraction cites nodes not on screen or quotes text not there
 *   AI_ASSERTION_FAILED  the model's grounded verdict is false
 *   AI_BUDGET_EXCEEDED   tokens or cost passed a step or test budget
 *   AI_GAVE_UP           the model called give_up
 *   AI_MAX_TURNS         act used all its turns without done
 *   AI_LEFT_APP          after an action the app under test was no longer in front
 *   AI_TIMEOUT           waitFor / toSatisfy ran out of time
 *   AI_PARAMS            the instruction's {placeholders} and params do not match
 *   AI_NOT_SUPPORTED     { on: 'device' } on a runtime without its own agent (task_run)
 *   AI_CANCELLED         the device's task was cancelled, or a dangerous step of it was denied approval
 *   AI_DEVICE_TASK       the device's task failed for another reason (the device's code is in the message)
 */
export type AiErrorCode =
  | 'AI_NO_API_KEY'
  | 'AI_CONFIG'
  | 'AI_MODEL_ERROR'
  | 'AI_BAD_OUTPUT'
  | 'AI_UNGROUNDED'
  | 'AI_ASSERTION_FAILED'
  | 'AI_BUDGET_EXCEEDED'
  | 'AI_GAVE_UP'
  | 'AI_MAX_TURNS'
  | 'AI_LEFT_APP'
  | 'AI_TIMEOUT'
  | 'AI_PARAMS'
  | 'AI_NOT_SUPPORTED'
  | 'AI_CANCELLED'
  | 'AI_DEVICE_TASK';

export class AiError extends NestwrightError {
  declare readonly code: AiErrorCode;

  constructor(
    api: string | { readonly api: string },
    code: AiErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(api, `[${code}] ${message}`, { ...options, code });
  }
}

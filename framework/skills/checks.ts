import { evaluateCheck, type Check, type CheckResult } from '../../device-runtime/protocol/skill/index.js';
import type { Observation } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from '../core/api-call.js';
import type { InstancePort } from '../core/port.js';
import { describeNode, NestwrightError } from '../core/errors.js';
import { poll } from '../core/poll.js';

/** A check against one observation (the protocol's evaluation, with the framework's node lines). */
export function evaluate(check: Check, obs: Observation, call: ApiCall): CheckResult {
  try {
    return evaluateCheck(check, obs, describeNode);
  } catch (e) {
    // A check the protocol cannot evaluate is one the skill file got wrong.
    throw new NestwrightError(call, (e as Error).message, { cause: e, code: 'SKILL_INVALID' });
  }
}

/** Retry a check against fresh observations until it holds or `timeout` ms pass. */
export async function waitCheck(
  instance: InstancePort,
  check: Check,
  timeout: number,
  call: ApiCall,
): Promise<{ pass: boolean; received: string; obs: Observation | null }> {
  let last: { result: CheckResult; obs: Observation } | null = null;
  const r = await poll(
    timeout,
    async () => {
      const obs = await instance.observe(call);
      const result = evaluate(check, obs, call);
      last = { result, obs };
      return result.pass ? { done: true, value: true } : { done: false };
    },
    instance.clock,
  );
  const l = last as { result: CheckResult; obs: Observation } | null;
  return { pass: 'value' in r, received: l?.result.received ?? '(nothing observed)', obs: l?.obs ?? null };
}

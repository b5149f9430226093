import type { Observation } from '../../device-runtime/protocol/index.js';
import type { Target } from '../../device-runtime/protocol/skill/index.js';
import type { ApiCall } from '../core/api-call.js';
import { describeScreen, TimeoutError } from '../core/errors.js';
import { poll } from '../core/poll.js';
import type { AppPort, PortLocator } from '../core/port.js';
import { resolveSteps } from '../core/selector.js';

/** The locator for a target: one selector, or the first alternative that is on screen. */
export async function pick(app: AppPort, target: Target, timeout: number, call: ApiCall): Promise<PortLocator> {
  if (typeof target === 'string' || target.length === 1)
    return app.locator(typeof target === 'string' ? target : target[0]!);
  const locators = target.map((s) => app.locator(s));
  let last: Observation | null = null;
  const r = await poll<PortLocator>(timeout, async () => {
    last = await app.observe(call);
    if (last.tree_missing) return { done: false };
    const hit = locators.find((l) => resolveSteps(last!.nodes, l.steps).length > 0);
    return hit ? { done: true as const, value: hit } : { done: false as const };
  });
  if ('value' in r) return r.value;
  throw new TimeoutError(
    call,
    `none of the alternatives is on screen after ${timeout}ms: ${target.join(' | ')}\nScreen:\n${describeScreen(last)}`,
    [],
    last,
  );
}

/** Until two observations in a row show the same screen (animations over, content loaded). */
export async function idle(app: AppPort, timeout: number, call: ApiCall): Promise<void> {
  let hash: string | undefined;
  let last: Observation | null = null;
  const r = await poll(
    timeout,
    async () => {
      last = await app.observe(call);
      const same = !last.tree_missing && last.screen_hash !== undefined && last.screen_hash === hash;
      hash = last.screen_hash;
      return same ? { done: true, value: true } : { done: false };
    },
    app.clock,
  );
  if (!('value' in r))
    throw new TimeoutError(
      call,
      `the screen kept changing for ${timeout}ms\nScreen:\n${describeScreen(last)}`,
      [],
      last,
    );
}

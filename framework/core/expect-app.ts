import type { Observation } from '../../device-runtime/protocol/index.js';
import type { App } from './app.js';
import { poll } from './poll.js';

/** The app matchers that do not read the screen's nodes: their loops (expect.ts keeps the matchers and their docs). */

/** `expect(app).toHaveCrashed()`: the instance's state until it is (or, with `.not`, is not) crashed; a crash seen is acknowledged. */
export async function toHaveCrashed(isNot: boolean, received: App, timeout: number | undefined) {
  const driver = received.driver;
  let state = 'unknown';
  return driver.wrap('expect.toHaveCrashed', { timeout, kind: 'expect' }, async (call) => {
    const r = await driver.steps.step(
      call,
      { kind: 'assertion', title: `Expect ${driver.who()} ${isNot ? 'not ' : ''}to have crashed`, selector: null },
      () =>
        poll(
          call.timeout,
          async () => {
            state = await driver.watch.state(call);
            const raised = driver.options.scope?.acknowledge(driver.who()) ?? false;
            return (state === 'crashed' || raised) !== isNot ? { done: true, value: true } : { done: false };
          },
          driver.clock,
        ),
    );
    const pass = 'value' in r ? !isNot : isNot;
    return {
      pass,
      name: 'toHaveCrashed',
      message: () =>
        `expect(app).${isNot ? 'not.' : ''}toHaveCrashed() failed\n\nApp: ${driver.who()}\nExpected: ${isNot ? 'not ' : ''}crashed\nReceived: ${state}\nTimeout: ${driver.describeTimeout(call.timeout)}`,
    };
  });
}

/** `expect(app).toBeInForeground()`: one-node looks until this instance is (or is not) the one in front. */
export async function toBeInForeground(isNot: boolean, received: App, timeout: number | undefined) {
  const driver = received.driver;
  return driver.wrap('expect.toBeInForeground', { timeout, kind: 'expect' }, async (call) => {
    let last: Observation | null = null;
    const r = await poll(
      call.timeout,
      async () => {
        const obs = await driver.calls.call(call, 'ui_observe', {
          space_id: driver.spaceId,
          max_nodes: 1,
          detail: 'compact',
        });
        last = obs;
        return driver.watch.inFront(obs) !== isNot ? { done: true, value: obs } : { done: false };
      },
      driver.clock,
    );
    const pass = 'value' in r ? !isNot : isNot;
    const seen = last as Observation | null;
    const front = seen?.package
      ? `${seen.package}${seen.instance ? `@${seen.instance}` : ''} in front`
      : 'no app in front';
    return {
      pass,
      name: 'toBeInForeground',
      message: () =>
        `expect(app).${isNot ? 'not.' : ''}toBeInForeground() failed\n\nApp: ${driver.who()}\nExpected: ${isNot ? 'not ' : ''}in foreground\nReceived: ${seen ? front : '(nothing observed)'}\nTimeout: ${driver.describeTimeout(call.timeout)}`,
    };
  });
}

import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import type { AppDriver } from './driver.js';
import { actOnNode } from './act-on-node.js';
import type { ActionSpec, Actuator, Attempt, LocatorRef } from './actuator.js';
import type { ApiCall } from './api-call.js';
import { waitHere } from './wait-here.js';

/**
 * The client-side actuator: for a runtime without `selector_actions` (or `deviceActions: 'off'`).
 * Each action waits here (the protocol's actionability loop over tool calls: a round trip per
 * look and per scroll), then acts on the node of that very snapshot, resolving again when the
 * screen changed in between.
 */
export class ClientActuator implements Actuator {
  readonly where = 'client';

  constructor(private readonly d: AppDriver) {}

  async act(call: ApiCall, locator: LocatorRef, action: ActionSpec, wait: { timeout: number }): Promise<Attempt> {
    let budget = wait.timeout;
    for (;;) {
      const found = await waitHere(call, locator, { budget });
      const done = await actOnNode(call, this.d, found, action);
      if (done) return { ...done, named: found };
      budget = Math.max(1, call.remaining());
    }
  }

  scrollIntoView(call: ApiCall, locator: LocatorRef): Promise<{ node: UiNode; obs: Observation }> {
    return waitHere(call, locator, { enabled: false });
  }
}

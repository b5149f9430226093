import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import { DeviceError } from '../../device-runtime/client/index.js';
import type { AppDriver } from './driver.js';
import type { ActionSpec, Attempt } from './actuator.js';
import type { ApiCall } from './api-call.js';

/**
 * Act on one node of one snapshot and check the effect: the action by node id, then the looks
 * that wait for the screen to show it (the protocol's settle). The client-side actuator acts so
 * after each wait; the pipeline acts so on a node healing found, or on the same node again when
 * an action showed no effect. Null when the screen changed before the action reached it
 * (SNAPSHOT_STALE, NODE_NOT_FOUND) and the call has time left: resolve again.
 */
export async function actOnNode(
  call: ApiCall,
  d: AppDriver,
  target: { node: UiNode; obs: Observation },
  action: ActionSpec,
): Promise<Attempt | null> {
  const { node, obs } = target;
  try {
    await d.calls.raw(action.tool, {
      space_id: d.spaceId,
      node_id: node.id,
      snapshot_id: obs.snapshot_id,
      ...action.args,
    } as never);
  } catch (e) {
    if (
      e instanceof DeviceError &&
      (e.code === 'SNAPSHOT_STALE' || e.code === 'NODE_NOT_FOUND') &&
      call.remaining() > 0
    ) {
      call.log.push(`  the screen changed before the action (${e.code}); resolving again`);
      return null;
    }
    throw await d.calls.translate(call, e);
  }
  const after = await d.settle(call, obs, node, action.took);
  return { node, named: null, before: obs.snapshot_id, after: after.obs, effect: after.effect, attempts: 1 };
}

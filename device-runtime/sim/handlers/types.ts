import type { ToolArgs, ToolName, ToolResult } from '../../protocol/index.js';
import type { CallContext } from '../core/call-context.js';
import type { SimInstance } from '../core/instance.js';
import type { ProcessPool } from '../core/process-pool.js';
import type { SimSpace } from '../core/space.js';
import type { SimScreen } from '../ui/screen.js';

/**
 * A handler answers one tool. `host` is the narrow slice of the runtime it needs (declared next
 * to each group: `SpaceHost`, `UiHost`…), so a handler cannot reach what it has no business with,
 * and the runtime is checked against each slice where it dispatches.
 */
export type Handler<N extends ToolName, H> = (
  args: ToolArgs<N>,
  host: H,
  ctx: CallContext,
) => Promise<ToolResult<N>> | ToolResult<N>;

/** The handlers of one protocol tool file (`protocol/tools/<group>.ts` → `handlers/<group>.ts`). */
export type HandlerGroup<K extends ToolName, H> = { [N in K]: Handler<N, H> };

/** A space with its screen, as handlers see it. */
export type DeviceSpace = SimSpace<SimScreen>;

/** Finds a space by id; SPACE_NOT_FOUND (with a hint) when there is none. */
export interface SpaceLookup {
  space(id: string): DeviceSpace;
}

/** The device's process slots (docs/protocol.md#processes): a launch takes one, a stop frees it. */
export interface SlotHost {
  /** Pin `inst` to a slot, evicting the least recently used one that no lease protects. */
  assignSlot(inst: SimInstance, space: SimSpace): ReturnType<ProcessPool['assign']>;
  releaseSlot(inst: SimInstance): void;
}

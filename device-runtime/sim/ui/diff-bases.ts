import {
  diffNodes,
  nodesHash,
  toolError,
  type ObservationDiff,
  type ObserveSince,
  type Observation,
  type UiNode,
} from '../../protocol/index.js';
import { SimError } from '../core/sim-error.js';

/** What a session last received of one space's screen, whole: the base of its next diff. */
interface Base {
  snapshot_id: string;
  nodes: UiNode[];
  hash: string;
  /** The options it was taken with: a diff only answers an observation asked the same way. */
  options: string;
}

/** Sessions whose base one screen keeps (the least recently observing is dropped first). */
const MAX_SESSIONS = 16;

/**
 * Extension `observe_diff` on one space's screen (device-runtime/protocol/observe-diff.ts): the
 * last observation each session received, and the answer to the next one given `since` — a diff
 * against that base, or the whole observation when the base is gone or was taken another way.
 * Costs one pass over each node list and one hash per observation with `since`; none without.
 */
export class DiffBases {
  private readonly bases = new Map<string, Base>();

  /**
   * `obs` (just taken, with its full node list) as the answer to a session that sent `since`:
   * with `nodes: []` and a `diff` when `since` names this session's base, whole otherwise; kept
   * as the session's new base either way. DIFF_BASE_MISMATCH when `since` names the base with
   * another hash (`onMismatch: 'whole'`, after an action: the whole observation instead).
   */
  answer(
    session: string,
    since: ObserveSince,
    options: string,
    obs: Observation,
    onMismatch: 'refuse' | 'whole' = 'refuse',
  ): Observation & { diff?: ObservationDiff } {
    const base = since ? this.bases.get(session) : undefined;
    const hash = nodesHash(obs.nodes);
    const keep = () => {
      this.bases.delete(session);
      this.bases.set(session, { snapshot_id: obs.snapshot_id, nodes: obs.nodes, hash, options });
      if (this.bases.size > MAX_SESSIONS) this.bases.delete(this.bases.keys().next().value!);
    };
    if (!since || !base || base.snapshot_id !== since.snapshot_id || base.options !== options || obs.tree_missing) {
      keep();
      return obs;
    }
    if (since.hash !== base.hash) {
      // After an action the screen is answered whole: the action is done, and refusing it
      // would have the client send it again.
      if (onMismatch === 'whole') {
        keep();
        return obs;
      }
      throw new SimError(
        toolError(
          'DIFF_BASE_MISMATCH',
          `ui_observe: since.hash ${JSON.stringify(since.hash)} is not the hash of snapshot ${since.snapshot_id} as this runtime sent it (${base.hash}): a diff would apply to another node list`,
          {
            hint: "Drop the copy and observe with `since: null` (or without since) for a full observation; compute the hash with the protocol's nodesHash over the nodes as received.",
            details: { snapshot_id: since.snapshot_id, expected_hash: base.hash },
          },
        ),
      );
    }
    const diff = diffNodes(base.nodes, obs.nodes, base.snapshot_id, hash);
    keep();
    return diff ? { ...obs, nodes: [], diff } : obs;
  }

  /** A session ended: its bases go with it. */
  forget(session: string): void {
    this.bases.delete(session);
  }
}

import {
  applyDiff,
  nodesHash,
  type ObserveSince,
  type Observation,
  type ObservationDiff,
  type ToolInput,
  type UiNode,
} from '../protocol/index.js';

/** The client's copy of the last observation of one space, taken with `options`. */
interface Copy {
  snapshot_id: string;
  nodes: UiNode[];
  /** nodesHash of `nodes`, computed when first sent (a diff's is checked, so known at once). */
  hash: string | null;
  options: string;
}

type ObserveInput = ToolInput<'ui_observe'>;

const optionsOf = (input: ObserveInput) => `${input.detail ?? 'compact'}/${input.max_nodes ?? 120}`;

/**
 * The client's side of extension `observe_diff` (device-runtime/protocol/observe-diff.ts): the
 * last observation of each space, whole; the `since` to send with the next one; and a diff
 * answer applied to the copy and checked against the hash of the whole. Callers always get whole
 * observations. One copy per space (the last one, whatever its options: the runtime keeps one
 * base per session and space too).
 */
export class ObservationCopies {
  private readonly copies = new Map<string, Copy>();

  /** What to send as `since` for `input`: the copy of its space taken the same way, or null (none yet). */
  since(input: ObserveInput): ObserveSince {
    const copy = this.copies.get(input.space_id);
    if (!copy || copy.options !== optionsOf(input)) return null;
    copy.hash ??= nodesHash(copy.nodes);
    return { snapshot_id: copy.snapshot_id, hash: copy.hash };
  }

  /**
   * The whole observation a runtime's answer stands for: `obs` itself when it carries its nodes,
   * else its diff applied to the copy it names (DiffMismatch when it does not fit: the caller
   * drops the copy and asks in full). Kept as the space's copy.
   */
  receive(input: ObserveInput, obs: Observation & { diff?: ObservationDiff }): Observation {
    const { diff, ...whole } = obs;
    let hash: string | null = null;
    if (diff) {
      const copy = this.copies.get(input.space_id);
      if (!copy || copy.snapshot_id !== diff.base) {
        this.copies.delete(input.space_id);
        throw new MissingBase(diff.base);
      }
      whole.nodes = applyDiff(copy.nodes, diff);
      hash = diff.hash;
    }
    this.copies.set(input.space_id, {
      snapshot_id: whole.snapshot_id,
      nodes: whole.nodes,
      hash,
      options: optionsOf(input),
    });
    return whole;
  }

  /** Forget the copy of a space (its diff did not apply, or it was refused). */
  drop(spaceId: string): void {
    this.copies.delete(spaceId);
  }
}

/** A diff answered against a snapshot this client does not hold. */
export class MissingBase extends Error {
  constructor(base: string) {
    super(`a diff against snapshot ${base}, which this client does not hold`);
  }
}

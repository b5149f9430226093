import {
  applyDiff,
  describeIssues,
  DiffMismatch,
  nodesHash,
  TOOLS,
  type UiNode,
} from '../../../device-runtime/protocol/index.js';
import { expectThat, type Check } from '../check.js';
import { describeAnswer } from '../session.js';

const ASK = { max_nodes: 500 };

/**
 * Extension `observe_diff` (device-runtime/protocol/observe-diff.ts): ui_observe with `since`
 * the session's base answers a diff that applies to it (the hash of the whole checked); a
 * `since` naming the base with another hash is refused with DIFF_BASE_MISMATCH; one the runtime
 * does not hold gets a full observation. Not advertised: `since` is ignored, every answer full.
 */
export const observeDiffCheck: Check = {
  id: 'extensions.observe_diff',
  group: 'extensions',
  title:
    'observe_diff: ui_observe with `since` answers what changed, refuses a wrong base, and gives a lost one a full observation',
  section: 'extension observe_diff (not in the design): docs/protocol.md#ui_observe',
  expects:
    'advertised: since null → full; since = that snapshot and its nodesHash → `diff` that applies to it with the right count and hash; the base with another hash → DIFF_BASE_MISMATCH; an unknown snapshot → full (no diff); not advertised: since ignored, full answers',
  fix: 'Keep the last observation each session received of each space; answer `since` naming it with `nodes: []` and a diff (removed ids, changed and added nodes, count and nodesHash of the whole), refuse its snapshot with another hash with DIFF_BASE_MISMATCH, answer anything else in full; or leave observe_diff out of runtime_info.extensions and ignore `since`.',
  required: true,
  async run(ctx) {
    const space_id = await ctx.space();
    const advertised = ((ctx.info?.extensions as string[] | undefined) ?? []).includes('observe_diff');
    const observe = async (since: unknown) => {
      const a = await ctx.main.call('ui_observe', { space_id, ...ASK, since });
      return a;
    };
    const whole = (body: Record<string, unknown>, what: string) => {
      const r = TOOLS.ui_observe.result.safeParse(body);
      expectThat(r.success, r.success ? '' : `${what}: ${describeIssues(r.error, 'result')}`);
      return r.data;
    };
    if (!advertised) {
      const a = await observe({ snapshot_id: 'no-such-snapshot-conformance', hash: '0'.repeat(16) });
      expectThat(
        a.ok && !('diff' in a.body),
        `not advertised, yet ui_observe with since answered ${describeAnswer(a)}`,
      );
      return { status: 'pass', sent: [], received: 'since ignored: a full observation' };
    }
    const first = await observe(null);
    expectThat(first.ok, `ui_observe {since: null} answered ${describeAnswer(first)}`);
    const base = whole(first.body, 'ui_observe {since: null}');
    expectThat(!base.diff, 'ui_observe {since: null} answered a diff; it asks for a full observation');
    const second = await observe({ snapshot_id: base.snapshot_id, hash: nodesHash(base.nodes) });
    expectThat(second.ok, `ui_observe with since = the base answered ${describeAnswer(second)}`);
    const next = whole(second.body, 'ui_observe with since = the base');
    expectThat(!!next.diff, "ui_observe with since = the session's base answered in full, not with a diff");
    expectThat(
      next.diff!.base === base.snapshot_id,
      `diff.base ${next.diff!.base} is not the since given (${base.snapshot_id})`,
    );
    let nodes: UiNode[] = [];
    try {
      nodes = applyDiff(base.nodes, next.diff!);
    } catch (e) {
      expectThat(!(e instanceof DiffMismatch), `the diff does not apply to its base: ${(e as Error).message}`);
      throw e;
    }
    const refused = await observe({ snapshot_id: next.snapshot_id, hash: '0'.repeat(16) });
    expectThat(
      !refused.ok && refused.error.code === 'DIFF_BASE_MISMATCH',
      `since = the base with another hash answered ${describeAnswer(refused)}; expected DIFF_BASE_MISMATCH`,
    );
    const lost = await observe({ snapshot_id: 'no-such-snapshot-conformance', hash: nodesHash(nodes) });
    expectThat(lost.ok, `since = an unknown snapshot answered ${describeAnswer(lost)}; expected a full observation`);
    const full = whole(lost.body, 'since = an unknown snapshot');
    expectThat(!full.diff, 'since = an unknown snapshot answered a diff; a client that lost its base needs the whole');
    return {
      status: 'pass',
      sent: [],
      received: `diff of ${next.diff!.changed.length} changed, ${next.diff!.added.length} added, ${next.diff!.removed.length} removed applied to ${base.nodes.length} nodes; wrong base → DIFF_BASE_MISMATCH; unknown base → ${full.nodes.length} nodes in full`,
    };
  },
};

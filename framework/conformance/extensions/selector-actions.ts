import { ActionResultSchema, describeIssues } from '../../../device-runtime/protocol/index.js';
import { expectThat, type Check } from '../check.js';
import { NOTES } from '../fixtures.js';
import { describeAnswer } from '../session.js';

/**
 * Extension `selector_actions`: ui_tap given a locator's steps waits for the node, taps it and
 * answers with the node matched and the observation after. Not advertised: the same call must
 * answer NOT_SUPPORTED, so a client falls back to observing and tapping by node id.
 */
export const selectorActionsCheck: Check = {
  id: 'extensions.selector_actions',
  group: 'extensions',
  title: 'selector_actions: ui_tap by selector acts and answers the observation after',
  section: 'extension selector_actions (not in the design): docs/protocol.md#actions',
  expects:
    'advertised: ui_tap {selector:[{kind:"id",id:"new_note"}]} answers ok with matched, snapshot_id and observation; not advertised: NOT_SUPPORTED',
  fix: 'Either implement the selector fields (device-runtime/protocol/actionability.ts describes the wait and the checks) or leave selector_actions out of runtime_info.extensions and answer NOT_SUPPORTED.',
  required: true,
  async run(ctx) {
    const space_id = await ctx.space();
    await ctx.main.ok('space_stop', { space_id, package: NOTES });
    await ctx.main.ok('space_launch', { space_id, package: NOTES });
    const a = await ctx.main.call('ui_tap', {
      space_id,
      app: { package: NOTES },
      selector: [{ kind: 'id', id: 'new_note' }],
      wait: { timeout_ms: 2000 },
    });
    const advertised = ((ctx.info?.extensions as string[] | undefined) ?? []).includes('selector_actions');
    if (!advertised) {
      expectThat(
        !a.ok && a.error.code === 'NOT_SUPPORTED',
        `not advertised, yet ui_tap with selector answered ${describeAnswer(a)}`,
      );
      return { status: 'pass', sent: [], received: describeAnswer(a) };
    }
    expectThat(a.ok, `advertised, yet ui_tap with selector answered ${describeAnswer(a)}`);
    const r = ActionResultSchema.safeParse(a.body);
    expectThat(r.success, r.success ? '' : describeIssues(r.error, 'result'));
    expectThat(
      r.data.matched && r.data.observation && r.data.snapshot_id,
      `missing matched, observation or snapshot_id: ${describeAnswer(a)}`,
    );
    expectThat(
      r.data.observation.activity !== '.MainActivity' || r.data.observation.snapshot_id !== r.data.snapshot_id,
      'the observation after is the screen before',
    );
    return { status: 'pass', sent: [], received: describeAnswer(a) };
  },
};

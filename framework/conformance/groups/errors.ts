import { expectThat, type Check, type ConformanceContext } from '../check.js';
import { findNode, NOTES } from '../fixtures.js';
import { describeAnswer, type Answer } from '../session.js';

function expectCode(a: Answer, code: string): string {
  expectThat(!a.ok && a.error.code === code, `expected ${code}, got ${describeAnswer(a)}`);
  return describeAnswer(a);
}

/** Notes restarted on its list, in the kit's space. */
async function notesList(ctx: ConformanceContext): Promise<string> {
  const space_id = await ctx.space();
  await ctx.main.ok('space_stop', { space_id, package: NOTES });
  await ctx.main.ok('space_launch', { space_id, package: NOTES });
  return space_id;
}

/** The documented error envelopes for documented bad input. */
export const errorChecks: Check[] = [
  {
    id: 'errors.unknown_space',
    group: 'errors',
    title: 'an unknown space answers SPACE_NOT_FOUND',
    section: '§5.7 (tool list); docs/protocol.md#errors',
    expects: 'space_status of a space id that does not exist answers the error envelope with code SPACE_NOT_FOUND',
    fix: 'Look the space up first and answer {code: "SPACE_NOT_FOUND", message, retryable: false, hint}.',
    required: true,
    async run(ctx) {
      const a = await ctx.main.call('space_status', { space_id: 'no-such-space-conformance' });
      return { status: 'pass', sent: [], received: expectCode(a, 'SPACE_NOT_FOUND') };
    },
  },
  {
    id: 'errors.unknown_node',
    group: 'errors',
    title: 'an unknown node answers NODE_NOT_FOUND',
    section: '§4.3 (action protocol)',
    expects: 'ui_tap of a node id no observation gave answers NODE_NOT_FOUND',
    fix: 'Resolve node_id against the latest observation and answer NODE_NOT_FOUND when it is not there.',
    required: true,
    async run(ctx) {
      const space_id = await notesList(ctx);
      const a = await ctx.main.call('ui_tap', { space_id, node_id: 'no-such-node-conformance' });
      return { status: 'pass', sent: [], received: expectCode(a, 'NODE_NOT_FOUND') };
    },
  },
  {
    id: 'errors.stale_snapshot',
    group: 'errors',
    title: 'an action on a snapshot the screen left answers SNAPSHOT_STALE',
    section: '§4.3 (action protocol); extension snapshot_check: docs/protocol.md#extensions',
    expects: 'ui_tap with the snapshot_id of a screen that has since changed answers SNAPSHOT_STALE and does not act',
    fix: 'Keep the snapshot id of the latest observation; when an action names an older one whose screen differs, answer SNAPSHOT_STALE (retryable) instead of acting.',
    required: true,
    async run(ctx) {
      if (!((ctx.info?.extensions as string[] | undefined) ?? []).includes('snapshot_check')) {
        return { status: 'skip', sent: [], received: 'snapshot_check not advertised' };
      }
      const space_id = await notesList(ctx);
      const list = await findNode(ctx.main, space_id, 'new_note');
      await ctx.main.ok('ui_tap', { space_id, node_id: list.node.id });
      // The editor is in front now: the list's snapshot is stale.
      const a = await ctx.main.call('ui_tap', { space_id, node_id: list.node.id, snapshot_id: list.snapshot_id });
      return { status: 'pass', sent: [], received: expectCode(a, 'SNAPSHOT_STALE') };
    },
  },
  {
    id: 'errors.busy_lease',
    group: 'errors',
    title: 'a mutating call on a space another session holds answers SPACE_BUSY',
    section: '§5.5 (sessions and leases)',
    expects: 'ui_tap from a second session on a space the first holds EXCLUSIVE answers SPACE_BUSY with the holder',
    fix: 'Check the EXCLUSIVE lease before every mutating tool; answer SPACE_BUSY (retryable, details.holder) to other sessions.',
    required: true,
    async run(ctx) {
      const space_id = await ctx.space();
      const other = await ctx.connect();
      const a = await other.call('ui_tap', { space_id, point: [10, 10] });
      return { status: 'pass', sent: other.sent, received: expectCode(a, 'SPACE_BUSY') };
    },
  },
  {
    id: 'errors.missing_permission',
    group: 'errors',
    title: 'the shell, without the user enabling it, answers TOOL_DISABLED or APPROVAL_REQUIRED',
    section: '§5.6 (approval flow): "High-risk shell: disabled by default; requires user enablement"',
    expects:
      'sys_shell from a remote session, while runtime_info.capabilities.shell_enabled is false, answers TOOL_DISABLED (or APPROVAL_REQUIRED) and runs nothing',
    fix: "Gate sys_shell on the user's switch and the approval gate; answer TOOL_DISABLED while it is off.",
    required: true,
    async run(ctx) {
      if ((ctx.info?.capabilities as { shell_enabled?: boolean } | undefined)?.shell_enabled) {
        return { status: 'skip', sent: [], received: 'capabilities.shell_enabled is true: the user enabled the shell' };
      }
      const space_id = await ctx.space();
      const a = await ctx.main.call('sys_shell', { space_id, command: 'getprop ro.build.version.sdk' });
      expectThat(
        !a.ok && (a.error.code === 'TOOL_DISABLED' || a.error.code === 'APPROVAL_REQUIRED'),
        `expected TOOL_DISABLED or APPROVAL_REQUIRED, got ${describeAnswer(a)}`,
      );
      return { status: 'pass', sent: [], received: describeAnswer(a) };
    },
  },
];

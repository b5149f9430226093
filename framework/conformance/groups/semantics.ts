import { expectThat, type Check, type ConformanceContext } from '../check.js';
import { addNote, findNode, NOTES, screenShows, SHOP, type Node } from '../fixtures.js';
import { describeAnswer } from '../session.js';

const has = (ctx: ConformanceContext, ext: string) =>
  ((ctx.info?.extensions as string[] | undefined) ?? []).includes(ext);
const skip = (ext: string) => ({ status: 'skip' as const, sent: [], received: `${ext} not advertised` });
const instancesOf = async (ctx: ConformanceContext, space_id: string, pkg: string) => {
  const { apps } = await ctx.main.ok('space_list_apps', { space_id });
  return (
    (apps as Array<{ package: string; instances?: Array<{ instance: string; state: string }> }>).find(
      (a) => a.package === pkg,
    )?.instances ?? []
  );
};

/** What tests rely on beyond each answer's shape. */
export const semanticsChecks: Check[] = [
  {
    id: 'semantics.instances_separate_data',
    group: 'semantics',
    title: 'two instances of one app keep separate data',
    section: '§3.6 (IO / data isolation); extension instance',
    expects: 'a note saved in one instance of Notes is not in a second instance; the first still has it',
    fix: "Give each instance its own data directory (and uid view of it): redirect the app's files, databases and shared preferences per instance.",
    required: true,
    async run(ctx) {
      if (!has(ctx, 'instance')) return skip('instance');
      const space_id = await ctx.space();
      await ctx.main.ok('space_stop', { space_id, package: NOTES });
      const a = await ctx.main.ok('space_launch', { space_id, package: NOTES, instance: 'new' });
      await addNote(ctx.main, space_id, 'conformance-a');
      const b = await ctx.main.ok('space_launch', { space_id, package: NOTES, instance: 'new' });
      expectThat(
        a.instance !== b.instance,
        `space_launch instance:"new" twice answered instance ${a.instance} both times`,
      );
      expectThat(
        !(await screenShows(ctx.main, space_id, 'conformance-a')),
        `instance ${b.instance} shows the note saved in instance ${a.instance}`,
      );
      await ctx.main.ok('space_launch', { space_id, package: NOTES, instance: a.instance });
      expectThat(await screenShows(ctx.main, space_id, 'conformance-a'), `instance ${a.instance} lost its note`);
      return {
        status: 'pass',
        sent: [],
        received: `instances ${a.instance} and ${b.instance}: the note only in ${a.instance}`,
      };
    },
  },
  {
    id: 'semantics.stop_keeps_clear_wipes',
    group: 'semantics',
    title: 'a stopped instance keeps its data; a cleared one does not',
    section: '§3.3 (virtual ActivityManager), §3.6 (data isolation); extension clear_data',
    expects: 'after space_stop the note is there on the next launch; after space_stop clear_data:true it is gone',
    fix: "space_stop ends the process only; clear_data also deletes the instance's data directory.",
    required: true,
    async run(ctx) {
      if (!has(ctx, 'clear_data')) return skip('clear_data');
      const space_id = await ctx.space();
      // The first instance: this check is about one instance's data, not about making another.
      await ctx.main.ok('space_stop', { space_id, package: NOTES });
      const { instance } = await ctx.main.ok('space_launch', { space_id, package: NOTES });
      await addNote(ctx.main, space_id, 'conformance-kept');
      await ctx.main.ok('space_stop', { space_id, package: NOTES, instance });
      await ctx.main.ok('space_launch', { space_id, package: NOTES, instance });
      expectThat(
        await screenShows(ctx.main, space_id, 'conformance-kept'),
        'the note was gone after a plain space_stop',
      );
      await ctx.main.ok('space_stop', { space_id, package: NOTES, instance, clear_data: true });
      await ctx.main.ok('space_launch', { space_id, package: NOTES, instance });
      expectThat(
        !(await screenShows(ctx.main, space_id, 'conformance-kept')),
        'the note was still there after space_stop clear_data:true',
      );
      return { status: 'pass', sent: [], received: 'kept after stop, gone after clear_data' };
    },
  },
  {
    id: 'semantics.lease_excludes',
    group: 'semantics',
    title: 'an EXCLUSIVE lease excludes another session',
    section: '§5.5 (sessions and leases)',
    expects: 'session_acquire by a second session on a held space answers SPACE_BUSY',
    fix: 'Keep one EXCLUSIVE lease per space; a second acquire answers SPACE_BUSY (or queues with wait_ms).',
    required: true,
    async run(ctx) {
      const space_id = await ctx.space();
      const other = await ctx.connect();
      const a = await other.call('session_acquire', { space_id });
      expectThat(!a.ok && a.error.code === 'SPACE_BUSY', `expected SPACE_BUSY, got ${describeAnswer(a)}`);
      return { status: 'pass', sent: other.sent, received: describeAnswer(a) };
    },
  },
  {
    id: 'semantics.lease_reclaimed',
    group: 'semantics',
    title: 'a lease is reclaimed when its session ends',
    section: '§5.5 (sessions and leases): "MCP disconnects … release them immediately"',
    expects: 'after the holding session disconnects, another session acquires the space at once',
    fix: "On the MCP session's end (DELETE, or the stream closing) release every lease it holds.",
    required: true,
    async run(ctx) {
      const holder = await ctx.connect();
      const { space_id } = await holder.ok('space_create', { name: 'conformance-reclaim' });
      await holder.ok('session_acquire', { space_id });
      await holder.close();
      const next = await ctx.connect();
      const a = await next.call('session_acquire', { space_id, wait_ms: 1000 });
      expectThat(a.ok, `after the holder disconnected: ${describeAnswer(a)}`);
      return { status: 'pass', sent: [...holder.sent, ...next.sent], received: describeAnswer(a) };
    },
  },
  {
    id: 'semantics.crash_isolated',
    group: 'semantics',
    title: 'a crashed instance is reported as crashed; the others live on',
    section: '§3.3 (virtual ActivityManager), §3.8 (process model)',
    expects:
      "after Shop crashes (an empty coupon), space_list_apps reports its instance crashed and Notes' still running",
    fix: 'Watch each instance\'s process; report state "crashed" for the one that died and keep the others\' processes.',
    required: true,
    async run(ctx) {
      const space_id = await ctx.space();
      await ctx.main.ok('space_launch', { space_id, package: NOTES });
      await ctx.main.ok('space_launch', { space_id, package: SHOP, activity: '.CartActivity' });
      await ctx.main.call('ui_tap', {
        space_id,
        node_id: (await findNode(ctx.main, space_id, 'apply_coupon')).node.id,
      });
      const shop = await instancesOf(ctx, space_id, SHOP);
      const notes = await instancesOf(ctx, space_id, NOTES);
      expectThat(
        shop.some((i) => i.state === 'crashed'),
        `shop instances: ${JSON.stringify(shop)}`,
      );
      expectThat(
        notes.some((i) => i.state === 'background' || i.state === 'foreground'),
        `notes instances: ${JSON.stringify(notes)}`,
      );
      return { status: 'pass', sent: [], received: `shop ${JSON.stringify(shop)}; notes ${JSON.stringify(notes)}` };
    },
  },
  {
    id: 'semantics.tree_matches_screenshot',
    group: 'semantics',
    title: "the accessibility tree matches the screenshot's geometry",
    section: '§4.2 (observation protocol), §4.4 (vision fallback)',
    expects: "ui_screenshot's width and height equal ui_observe's screen, and every node's bounds lie inside it",
    fix: "Take bounds in screen pixels of the same display the screenshot captures (getBoundsInScreen on the space's display).",
    required: true,
    async run(ctx) {
      const space_id = await ctx.space();
      await ctx.main.ok('space_launch', { space_id, package: NOTES });
      const obs = await ctx.main.ok('ui_observe', { space_id, max_nodes: 500 });
      const shot = await ctx.main.ok('ui_screenshot', { space_id });
      const { width, height } = obs.screen as { width: number; height: number };
      expectThat(
        shot.width === width && shot.height === height,
        `screenshot ${shot.width}x${shot.height}, screen ${width}x${height}`,
      );
      const outside = (obs.nodes as Node[]).filter(
        ({ bounds: [l, t, r, b] }) => l < 0 || t < 0 || r > width || b > height || l > r || t > b,
      );
      expectThat(
        outside.length === 0,
        `nodes outside the ${width}x${height} screen: ${outside
          .slice(0, 3)
          .map((n) => `${n.id} ${JSON.stringify(n.bounds)}`)
          .join(', ')}`,
      );
      return { status: 'pass', sent: [], received: `${width}x${height}, ${(obs.nodes as Node[]).length} nodes inside` };
    },
  },
  {
    id: 'semantics.observation_after_newer',
    group: 'semantics',
    title: "an action's observation after is newer than the one before",
    section: '§4.3 (action protocol), §4.2 (snapshot_id, timestamp_ms)',
    expects:
      'after a tap that changes the screen, ui_observe answers another snapshot_id and a timestamp_ms not before the earlier one',
    fix: 'Make a new snapshot id for every changed screen and stamp observations with the time they were taken.',
    required: true,
    async run(ctx) {
      const space_id = await ctx.space();
      await ctx.main.ok('space_stop', { space_id, package: NOTES });
      await ctx.main.ok('space_launch', { space_id, package: NOTES });
      const before = await ctx.main.ok('ui_observe', { space_id, max_nodes: 500 });
      const node = (before.nodes as Node[]).find((n) => n.res_id?.endsWith(':id/new_note'));
      expectThat(node, 'no New note button on the Notes list');
      await ctx.main.ok('ui_tap', { space_id, node_id: node.id });
      const after = await ctx.main.ok('ui_observe', { space_id });
      expectThat(
        after.snapshot_id !== before.snapshot_id,
        `the same snapshot_id ${after.snapshot_id} before and after`,
      );
      expectThat(
        after.timestamp_ms >= before.timestamp_ms,
        `timestamp_ms ${after.timestamp_ms} after, ${before.timestamp_ms} before`,
      );
      return {
        status: 'pass',
        sent: [],
        received: `${before.snapshot_id}@${before.timestamp_ms} → ${after.snapshot_id}@${after.timestamp_ms}`,
      };
    },
  },
];

import { describeIssues, getTool } from '../../../device-runtime/protocol/index.js';
import { expectThat, type Check } from '../check.js';
import { describeAnswer } from '../session.js';
import { CORE_TOOLS } from './handshake.js';

const SECTION: Record<string, string> = {
  ui_observe: '§4.2 (observation protocol)',
  ui_tap: '§4.3 (action protocol)',
  ui_set_text: '§4.3 (action protocol)',
  ui_key: '§4.3 (action protocol)',
  session_acquire: '§5.5 (sessions and leases)',
  session_release: '§5.5 (sessions and leases)',
  session_status: '§5.5 (sessions and leases)',
};

/**
 * One check per tool nestwright calls: the documented input is accepted and the answer is valid
 * against the tool's result schema (a required field missing or renamed fails; an extra one is
 * fine). The calls are made once per run, in a space of the kit's own (the tour).
 */
export const toolChecks: Check[] = CORE_TOOLS.filter((t) => t !== 'session_release').map((name): Check => ({
  id: `tools.${name}`,
  group: 'tools',
  title: `${name}: input accepted, output valid`,
  section: SECTION[name] ?? '§5.7 (tool list), §5.8 (tool schema)',
  expects: `${name} accepts its documented arguments and answers every required field of its result schema (docs/protocol.md#${name})`,
  fix: `Compare the answer with ${name}'s result schema in docs/protocol.md: field names and types as listed, required ones always present.`,
  required: true,
  async run(ctx) {
    const tour = await ctx.tour();
    const call = tour.get(name);
    expectThat(call, `the kit could not reach a ${name} call (an earlier step failed: see the other tools checks)`);
    const sent = [`${name} ${JSON.stringify(call.args)}`];
    expectThat(call.answer.ok, describeAnswer(call.answer));
    const parsed = getTool(name)!.result.safeParse(call.answer.body);
    if (!parsed.success) return { status: 'fail', sent, received: describeIssues(parsed.error, 'result') };
    return { status: 'pass', sent, received: describeAnswer(call.answer) };
  },
}));

/** session_release is checked on a session of its own, on a space of its own. */
toolChecks.push({
  id: 'tools.session_release',
  group: 'tools',
  title: 'session_release: input accepted, output valid',
  section: SECTION.session_release!,
  expects: 'session_release answers { released: [lease ids] } (docs/protocol.md#session_release)',
  fix: "Compare the answer with session_release's result schema in docs/protocol.md.",
  required: true,
  async run(ctx) {
    const s = await ctx.connect();
    const { space_id } = await s.ok('space_create', { name: 'conformance-release' });
    await s.ok('session_acquire', { space_id });
    const a = await s.call('session_release', { space_id });
    expectThat(a.ok, describeAnswer(a));
    const parsed = getTool('session_release')!.result.safeParse(a.body);
    expectThat(parsed.success, parsed.success ? '' : describeIssues(parsed.error, 'result'));
    await s.call('space_delete', { space_id, confirm: true });
    return { status: 'pass', sent: s.sent, received: describeAnswer(a) };
  },
});

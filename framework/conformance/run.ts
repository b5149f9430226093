import {
  CheckFailed,
  type Check,
  type CheckOutcome,
  type ConformanceContext,
  type ConformanceTarget,
} from './check.js';
import { NOTES, packagedApks } from './fixtures.js';
import { Session, type Answer } from './session.js';
import { ALL_CHECKS } from './checks.js';

/** One check's line of the report: the check's description, what it sent and got back, and its status. */
export interface CheckReport {
  id: string;
  group: Check['group'];
  title: string;
  required: boolean;
  status: CheckOutcome['status'];
  section: string;
  expects: string;
  sent: string[];
  received: string;
  fix: string;
  ms?: number;
}

/** What {@link runConformance} returns: the runtime checked, every check's report, and the count of failed required checks. */
export interface ConformanceReport {
  runtime: { name: string; version: string; protocol_version: string } | null;
  checks: CheckReport[];
  /** Failed required checks: non-zero means the runtime is not nestwright-ready. */
  failed: number;
  ms: number;
}

/**
 * Run the conformance checks (all, or those whose group or id is in `only`) against a live
 * runtime. Each check runs on its own: one that fails, or throws, leaves the others unaffected.
 */
export async function runConformance(
  target: ConformanceTarget,
  opts: { only?: string[]; checks?: readonly Check[] } = {},
): Promise<ConformanceReport> {
  const t0 = performance.now();
  const sessions: Session[] = [];
  const connect = async () => {
    const s = new Session(await target.connect());
    sessions.push(s);
    return s;
  };
  const main = await connect();
  const infoAnswer = await main.call('runtime_info', {});
  const info = infoAnswer.ok ? infoAnswer.body : null;
  const apks = target.apks ?? packagedApks();
  let spacePromise: Promise<string> | null = null;
  let tourPromise: Promise<Map<string, { args: Record<string, unknown>; answer: Answer }>> | null = null;
  const setup = new Map<string, { args: Record<string, unknown>; answer: Answer }>();
  const record = async (name: string, args: Record<string, unknown>) => {
    const answer = await main.call(name, args);
    setup.set(name, { args, answer });
    return answer.ok ? (answer.body as any) : null;
  };
  const ctx: ConformanceContext = {
    main,
    connect,
    apks,
    info,
    space: () =>
      (spacePromise ??= (async () => {
        const created = await record('space_create', { name: 'nestwright-conformance' });
        if (!created?.space_id)
          throw new CheckFailed(`space_create answered ${JSON.stringify(setup.get('space_create')?.answer)}`);
        const space_id = created.space_id as string;
        await record('session_acquire', { space_id });
        await record('space_install_apk', { space_id, apk_paths: [apks.notes] });
        await main.ok('space_install_apk', { space_id, apk_paths: [apks.shop] });
        return space_id as string;
      })()),
    tour: () =>
      (tourPromise ??= (async () => {
        const space_id = await ctx.space();
        await record('space_list', {});
        await record('space_list_apps', { space_id });
        await record('space_launch', { space_id, package: NOTES });
        await record('space_status', { space_id });
        const obs = (await record('ui_observe', { space_id, max_nodes: 500 })) ?? {};
        await record('ui_screenshot', { space_id });
        const nodes = (obs.nodes ?? []) as Array<{ id: string; res_id?: string | null }>;
        const newNote = nodes.find((n) => n.res_id?.endsWith(':id/new_note'));
        if (newNote) await record('ui_tap', { space_id, node_id: newNote.id });
        const edit = ((await main.ok('ui_observe', { space_id })).nodes ?? []) as Array<{
          id: string;
          res_id?: string | null;
        }>;
        const title = edit.find((n) => n.res_id?.endsWith(':id/title'));
        if (title) await record('ui_set_text', { space_id, node_id: title.id, text: 'conformance' });
        await record('ui_key', { space_id, key: 'back' });
        await record('sys_logcat', { space_id });
        await record('session_status', { space_id });
        await record('space_stop', { space_id, package: NOTES });
        return setup;
      })()),
  };
  const wanted = (c: Check) => !opts.only?.length || opts.only.some((o) => o === c.group || o === c.id);
  const checks: CheckReport[] = [];
  for (const check of (opts.checks ?? ALL_CHECKS).filter(wanted)) {
    const marks = new Map(sessions.map((s) => [s, s.sent.length]));
    const sentSince = () => sessions.flatMap((s) => s.sent.slice(marks.get(s) ?? 0));
    let outcome: CheckOutcome;
    try {
      outcome = await check.run(ctx);
    } catch (e) {
      outcome = {
        status: check.required ? 'fail' : 'warn',
        sent: sentSince(),
        received: e instanceof CheckFailed ? e.received : `the check threw: ${(e as Error)?.message ?? String(e)}`,
      };
    }
    const { run: _run, ...meta } = check;
    checks.push({
      ...meta,
      status: outcome.status,
      sent: outcome.sent.length ? outcome.sent : sentSince(),
      received: outcome.received,
      ...(outcome.ms !== undefined ? { ms: outcome.ms } : {}),
    });
  }
  for (const s of sessions) await s.close().catch(() => {});
  const rt = info as { runtime?: { name: string; version: string }; protocol_version?: string } | null;
  return {
    runtime: rt?.runtime
      ? { name: rt.runtime.name, version: rt.runtime.version, protocol_version: String(rt.protocol_version) }
      : null,
    checks,
    failed: checks.filter((c) => c.required && c.status === 'fail').length,
    ms: Math.round(performance.now() - t0),
  };
}

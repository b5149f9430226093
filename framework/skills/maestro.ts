import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { Skill } from '../../device-runtime/protocol/skill/index.js';
import type { FlowIssue } from '../maestro/parse.js';
import { planFlow, resolveAppId, shownPath, type Command, type PlannedFlow } from '../maestro/plan.js';
import { convertCommand, paramsIn, targetOf, type Step } from './maestro-steps.js';

/**
 * `nestwright import maestro`: a Maestro flow and everything it runs as skills, read with the
 * same parser and planner `nestwright maestro test` runs (so lines, sub-flows and env resolve
 * alike). Each flow file becomes one skill; no two share a skill file (names come from the path
 * under the top flow's folder). A `runFlow` with `when` or a `retry` of inline commands becomes a
 * skill of its own, run by a `run` step with `when` or `retries`. `--env` values are substituted
 * at import time (`appId: ${APP_ID}` too); other `${NAME}` become skill parameters. Whatever a
 * skill cannot express is a problem with its file and line; a bad sub-flow is reported and the
 * rest is imported.
 */

/**
 * A command not imported: its file, line and why. `SCRIPT_OUTSIDE_SUITE`: a `runScript` whose file
 * resolves (through `..`, an absolute path or a symlink) outside the suite's folder; the skill
 * would carry a copy of that file, so it is left out.
 */
export type ImportProblem = FlowIssue & { code?: 'SCRIPT_OUTSIDE_SUITE' };

export interface ImportOptions {
  /** `--env` values, substituted at import time. */
  env?: Record<string, string>;
  /** The app the skills drive (else the flow's `appId`). */
  app?: string;
  /** The folder scripts may be copied from: the suite's (default: the flow's own folder). */
  suite?: string;
}

/** Why a script may not be copied into a skill: its real path is outside the suite's real folder; null when inside. */
function outsideSuite(file: string, suite: string): string | null {
  const real = realpathSync(file);
  const root = realpathSync(suite);
  const rel = path.relative(root, real);
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return null;
  return `the script ${shownPath(file)}${real !== path.resolve(file) ? ` (a link to ${real})` : ''} is outside the suite's folder ${root}; a skill copies only scripts from inside it: move the script into the suite, or give the folder that holds both with --suite`;
}

export interface ImportedSkill {
  /** The flow file it came from (as shown), or the inline block's `file:line`. */
  source: string;
  /** The skill file's name, relative to the output folder. */
  target: string;
  skill: Skill | null;
}

export interface MaestroImport {
  skills: ImportedSkill[];
  /** The target of the top flow's skill (written where `-o` says), null when the flow did not plan. */
  top: string | null;
  /** Not imported: each with its file, line and why. */
  problems: ImportProblem[];
  /** Imported, with a difference worth knowing. */
  notes: ImportProblem[];
  /** Every command met, by name, and whether it was imported (the corpus measure). */
  commands: Array<{ name: string; imported: boolean; file: string }>;
}

type Json = Record<string, unknown>;

/** A skill-file name: `helpers/Login.yaml` → `helpers-login.yaml`. */
export function skillFileFor(rel: string): string {
  return `${rel
    .replace(/\\/g, '/')
    .replace(/\.ya?ml$/i, '')
    .replace(/^(\.\.\/)+/, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')}.yaml`;
}

function substitute(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string')
    return value.replace(/\$\{\s*([A-Za-z_][\w]*)\s*\}/g, (m, k: string) => (k in env ? env[k]! : m));
  if (Array.isArray(value)) return value.map((v) => substitute(v, env));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, env)]));
  return value;
}

/** A Maestro condition (`when`, a repeat's `while`) as a skill check, or why it has none. */
function condition(w: Json): Json | string {
  if (w.true !== undefined) return { true: typeof w.true === 'boolean' ? w.true : String(w.true) };
  const t = (w.visible ?? w.notVisible) as unknown;
  if (t === undefined) return 'a condition is visible, notVisible, true or platform';
  const target = targetOf(t);
  if (typeof target === 'string') return target;
  const one = target.length === 1 ? target[0] : target;
  return w.visible !== undefined ? { visible: one } : { hidden: one };
}

export function importMaestro(file: string, opts: ImportOptions = {}): MaestroImport {
  const env = opts.env ?? {};
  const plan = planFlow(file);
  const out: MaestroImport = { skills: [], top: null, problems: [...plan.issues], notes: [], commands: [] };
  if (!plan.flow) return out;
  const root = path.dirname(path.resolve(file));
  const suite = path.resolve(opts.suite ?? root);
  const targets = new Map<string, string>();
  const used = new Set<string>();
  const targetFor = (key: string, base: string) => {
    if (targets.has(key)) return targets.get(key)!;
    let name = skillFileFor(base);
    for (let n = 2; used.has(name); n++) name = name.replace(/(-\d+)?\.yaml$/, `-${n}.yaml`);
    used.add(name);
    targets.set(key, name);
    return name;
  };
  const top = resolveAppId(plan.flow.appId, { ...plan.flow.env, ...env });
  const app = opts.app ?? ('appId' in top ? top.appId : null);
  if (!app)
    out.problems.push({ file: plan.flow.file, line: 1, command: 'appId', reason: (top as { error: string }).error });
  const queue: Array<{ flow: PlannedFlow; target: string }> = [];
  const runs: Array<{ steps: Step[]; target: string; cmd: Command; counted: number }> = [];
  const seen = new Set<PlannedFlow>();
  const flowTarget = (f: PlannedFlow) => {
    const t = targetFor(f.file, path.relative(root, path.resolve(f.file)));
    if (!seen.has(f)) {
      seen.add(f);
      queue.push({ flow: f, target: t });
    }
    return t;
  };
  out.top = flowTarget(plan.flow);
  while (queue.length) {
    const { flow, target } = queue.shift()!;
    const issue = (c: Command, reason: string) =>
      void out.problems.push({ file: c.file, line: c.line, command: c.name, reason });
    const note = (c: Command, reason: string) =>
      void out.notes.push({ file: c.file, line: c.line, command: c.name, reason });
    const convert = (list: Command[], ownerTarget: string): Step[] => {
      const steps: Step[] = [];
      for (const raw of list) {
        const c = { ...raw, arg: substitute(raw.arg, env) };
        const outside = c.script ? outsideSuite(c.script.path, suite) : null;
        if (outside) {
          out.commands.push({ name: c.name, imported: false, file: c.file });
          out.problems.push({
            file: c.file,
            line: c.line,
            command: c.name,
            reason: outside,
            code: 'SCRIPT_OUTSIDE_SUITE',
          });
          continue;
        }
        const r = convertCommand(c, app);
        if ('reason' in r) {
          out.commands.push({ name: c.name, imported: false, file: c.file });
          issue(c, r.reason);
          continue;
        }
        if ('block' in r) {
          const s = block(c, ownerTarget);
          out.commands.push({ name: c.name, imported: s !== null, file: c.file });
          if (s) steps.push(...s);
          continue;
        }
        out.commands.push({ name: c.name, imported: true, file: c.file });
        if (r.note) note(c, r.note);
        steps.push(...r.steps);
      }
      return steps;
    };
    /** runFlow / retry / repeat as steps: a sub-skill run, or the inline steps. */
    const block = (c: Command, ownerTarget: string): Step[] | null => {
      const a = (c.arg && typeof c.arg === 'object' ? c.arg : {}) as Json;
      const params = Object.fromEntries(Object.entries((a.env ?? {}) as Json).map(([k, v]) => [k, String(v)]));
      let when: Json | undefined;
      if (a.when) {
        const w = a.when as Json;
        if (w.platform !== undefined && String(w.platform).toLowerCase() !== 'android')
          return (note(c, `runs on ${w.platform} only: left out of the Android skill`), []);
        if (w.true !== undefined || w.visible !== undefined || w.notVisible !== undefined) {
          const cond = condition(w);
          if (typeof cond === 'string') return (issue(c, `when: ${cond}`), null);
          when = cond;
        }
      }
      let times = 1;
      // A loop the skill runs (`run` with `times`/`while`), not steps written out.
      let loop: { times?: number | string; while?: Json } | undefined;
      if (c.name === 'repeat') {
        if (a.while !== undefined) {
          const cond = condition(a.while as Json);
          if (typeof cond === 'string') return (issue(c, `repeat while: ${cond}`), null);
          loop = { while: cond };
        }
        const n = Number(a.times);
        if (a.times === undefined) times = 1;
        else if (typeof a.times === 'string' && /\$\{/.test(a.times)) loop = { ...loop, times: a.times };
        else if (!Number.isInteger(n) || n < 0)
          return (issue(c, `repeat ${String(a.times)} times: times is a whole number or a \${…} expression`), null);
        else if (loop || n > 20) loop = { ...loop, times: n };
        else times = n;
      }
      const retries = c.name === 'retry' ? Math.min(3, Math.max(1, Number(a.maxRetries ?? 1))) : undefined;
      const extra = { ...(when ? { when } : {}), ...(retries ? { retries } : {}) };
      let skillFile: string | null = null;
      if (c.flow) skillFile = flowTarget(c.flow);
      else if (when || retries || loop) {
        // Inline commands that must pass or be skipped as one: a skill of their own.
        const key = `${c.file}:${c.line}`;
        skillFile = targetFor(key, `${ownerTarget.replace(/\.yaml$/, '')}-${c.name}-line-${c.line}`);
        const inline: PlannedFlow = {
          file: c.file,
          name: `${path.basename(c.file).replace(/\.ya?ml$/i, '')} line ${c.line}`,
          appId: null,
          tags: [],
          env: {},
          onFlowStart: [],
          onFlowComplete: [],
          commands: c.children ?? [],
        };
        const inner = convert(inline.commands, skillFile);
        if (!inner.length) return (issue(c, 'none of its commands could be imported'), null);
        out.skills.push(makeSkill(inline, key, skillFile, inner));
      }
      if (skillFile) {
        const steps = Array.from({ length: times }, () => ({ run: { skill: skillFile, params, ...loop }, ...extra }));
        runs.push({ steps, target: skillFile, cmd: c, counted: out.commands.length });
        return steps;
      }
      const inner = convert(c.children ?? [], ownerTarget);
      return Array.from({ length: times }, () => inner).flat();
    };
    const makeSkill = (f: PlannedFlow, source: string, t: string, steps: Step[]): ImportedSkill => {
      const params: Record<string, { type: 'string'; default?: string }> = {};
      for (const [k, v] of Object.entries(f.env)) if (!(k in env)) params[k] = { type: 'string', default: v };
      for (const k of paramsIn(steps)) params[k] ??= { type: 'string' };
      const name =
        f.name
          .toLowerCase()
          .replace(/[^a-z0-9._-]+/g, '-')
          .replace(/^[^a-z0-9]+|-+$/g, '') || 'flow';
      return {
        source,
        target: t,
        skill: app
          ? ({
              name,
              description: `Imported from the Maestro flow ${path.basename(f.file)}`,
              app,
              params,
              steps,
            } as unknown as Skill)
          : null,
      };
    };
    for (const extra of [...flow.onFlowStart, ...flow.onFlowComplete])
      note(
        extra,
        `${flow.onFlowStart.includes(extra) ? 'onFlowStart' : 'onFlowComplete'}: imported in place, as steps of the skill`,
      );
    const steps = convert([...flow.onFlowStart, ...flow.commands, ...flow.onFlowComplete], target);
    if (!steps.length)
      out.problems.push({
        file: flow.file,
        line: 1,
        command: '(flow)',
        reason: 'no command of this flow could be imported: the skill would do nothing',
      });
    out.skills.push(makeSkill(flow, shownPath(path.resolve(flow.file)), target, steps.length ? steps : []));
  }
  // A sub-flow that imported nothing has no skill: the steps that would run it are left out.
  const empty = new Set(out.skills.filter((s) => !s.skill?.steps.length).map((s) => s.target));
  for (const s of out.skills) if (empty.has(s.target)) s.skill = null;
  for (const r of runs)
    if (empty.has(r.target)) {
      out.problems.push({
        file: r.cmd.file,
        line: r.cmd.line,
        command: r.cmd.name,
        reason: `the flow it runs imported nothing, so this step is left out`,
      });
      if (out.commands[r.counted]) out.commands[r.counted]!.imported = false;
      for (const skill of out.skills)
        if (skill.skill)
          (skill.skill as { steps: unknown[] }).steps = skill.skill.steps.filter((x) => !r.steps.includes(x as never));
    }
  return out;
}

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { checkCommand, isCommandName, type CommandName } from './commands.js';
import { nestedCommands, parseFlow, type FlowIssue, type LineOf, type ParsedFlow, type RawCommand } from './parse.js';
import { checkSyntax } from './script.js';

/** yaml, loaded on the first parse rather than with the framework. */
let yamlModule: typeof import('yaml') | undefined;
const yaml = (): typeof import('yaml') =>
  (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

/**
 * The planner: a flow file read, every command checked, every sub-flow (`runFlow: file`, `retry:
 * file`) and script (`runScript`) read and checked too, before anything runs. Problems are all
 * collected, each with the file and line it is on; a bad sub-flow is reported and the rest of the
 * plan stands. Environment values resolve the way Maestro resolves them: `--env` over the flow's
 * own `env:` defaults, a `runFlow`'s `env` over the sub-flow's, and everything else inherited.
 */

export interface Command {
  name: CommandName;
  /** The argument as written; `${…}` are evaluated when it runs. */
  arg: unknown;
  file: string;
  line: number;
  /** Inline `commands:` of runFlow, repeat and retry. */
  children?: Command[];
  /** The sub-flow of `runFlow: file` / `retry: { file }`. */
  flow?: PlannedFlow;
  /** The script of `runScript`: its file as shown, its absolute path, its code. */
  script?: { file: string; path: string; code: string };
}

export interface PlannedFlow {
  file: string;
  /** `name:` or the file's base name. */
  name: string;
  /** As written (may hold `${APP_ID}`): resolved by {@link resolveAppId}. */
  appId: string | null;
  tags: string[];
  /** The flow's own `env:` defaults. */
  env: Record<string, string>;
  onFlowStart: Command[];
  onFlowComplete: Command[];
  commands: Command[];
}

export interface FlowPlan {
  flow: PlannedFlow | null;
  issues: FlowIssue[];
  /** Every file the plan read (the flow, sub-flows, scripts). */
  files: string[];
}

interface Ctx {
  issues: FlowIssue[];
  files: Set<string>;
  cache: Map<string, PlannedFlow | null>;
  stack: string[];
}

/** Plan a flow file: parse, check, and read everything it runs. */
export function planFlow(file: string): FlowPlan {
  const ctx: Ctx = { issues: [], files: new Set(), cache: new Map(), stack: [] };
  const flow = planFile(path.resolve(file), ctx, null);
  return { flow, issues: ctx.issues, files: [...ctx.files] };
}

/** How a path reads in messages: relative to the working directory when under it. */
export function shownPath(p: string): string {
  const rel = path.relative(process.cwd(), p);
  return rel && !rel.startsWith('..') ? rel : p;
}

function planFile(abs: string, ctx: Ctx, from: { file: string; line: number } | null): PlannedFlow | null {
  const shown = shownPath(abs);
  if (ctx.cache.has(abs)) return ctx.cache.get(abs)!;
  if (ctx.stack.includes(abs)) {
    ctx.issues.push({
      file: from!.file,
      line: from!.line,
      command: 'runFlow',
      reason: `the flow runs itself: ${[...ctx.stack, abs].map(shownPath).join(' → ')}`,
    });
    return null;
  }
  if (!existsSync(abs) || !statSync(abs).isFile()) {
    ctx.issues.push({
      file: from?.file ?? shown,
      line: from?.line ?? 1,
      command: from ? 'runFlow' : '(file)',
      reason: `no flow file ${shown}`,
    });
    return null;
  }
  ctx.files.add(abs);
  const parsed = parseFlow(readFileSync(abs, 'utf8'), shown);
  ctx.issues.push(...parsed.issues);
  ctx.stack.push(abs);
  const flow = build(parsed, abs, ctx);
  ctx.stack.pop();
  ctx.cache.set(abs, flow);
  return flow;
}

function build(parsed: ParsedFlow, abs: string, ctx: Ctx): PlannedFlow {
  const conv = (list: RawCommand[]) => commands(list, parsed, abs, ctx);
  return {
    file: parsed.file,
    name: parsed.config.name ?? path.basename(abs).replace(/\.ya?ml$/i, ''),
    appId: parsed.config.appId ?? null,
    tags: parsed.config.tags,
    env: parsed.config.env,
    onFlowStart: conv(parsed.config.onFlowStart),
    onFlowComplete: conv(parsed.config.onFlowComplete),
    commands: conv(parsed.commands),
  };
}

function commands(list: RawCommand[], parsed: ParsedFlow, abs: string, ctx: Ctx): Command[] {
  const out: Command[] = [];
  for (const raw of list) {
    const c = command(raw, parsed, abs, ctx);
    if (c) out.push(c);
  }
  return out;
}

function command(raw: RawCommand, parsed: ParsedFlow, abs: string, ctx: Ctx): Command | null {
  const file = parsed.file;
  const issue = (reason: string) => void ctx.issues.push({ file, line: raw.line, command: raw.name, reason });
  if (!isCommandName(raw.name)) {
    issue(`\`${raw.name}\` is not a Maestro command`);
    return null;
  }
  const problem = checkCommand(raw.name, raw.arg);
  if (problem) {
    issue(problem);
    return null;
  }
  const cmd: Command = { name: raw.name, arg: raw.arg, file, line: raw.line };
  const a = (raw.arg && typeof raw.arg === 'object' ? raw.arg : {}) as Record<string, unknown>;
  const nested = () => {
    const lines = nestedCommands(raw, file, parsed.lineOf as LineOf, ctx.issues);
    if (lines) cmd.children = commands(lines, parsed, abs, ctx);
  };
  const sub = (name: string) => {
    if (name.includes('${')) {
      issue(`the sub-flow's file name ${JSON.stringify(name)} is computed when the flow runs; name the file itself`);
      return;
    }
    const flow = planFile(path.resolve(path.dirname(abs), name), ctx, { file, line: raw.line });
    if (flow) cmd.flow = flow;
  };
  if (raw.name === 'runFlow') {
    if (typeof raw.arg === 'string') sub(raw.arg);
    else if (typeof a.file === 'string') sub(a.file);
    else nested();
  } else if (raw.name === 'retry') {
    if (typeof a.file === 'string') sub(a.file);
    else nested();
  } else if (raw.name === 'repeat') nested();
  else if (raw.name === 'runScript') {
    const name = typeof raw.arg === 'string' ? raw.arg : String(a.file);
    const at = path.resolve(path.dirname(abs), name);
    if (!existsSync(at)) issue(`no script file ${shownPath(at)}`);
    else {
      const code = readFileSync(at, 'utf8');
      ctx.files.add(at);
      const bad = checkSyntax(code);
      if (bad) issue(`${shownPath(at)}: ${bad}`);
      cmd.script = { file: shownPath(at), path: at, code };
    }
  } else if (raw.name === 'evalScript') {
    const bad = scriptProblem(String(raw.arg));
    if (bad) issue(bad);
  }
  return cmd;
}

/** An `evalScript`'s JavaScript (`${…}` around it, as Maestro writes it) checked for syntax. */
function scriptProblem(text: string): string | null {
  const m = /^\s*\$\{([\s\S]*)\}\s*$/.exec(text);
  return checkSyntax(m ? m[1]! : text);
}

/**
 * Flow files of a folder as Maestro picks them: the `.yaml`/`.yml` files directly in it, or, when
 * its `config.yaml` has `flows:`, the files its globs name (`subfolder/*`, `**`).
 */
export function flowsIn(dir: string): string[] {
  const configFile = ['config.yaml', 'config.yml'].map((f) => path.join(dir, f)).find((f) => existsSync(f));
  const globs = configFile ? configGlobs(readFileSync(configFile, 'utf8')) : null;
  const all = walk(dir).filter((f) => /\.ya?ml$/i.test(f) && !/^config\.ya?ml$/i.test(path.basename(f)));
  const rel = (f: string) => path.relative(dir, f).split(path.sep).join('/');
  const picked = globs
    ? all.filter((f) => globs.some((g) => globRegex(g).test(rel(f))))
    : all.filter((f) => path.dirname(f) === path.resolve(dir));
  return picked.sort();
}

function configGlobs(text: string): string[] | null {
  const flows = (yaml().parse(text) as { flows?: unknown } | null)?.flows;
  return Array.isArray(flows) ? flows.map(String) : null;
}

function globRegex(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*\//g, '\u0000')
    .replace(/\*\*/g, '\u0001')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]')
    .replace(/\u0000/g, '(?:.*/)?')
    .replace(/\u0001/g, '.*');
  return new RegExp(`^${body}$`);
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.resolve(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/**
 * The shell's variables a flow sees without `--env`: as Maestro, those whose name starts with
 * `MAESTRO_` (`appId: ${MAESTRO_APP_ID}` resolves from the environment). `--env` values win.
 */
export function shellEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (k.startsWith('MAESTRO_') && v !== undefined) out[k] = v;
  return out;
}

/** `appId: ${APP_ID}` (or any `${NAME}`) with the values in scope, or the reason it stays unknown. */
export function resolveAppId(appId: string | null, env: Record<string, string>): { appId: string } | { error: string } {
  if (!appId) return { error: 'the flow has no `appId:` before `---`' };
  let missing: string | null = null;
  const out = appId.replace(/\$\{\s*([A-Za-z_$][\w$]*)\s*\}/g, (_m, k: string) => {
    if (k in env) return env[k]!;
    missing ??= k;
    return _m;
  });
  if (missing)
    return {
      error: `appId ${appId}: ${missing} has no value; give it with --env ${missing}=<package>${
        /^MAESTRO_/.test(missing) ? ` or export ${missing}` : ''
      }`,
    };
  if (out.includes('${')) return { error: `appId ${appId}: only \${NAME} variables are resolved in appId` };
  return { appId: out };
}

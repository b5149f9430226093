/**
 * `nestwright import maestro <flow.yaml> -o skills/<name>.yaml [--env K=V …] [--app apk|package] [--suite dir]`:
 * a Maestro flow as a skill, and every flow it runs as a skill beside it (one file each, named
 * after its path). Whatever cannot be imported is listed with its file, line and reason (and in a
 * comment at the top of its skill); a bad sub-flow does not stop the others. A `runScript` whose
 * file is outside the suite's folder (the flow's folder, or `--suite`) is not copied
 * (SCRIPT_OUTSIDE_SUITE).
 * Exit code: 0 everything imported, 1 some commands were not imported (the skills are still
 * written, without them), 2 bad input (usage, no flow file, nothing importable).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { parseSkill, SkillParseError } from '../../device-runtime/protocol/skill/index.js';
import { readApkFile } from '../../device-runtime/apk/apk-file.js';
// Only the planner and the importer: the replay would load Playwright, which an import never needs.
import { shellEnv, shownPath as display } from '../../framework/maestro/plan.js';
import { importMaestro, type ImportProblem } from '../../framework/skills/maestro.js';
import { stdio, type Io } from './io.js';

const USAGE = `Usage: nestwright import maestro <flow.yaml> -o skills/<name>.yaml [--env K=V …] [--app apk|package] [--apk path.apk] [--suite dir]

  Converts a Maestro flow into a skill. Flows named by runFlow are imported beside it.
  --env   a variable's value, substituted at import time (appId: \${APP_ID} too), repeatable;
          the shell's MAESTRO_* variables are read as Maestro reads them
  --app   the app the skills drive: an APK (its package is read) or a package name
  --apk   the APK the skill installs when run with \`nestwright skill run\` (written as apk:)
  --suite the suite's folder: runScript files are copied only from inside it (default: the flow's folder)
Exit code: 0 imported, 1 imported without some commands (listed with their lines), 2 bad input.
`;

export async function importCommand(argv: string[], io: Io = stdio): Promise<number> {
  const [kind, ...rest] = argv;
  if (kind === '--help' || kind === '-h') {
    io.out(USAGE);
    return 0;
  }
  if (kind !== 'maestro') {
    io.err(
      `nestwright import: ${kind ? `cannot import "${kind}"` : 'say what to import'}; nestwright imports Maestro flows: nestwright import maestro flow.yaml -o skills/flow.yaml\n`,
    );
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: {
        output: { type: 'string', short: 'o' },
        apk: { type: 'string' },
        app: { type: 'string' },
        suite: { type: 'string' },
        env: { type: 'string', short: 'e', multiple: true, default: [] },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    io.err(`nestwright import maestro: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(USAGE);
    return 0;
  }
  const [flow, ...extra] = parsed.positionals;
  if (!flow || extra.length || !parsed.values.output) {
    io.err(`nestwright import maestro: give one flow and -o <skill.yaml>.\n\n${USAGE}`);
    return 2;
  }
  if (!existsSync(flow)) {
    io.err(`nestwright import maestro: no flow file ${path.resolve(flow)}\n`);
    return 2;
  }
  const env: Record<string, string> = shellEnv(); // MAESTRO_* from the shell, as Maestro reads them
  for (const kv of parsed.values.env!) {
    const at = kv.indexOf('=');
    if (at <= 0) {
      io.err(`nestwright import maestro: --env ${kv}: write NAME=value\n`);
      return 2;
    }
    env[kv.slice(0, at)] = kv.slice(at + 1);
  }
  let app = parsed.values.app;
  if (app && /\.apk$/i.test(app)) {
    try {
      app = (await readApkFile(path.resolve(app))).manifest.package;
    } catch (e) {
      io.err(`nestwright import maestro: --app ${parsed.values.app}: ${(e as Error).message}\n`);
      return 2;
    }
  }
  const suite = parsed.values.suite;
  if (suite !== undefined && !existsSync(suite)) {
    io.err(`nestwright import maestro: --suite ${suite}: no such folder\n`);
    return 2;
  }
  const result = importMaestro(flow, { env, ...(app ? { app } : {}), ...(suite !== undefined ? { suite } : {}) });
  const out = path.resolve(parsed.values.output);
  const dir = path.dirname(out);
  const written: string[] = [];
  const failed: string[] = [];
  result.skills.forEach((entry) => {
    if (!entry.skill) return;
    const top = entry.target === result.top;
    const file = top ? out : path.join(dir, entry.target);
    const skill = {
      ...entry.skill,
      ...(parsed.values.apk && top ? { apk: path.relative(dir, path.resolve(parsed.values.apk)) } : {}),
    };
    // `run:` steps name the sub-skills by their file names beside the top one.
    const mine = result.problems.filter(
      (p) => p.file === entry.source || (entry.source.includes(':') && `${p.file}:${p.line}` === entry.source),
    );
    const header = [
      `# Imported by \`nestwright import maestro\` from ${entry.source}.`,
      ...(mine.length
        ? [
            '# Not imported (add steps for them by hand, or leave them out):',
            ...mine.map((p) => `#   line ${p.line}: ${p.command} — ${p.reason}`),
          ]
        : []),
      '# yaml-language-server: $schema=./skill.schema.json',
    ].join('\n');
    const text = `${header}\n${stringify(skill, { lineWidth: 0 })}`;
    try {
      parseSkill(text, display(file));
    } catch (e) {
      failed.push(
        `  ${entry.source}: the skill made from it does not parse: ${e instanceof SkillParseError ? e.message : String(e)}`,
      );
      return;
    }
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    written.push(display(file));
  });
  if (written.length) io.out(`wrote ${written.join(', ')}\n`);
  if (result.notes.length) io.out(`Imported with differences:\n${list(result.notes)}`);
  if (result.problems.length) io.err(`Not imported (${result.problems.length}):\n${list(result.problems)}`);
  if (failed.length) io.err(`${failed.join('\n')}\n`);
  if (!written.includes(display(out))) {
    io.err(`nestwright import maestro: ${display(path.resolve(flow))} could not be imported\n`);
    return 2;
  }
  return result.problems.length || failed.length ? 1 : 0;
}

function list(items: ImportProblem[]): string {
  return items.map((p) => `  ${p.file}:${p.line} ${p.command}: ${p.code ? `${p.code}: ` : ''}${p.reason}\n`).join('');
}

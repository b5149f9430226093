/**
 * `nestwright import maestro <flow.yaml> -o skills/<name>.yaml`: a Maestro flow as a skill, and
 * every flow it runs (`runFlow: file`) as a skill beside it. Whatever cannot be imported is
 * listed with its file, line and reason (and in a comment at the top of the skill).
 * Exit code: 0 everything imported, 1 some commands were not imported (the skill is still
 * written, without them), 2 bad input (usage, unreadable file, nothing importable).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { parseSkill, SkillParseError } from '../../device-runtime/protocol/skill/index.js';
import { importMaestro, type ImportProblem } from '../../framework/skills/maestro.js';
import { shown as display } from '../../framework/skills/replay.js';
import { stdio, type Io } from './io.js';

const USAGE = `Usage: nestwright import maestro <flow.yaml> -o skills/<name>.yaml [--apk path.apk]

  Converts a Maestro flow into a skill. Flows named by runFlow are imported beside it.
  --apk   the APK the skill installs when run with \`nestwright skill run\` (written as apk:)
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
  const problems: ImportProblem[] = [];
  const notes: ImportProblem[] = [];
  const done = new Set<string>();
  const written: string[] = [];
  const queue: Array<{ source: string; out: string }> = [
    { source: path.resolve(flow), out: path.resolve(parsed.values.output) },
  ];
  while (queue.length) {
    const { source, out } = queue.shift()!;
    if (done.has(source)) continue;
    done.add(source);
    if (!existsSync(source)) {
      io.err(`nestwright import maestro: no flow file ${source}\n`);
      return 2;
    }
    const shown = display(source);
    const result = importMaestro(readFileSync(source, 'utf8'), shown);
    problems.push(...result.problems);
    notes.push(...result.notes);
    if (!result.skill) {
      io.err(`nestwright import maestro: ${shown} could not be imported:\n${list(result.problems)}`);
      return 2;
    }
    const skill = {
      ...result.skill,
      ...(parsed.values.apk && written.length === 0
        ? { apk: path.relative(path.dirname(out), path.resolve(parsed.values.apk)) }
        : {}),
    };
    const header = [
      `# Imported by \`nestwright import maestro\` from ${shown}.`,
      ...(result.problems.length
        ? [
            '# Not imported (add steps for them by hand, or leave them out):',
            ...result.problems.map((p) => `#   line ${p.line}: ${p.command} — ${p.reason}`),
          ]
        : []),
      '# yaml-language-server: $schema=./skill.schema.json',
    ].join('\n');
    const text = `${header}\n${stringify(skill, { lineWidth: 0 })}`;
    // What is written must be a valid skill: parse it back with the one schema.
    try {
      parseSkill(text, display(out));
    } catch (e) {
      io.err(
        `nestwright import maestro: the skill made from ${shown} does not parse:\n${e instanceof SkillParseError ? e.message : String(e)}\n`,
      );
      return 2;
    }
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, text);
    written.push(display(out));
    for (const sub of result.subflows)
      queue.push({
        source: path.resolve(path.dirname(source), sub.source),
        out: path.resolve(path.dirname(out), sub.target),
      });
  }
  io.out(`wrote ${written.join(', ')}\n`);
  if (notes.length) io.out(`Imported with differences:\n${list(notes)}`);
  if (problems.length) {
    io.err(`Not imported (${problems.length}):\n${list(problems)}`);
    return 1;
  }
  return 0;
}

function list(items: ImportProblem[]): string {
  return items.map((p) => `  ${p.file}:${p.line} ${p.command}: ${p.reason}\n`).join('');
}

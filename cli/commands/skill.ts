/**
 * `nestwright skill run <file> [--app path.apk] [--param k=v …] [--device url [--token t]]`
 * replays a skill outside a test: exit 0 passed, 1 failed (the failing step, its reason and the
 * screen), 2 bad input (file, parameters, arguments, an unreachable device).
 * `nestwright skill record <spec> --grep <title> -o skills/x.yaml` turns a passing test into a skill.
 * `nestwright skill schema [-o file]` prints the JSON Schema of skill files, for editors.
 * `nestwright skill proposals [--apply]` lists (and applies) the rewrites AI fallbacks proposed.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { skillJsonSchema } from '../../device-runtime/protocol/skill/index.js';
import { NestwrightError } from '../../framework/core/errors.js';
import { planSkill, replaySkill, type PlannedSkill } from '../../framework/skills/index.js';
import { shown } from '../../framework/skills/replay.js';
import { Space } from '../../framework/core/space.js';
import { Trajectory } from '../../framework/core/trajectory.js';
import { stdio, type Io } from './io.js';

const USAGE = `Usage:
  nestwright skill run <file.yaml> [--app path.apk|package] [--param k=v …] [--device url [--token t]] [--timeout ms] [--json]
  nestwright skill record <spec file> --grep <test title> -o skills/<name>.yaml [--name n]
  nestwright skill schema [-o skills/skill.schema.json]
  nestwright skill proposals [--apply [ID...]] [--reject ID...] [--dir DIR] [--json]

run     replays a skill on a fresh instance of its app: exit 0 passed, 1 failed, 2 bad input.
        Without --device, an embedded simulated device is started for the run. The token of a
        remote runtime comes from --token or NESTWRIGHT_TOKEN.
record  runs one passing test and writes its steps as a skill (see \`nestwright skill record --help\`).
schema  prints the JSON Schema of skill files (for yaml-language-server and other editors).
proposals  lists the step rewrites that skills' AI fallbacks proposed (ai: fallback); --apply
        writes them into the skill files.
`;

export async function skillCommand(argv: string[], io: Io = stdio): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'run':
      return runCommand(rest, io);
    case 'record':
      return (await import('./skill-record.js')).recordCommand(rest, io);
    case 'schema':
      return schemaCommand(rest, io);
    case 'proposals':
      return (await import('./skill-proposals.js')).proposalsCommand(rest, io);
    case undefined:
    case '--help':
    case '-h':
      io.out(USAGE);
      return sub ? 0 : 2;
    default:
      io.err(`nestwright skill: unknown subcommand "${sub}"; use run, record, schema or proposals.\n\n${USAGE}`);
      return 2;
  }
}

function usage(io: Io, problem: string): number {
  io.err(`nestwright skill: ${problem}.\nRun \`nestwright skill --help\` for usage.\n`);
  return 2;
}

/** `--param k=v` pairs; a value may contain `=`. */
export function parseParams(pairs: string[]): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const at = p.indexOf('=');
    if (at <= 0) return `--param takes name=value, got ${JSON.stringify(p)}`;
    out[p.slice(0, at)] = p.slice(at + 1);
  }
  return out;
}

async function runCommand(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        app: { type: 'string' },
        param: { type: 'string', multiple: true, default: [] },
        device: { type: 'string' },
        token: { type: 'string' },
        timeout: { type: 'string', default: '5000' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    return usage(io, (e as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (positionals.length !== 1)
    return usage(
      io,
      positionals.length
        ? `one skill file at a time (got ${positionals.join(', ')})`
        : 'no skill file given; e.g. nestwright skill run skills/add-note.yaml --param title=Milk',
    );
  const params = parseParams(values.param);
  if (typeof params === 'string') return usage(io, params);
  const timeout = Number(values.timeout);
  if (!Number.isInteger(timeout) || timeout <= 0)
    return usage(io, `--timeout takes milliseconds, got ${JSON.stringify(values.timeout)}`);

  // Everything about the input is checked before a device is touched.
  let planned: PlannedSkill;
  try {
    planned = planSkill('skill run', positionals[0]!, params);
  } catch (e) {
    io.err(`${(e as Error).message}\n`);
    return 2;
  }
  const apk =
    values.app ?? (planned.skill.apk ? path.resolve(path.dirname(planned.path), planned.skill.apk) : planned.skill.app);

  const { connectDevice } = await import('../../device-runtime/providers/index.js');
  const token = values.token ?? process.env.NESTWRIGHT_TOKEN;
  let conn: Awaited<ReturnType<typeof connectDevice>>;
  try {
    conn = await connectDevice(
      values.device
        ? token
          ? { provider: 'nestspace', url: values.device, token }
          : { provider: 'sim', url: values.device }
        : { provider: 'sim' },
    );
  } catch (e) {
    io.err(`nestwright skill run: ${(e as Error).message}\n`);
    return 2;
  }
  let space: Space | null = null;
  try {
    space = await Space.create(conn.client, `skill-run-${process.pid}`);
    const trajectory = new Trajectory();
    let app;
    try {
      app = await space.launch(apk, trajectory, { actionTimeout: timeout, expectTimeout: timeout });
    } catch (e) {
      io.err(`nestwright skill run: cannot start ${apk}: ${(e as Error).message}\n`);
      return 2;
    }
    if (app.package !== planned.skill.app) {
      io.err(
        `nestwright skill run: ${shown(planned.path)} drives ${planned.skill.app}, but --app ${apk} is ${app.package}\n`,
      );
      return 2;
    }
    const port = app.port;
    const result = await port.wrap('skill run', {}, (call) => replaySkill(port, planned, call));
    if (values.json) {
      io.out(
        `${JSON.stringify({ ...result, error: result.error?.message ?? null, trajectory: trajectory.toJSON() }, null, 2)}\n`,
      );
    } else {
      for (const s of result.steps)
        io.out(
          `  ${s.status === 'passed' ? '✓' : s.status === 'skipped' ? '-' : '✘'} ${s.title} (${s.durationMs}ms)${s.status === 'skipped' && s.error ? ` — ${s.error}` : ''}\n`,
        );
      if (result.error) io.err(`\n${result.error.message}\n`);
      io.out(
        `\n${result.ok ? 'passed' : 'FAILED'}: ${planned.skill.name} (${shown(planned.path)}), ${result.steps.filter((s) => s.status === 'passed').length}/${planned.skill.steps.length} steps passed\n`,
      );
    }
    return result.ok ? 0 : 1;
  } catch (e) {
    io.err(`nestwright skill run: ${e instanceof NestwrightError ? e.message : (e as Error).stack}\n`);
    return 1;
  } finally {
    await space?.delete().catch(() => {});
    await conn.close().catch(() => {});
  }
}

function schemaCommand(argv: string[], io: Io): number {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, strict: true, options: { output: { type: 'string', short: 'o' } } });
  } catch (e) {
    return usage(io, (e as Error).message);
  }
  const text = `${JSON.stringify(skillJsonSchema(), null, 2)}\n`;
  if (parsed.values.output) writeFileSync(parsed.values.output, text);
  else io.out(text);
  return 0;
}

/**
 * `nestwright init-agents --loop=claude|codex|opencode|vscode [--app A] [--force] [--json]`: the
 * planner, generator and healer agents for a coding agent, in its own format (cli/agents/loops.ts),
 * the MCP configuration that starts `nestwright mcp`, a seed spec and `specs/plans/`. Re-running
 * updates what it wrote and keeps what the user changed (cli/agents/write.ts).
 * Exit code: 0 done (also when everything was kept), 1 could not write, 2 usage or bad input.
 */
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { commonTargets } from '../agents/common.js';
import { LOOPS, loopTargets, type Loop } from '../agents/loops.js';
import { AgentsInitError, MANIFEST, writeTargets, type AgentStep } from '../agents/write.js';

export type InitAgentsIo = { out: (text: string) => void; err: (text: string) => void; cwd: string };
const stdio: InitAgentsIo = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  cwd: process.cwd(),
};

const USAGE = `Usage: nestwright init-agents --loop=claude|codex|opencode|vscode [--app A] [--force] [--json]

Writes the nestwright test agents (planner, generator, healer) for a coding agent, in the format
it reads, with the MCP configuration that starts \`npx nestwright mcp\`:

  claude     .claude/agents/*.md, .mcp.json
  codex      .codex/agents/*.toml, .codex/config.toml
  opencode   .opencode/prompts/*.md, opencode.json
  vscode     .github/agents/*.agent.md, .vscode/mcp.json

and for all: specs/seed.spec.ts (the seed the agents start from) and specs/plans/README.md.
Run it again after upgrading nestwright: it updates the files it wrote and keeps files you changed
(${MANIFEST} remembers what it wrote).

  --loop L   the coding agent (required)
  --app A    the app under test for the seed spec (an APK path or a package; default: use.apk of the config)
  --force    also replace files and entries you changed
  --json     print what was done as JSON
`;

export async function initAgentsCommand(argv: string[], io: InitAgentsIo = stdio): Promise<number> {
  let json = argv.includes('--json');
  const fail = (code: string, message: string, hint: string, exit: number) => {
    if (json) io.out(`${JSON.stringify({ ok: false, error: { code, message, hint } }, null, 2)}\n`);
    else
      io.err(`nestwright init-agents: ${code}: ${message}\n  hint: ${hint}\n${code === 'USAGE' ? `\n${USAGE}` : ''}`);
    return exit;
  };
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        loop: { type: 'string' },
        app: { type: 'string' },
        force: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (e) {
    return fail('USAGE', (e as Error).message, 'See the options below.', 2);
  }
  json = values.json;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (!values.loop || !(LOOPS as readonly string[]).includes(values.loop))
    return fail(
      'USAGE',
      values.loop ? `unknown loop "${values.loop}"` : '--loop is required',
      `Name the coding agent: --loop=${LOOPS.join('|')}.`,
      2,
    );
  if (!existsSync(io.cwd) || !statSync(io.cwd).isDirectory())
    return fail('NOT_A_DIRECTORY', `${io.cwd} is not a directory`, 'Run it in the project directory.', 2);
  const loop = values.loop as Loop;
  try {
    const common = commonTargets(io.cwd, values.app ?? null);
    const steps = await writeTargets(io.cwd, loop, [...common.targets, ...loopTargets(loop)], {
      force: values.force,
    });
    if (json) io.out(`${JSON.stringify({ ok: true, loop, seed: common.seed, steps }, null, 2)}\n`);
    else io.out(summary(loop, steps));
    return 0;
  } catch (e) {
    if (e instanceof AgentsInitError) return fail(e.code, e.message, e.hint, 2);
    return fail('WRITE_FAILED', (e as Error).message, 'Check the permissions of the project directory.', 1);
  }
}

function summary(loop: Loop, steps: AgentStep[]): string {
  const lines = steps.map(
    (s) =>
      `  ${s.status.padEnd(9)} ${s.path}${s.part ? ` (${s.part})` : ''}  ${s.status === 'skipped' ? s.detail : ''}`,
  );
  const start = {
    claude: 'In Claude Code: "use the nestwright-test-planner agent to plan …"',
    codex: 'In Codex: ask for the nestwright_test_planner agent',
    opencode: 'In opencode: @nestwright-test-planner plan …',
    vscode: 'In VS Code chat: pick the nestwright-test-planner agent',
  }[loop];
  return `nestwright init-agents --loop=${loop}\n${lines.join('\n')}\n\n${start}\n`;
}

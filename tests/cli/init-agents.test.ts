import { test, expect } from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import yaml from 'yaml';
import { z } from 'zod';
import { initAgentsCommand } from '../../cli/commands/init-agents.js';
import { agentTools } from '../../cli/mcp/server.js';
import { AgentState } from '../../cli/mcp/state.js';

/**
 * `nestwright init-agents` for each coding agent: every file parsed as its client reads it (YAML
 * front matter, JSON, TOML) and checked against the fields that client documents (and that
 * Playwright's own `init-agents` writes for it); every tool a definition names is a tool of
 * `nestwright mcp`; re-runs update what they wrote and keep what the user changed.
 */

const TOOLS = new Set(agentTools(new AgentState({ root: tmpdir() })).map((t) => t.name));
const AGENTS = ['nestwright-test-planner', 'nestwright-test-generator', 'nestwright-test-healer'];

let dir: string;
test.beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nw-agents-'));
});
test.afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string; json: any }> {
  let out = '';
  let err = '';
  const code = await initAgentsCommand([...argv, '--json'], {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    cwd: dir,
  });
  return { code, out, err, json: out ? JSON.parse(out) : null };
}

const read = (p: string) => readFile(path.join(dir, p), 'utf8');

function frontMatter(text: string): { header: Record<string, unknown>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  expect(m, 'a Markdown file that starts with YAML front matter').toBeTruthy();
  return { header: yaml.parse(m![1]!) as Record<string, unknown>, body: m![2]! };
}

/** A tool the server must have (`nestwright/x`, `mcp__nestwright__x`, `nestwright*x`). */
const expectServerTool = (name: string) => expect(TOOLS, `tool ${name}`).toContain(name);

const ServerCommand = z.object({
  command: z.literal('npx'),
  args: z.tuple([z.literal('nestwright'), z.literal('mcp')]),
});

test('claude: .claude/agents/*.md with name, description, tools, model and color; .mcp.json starts nestwright mcp', async () => {
  expect((await run('--loop=claude')).code).toBe(0);
  expect((await readdir(path.join(dir, '.claude/agents'))).sort()).toEqual(AGENTS.map((a) => `${a}.md`).sort());
  for (const name of AGENTS) {
    const { header, body } = frontMatter(await read(`.claude/agents/${name}.md`));
    expect(Object.keys(header)).toEqual(['name', 'description', 'tools', 'model', 'color']);
    expect(header.name).toBe(name);
    expect(header.model).toBe('sonnet');
    expect(['green', 'blue', 'red']).toContain(header.color);
    const tools = (header.tools as string).split(', ');
    expect(tools).toEqual(expect.arrayContaining(['Glob', 'Grep', 'Read', 'LS']));
    for (const t of tools.filter((x) => x.startsWith('mcp__'))) expectServerTool(t.replace('mcp__nestwright__', ''));
    expect(body).toContain('## The device');
  }
  const healer = frontMatter(await read('.claude/agents/nestwright-test-healer.md'));
  expect(healer.header.tools).toContain('Edit, MultiEdit, Write');
  expect(healer.header.tools).toContain('mcp__nestwright__fixme');
  expect(healer.body).toContain('Never weaken an assertion');
  const mcp = z
    .object({ mcpServers: z.object({ nestwright: ServerCommand }) })
    .parse(JSON.parse(await read('.mcp.json')));
  expect(mcp.mcpServers.nestwright.args).toEqual(['nestwright', 'mcp']);
  expect(await read('specs/seed.spec.ts')).toContain("test('seed', async ({ app }) => {");
  expect(await read('specs/plans/README.md')).toContain('# Test plans');
});

test('codex: .codex/agents/*.toml parse as TOML with the subagent fields; .codex/config.toml keeps the user’s settings', async () => {
  await mkdir(path.join(dir, '.codex'));
  await writeFile(path.join(dir, '.codex/config.toml'), 'model = "gpt-5"\n\n[mcp_servers.other]\ncommand = "x"\n');
  expect((await run('--loop=codex')).code).toBe(0);
  const Agent = z
    .object({
      name: z.string().regex(/^[a-z_]+$/),
      description: z.string(),
      sandbox_mode: z.enum(['read-only', 'workspace-write']),
      developer_instructions: z.string().min(500),
      mcp_servers: z.object({
        nestwright: ServerCommand.extend({ enabled_tools: z.array(z.string()).min(5) }),
      }),
    })
    .strict();
  for (const name of AGENTS) {
    const snake = name.replace(/-/g, '_');
    const agent = Agent.parse(parseToml(await read(`.codex/agents/${snake}.toml`)));
    expect(agent.name).toBe(snake);
    expect(agent.sandbox_mode).toBe(name.endsWith('healer') ? 'workspace-write' : 'read-only');
    agent.mcp_servers.nestwright.enabled_tools.forEach(expectServerTool);
    expect(agent.developer_instructions).toContain('## Good locators');
  }
  const config = parseToml(await read('.codex/config.toml')) as any;
  expect(config.model).toBe('gpt-5');
  expect(config.mcp_servers.other).toEqual({ command: 'x' });
  expect(ServerCommand.parse(config.mcp_servers.nestwright)).toBeTruthy();
});

test('opencode: opencode.json with mcp, tools and subagents whose prompt files exist', async () => {
  await writeFile(
    path.join(dir, 'opencode.json'),
    JSON.stringify({ theme: 'dark', mcp: { other: { type: 'remote' } } }),
  );
  expect((await run('--loop=opencode')).code).toBe(0);
  const config = z
    .object({
      $schema: z.literal('https://opencode.ai/config.json'),
      theme: z.literal('dark'),
      mcp: z.object({
        other: z.object({ type: z.literal('remote') }),
        nestwright: z.object({
          type: z.literal('local'),
          command: z.tuple([z.literal('npx'), z.literal('nestwright'), z.literal('mcp')]),
          enabled: z.literal(true),
        }),
      }),
      tools: z.object({ 'nestwright*': z.literal(false) }),
      agent: z.record(
        z.string(),
        z.object({
          description: z.string(),
          mode: z.literal('subagent'),
          prompt: z.string().regex(/^\{file:\.opencode\/prompts\/[\w-]+\.md\}$/),
          tools: z.record(z.string(), z.literal(true)),
        }),
      ),
    })
    .parse(JSON.parse(await read('opencode.json')));
  expect(Object.keys(config.agent)).toEqual(AGENTS);
  for (const agent of Object.values(config.agent)) {
    expect(existsSync(path.join(dir, agent.prompt.slice('{file:'.length, -1)))).toBe(true);
    for (const t of Object.keys(agent.tools).filter((x) => x.startsWith('nestwright*')))
      expectServerTool(t.slice('nestwright*'.length));
  }
});

test('vscode: .github/agents/*.agent.md with name, description, tools and mcp-servers; .vscode/mcp.json keeps other servers', async () => {
  await mkdir(path.join(dir, '.vscode'));
  await writeFile(
    path.join(dir, '.vscode/mcp.json'),
    JSON.stringify({ servers: { github: { type: 'http' } }, inputs: [] }),
  );
  expect((await run('--loop=vscode')).code).toBe(0);
  for (const name of AGENTS) {
    const { header } = frontMatter(await read(`.github/agents/${name}.agent.md`));
    expect(Object.keys(header)).toEqual(['name', 'description', 'tools', 'mcp-servers']);
    const tools = z.array(z.string()).parse(header.tools);
    expect(tools[0]).toBe('search');
    tools.filter((t) => t.startsWith('nestwright/')).forEach((t) => expectServerTool(t.slice('nestwright/'.length)));
    expect(header['mcp-servers']).toEqual({
      nestwright: { type: 'stdio', command: 'npx', args: ['nestwright', 'mcp'], tools: ['*'] },
    });
  }
  expect(JSON.parse(await read('.vscode/mcp.json'))).toEqual({
    servers: { github: { type: 'http' }, nestwright: { type: 'stdio', command: 'npx', args: ['nestwright', 'mcp'] } },
    inputs: [],
  });
});

test('re-runs: unchanged files stay, an upgrade updates what init-agents wrote, a file the user changed is kept', async () => {
  expect((await run('--loop=claude', '--app', 'fixtures/apks/shop.apk')).code).toBe(0);
  expect(await read('specs/seed.spec.ts')).toContain('test.use({ apk: "fixtures/apks/shop.apk" });');
  const again = await run('--loop=claude', '--app', 'fixtures/apks/shop.apk');
  expect(again.json.steps.map((s: { status: string }) => s.status)).toEqual(Array(6).fill('unchanged'));

  // An older version wrote the planner (its hash is in the manifest) and an agent this one no longer has.
  const manifest = JSON.parse(await read('.nestwright/agents.json'));
  const old = '---\nname: nestwright-test-planner\n---\nold instructions\n';
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  await writeFile(path.join(dir, '.claude/agents/nestwright-test-planner.md'), old);
  await writeFile(path.join(dir, '.claude/agents/nestwright-old.md'), old);
  manifest.targets['.claude/agents/nestwright-test-planner.md'].sha256 = sha(old);
  manifest.targets['.claude/agents/nestwright-old.md'] = { sha256: sha(old), loop: 'claude' };
  await writeFile(path.join(dir, '.nestwright/agents.json'), JSON.stringify(manifest));
  // The user changed the healer, the seed and the server's entry; and added a server of their own.
  await writeFile(path.join(dir, '.claude/agents/nestwright-test-healer.md'), 'my own healer\n');
  await writeFile(path.join(dir, 'specs/seed.spec.ts'), '// my seed\n');
  await writeFile(
    path.join(dir, '.mcp.json'),
    JSON.stringify({ mcpServers: { nestwright: { command: 'node', args: ['x'] }, mine: { command: 'y' } } }),
  );

  const upgrade = await run('--loop=claude');
  const status = Object.fromEntries(
    upgrade.json.steps.map((s: { path: string; status: string }) => [s.path, s.status]),
  );
  expect(status).toEqual({
    'specs/seed.spec.ts': 'skipped',
    'specs/plans/README.md': 'unchanged',
    '.claude/agents/nestwright-test-planner.md': 'updated',
    '.claude/agents/nestwright-test-generator.md': 'unchanged',
    '.claude/agents/nestwright-test-healer.md': 'skipped',
    '.mcp.json': 'skipped',
    '.claude/agents/nestwright-old.md': 'removed',
  });
  expect(await read('.claude/agents/nestwright-test-healer.md')).toBe('my own healer\n');
  expect(await read('.claude/agents/nestwright-test-planner.md')).toContain('You plan tests');
  expect(existsSync(path.join(dir, '.claude/agents/nestwright-old.md'))).toBe(false);

  // --force replaces what the user changed; their own server stays.
  expect((await run('--loop=claude', '--force')).code).toBe(0);
  expect(await read('.claude/agents/nestwright-test-healer.md')).toContain('You fix failing nestwright specs');
  expect(JSON.parse(await read('.mcp.json')).mcpServers).toEqual({
    nestwright: { command: 'npx', args: ['nestwright', 'mcp'] },
    mine: { command: 'y' },
  });
});

test('bad input: no or an unknown loop, an unknown option, a config file that is not JSON; nothing is written', async () => {
  for (const argv of [[], ['--loop=cursor'], ['--loop=claude', '--yes']]) {
    const r = await run(...argv);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe('USAGE');
  }
  await writeFile(path.join(dir, '.mcp.json'), '{ not json');
  const r = await run('--loop=claude');
  expect(r.code).toBe(2);
  expect(r.json.error).toMatchObject({ code: 'INVALID_FILE', message: '.mcp.json is not a JSON object' });
  expect(await readdir(dir)).toEqual(['.mcp.json']);
});

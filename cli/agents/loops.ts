/**
 * The agent definitions in each coding agent's own format, with the files and front matter
 * Playwright's `init-agents` writes for the same client:
 *
 * - `claude`: `.claude/agents/<name>.md` (YAML front matter: name, description, tools as Claude
 *   Code's tool names and `mcp__nestwright__<tool>`, model, color) and `.mcp.json` (`mcpServers`).
 * - `codex`: `.codex/agents/<snake_name>.toml` (name, description, sandbox_mode,
 *   developer_instructions, `[mcp_servers.nestwright]` with `enabled_tools`) and the server in the
 *   project's `.codex/config.toml` for the main session.
 * - `opencode`: `.opencode/prompts/<name>.md` and `opencode.json` (`mcp`, `tools`, `agent` entries
 *   with `mode: subagent` and `prompt: {file:…}`).
 * - `vscode`: `.github/agents/<name>.agent.md` (front matter: name, description, tools,
 *   mcp-servers) and `.vscode/mcp.json` (`servers`).
 *
 * Parts of a file the user shares with other tools (a JSON key, a marked TOML block) are targets
 * of their own, so `write.ts` touches only what nestwright owns.
 */
import yaml from 'yaml';
import { AGENTS, MCP_NAME, type AgentDefinition } from './definitions.js';

export const LOOPS = ['claude', 'codex', 'opencode', 'vscode'] as const;
export type Loop = (typeof LOOPS)[number];

export type Target =
  | { kind: 'file'; path: string; content: string; what: string }
  /** One key of a JSON file (a path of keys), the rest of the file kept. */
  | { kind: 'json'; path: string; key: string[]; value: unknown; what: string }
  /** A block between `# nestwright:begin <id>` and `# nestwright:end <id>` lines, the rest kept. */
  | { kind: 'block'; path: string; id: string; content: string; what: string };

/** How a client starts the server (npx needs a shell on Windows, as Playwright's files say). */
export function serverCommand(platform = process.platform): { command: string; args: string[] } {
  return platform === 'win32'
    ? { command: 'cmd', args: ['/c', 'npx', 'nestwright', 'mcp'] }
    : { command: 'npx', args: ['nestwright', 'mcp'] };
}

const examplesText = (a: AgentDefinition) =>
  a.examples.length ? ` Examples: ${a.examples.map((e) => `<example>${e}</example>`).join('')}` : '';

const frontMatter = (header: Record<string, unknown>, body: string) =>
  `---\n${yaml.stringify(header, { lineWidth: 100000 })}---\n\n${body.trim()}\n`;

const mcpTools = (a: AgentDefinition) =>
  a.tools.filter((t) => t.startsWith(`${MCP_NAME}/`)).map((t) => t.slice(MCP_NAME.length + 1));

function claude(): Target[] {
  const map: Record<string, string[]> = {
    search: ['Glob', 'Grep', 'Read', 'LS'],
    edit: ['Edit', 'MultiEdit', 'Write'],
  };
  const tool = (t: string) => {
    const [server, name] = t.split('/');
    return name ? [`mcp__${server}__${name}`] : (map[server!] ?? [server!]);
  };
  return [
    ...AGENTS.map((a): Target => ({
      kind: 'file',
      path: `.claude/agents/${a.name}.md`,
      what: 'Claude Code subagent',
      content: frontMatter(
        {
          name: a.name,
          description: a.description + examplesText(a),
          tools: a.tools.flatMap(tool).join(', '),
          model: a.model,
          color: a.color,
        },
        a.instructions,
      ),
    })),
    { kind: 'json', path: '.mcp.json', key: ['mcpServers', MCP_NAME], value: serverCommand(), what: 'MCP server' },
  ];
}

/** A TOML basic string: JSON's escapes are TOML's for every character JSON.stringify emits. */
const tomlString = (s: string) => JSON.stringify(s);
/** A TOML multi-line literal string when it can be one (no `'''` inside), else a basic string. */
const tomlText = (s: string) => (s.includes("'''") ? tomlString(s) : `'''\n${s}'''`);
const tomlArray = (xs: string[]) => `[${xs.map(tomlString).join(', ')}]`;

function tomlServer(enabled: string[] | null): string {
  const { command, args } = serverCommand();
  return [
    `[mcp_servers.${MCP_NAME}]`,
    `command = ${tomlString(command)}`,
    `args = ${tomlArray(args)}`,
    ...(enabled ? [`enabled_tools = ${tomlArray(enabled)}`] : []),
  ].join('\n');
}

function codex(): Target[] {
  return [
    ...AGENTS.map((a): Target => {
      const name = a.name.replace(/-/g, '_');
      return {
        kind: 'file',
        path: `.codex/agents/${name}.toml`,
        what: 'Codex subagent',
        content: [
          `name = ${tomlString(name)}`,
          `description = ${tomlString(a.description + examplesText(a))}`,
          `sandbox_mode = ${tomlString(a.tools.includes('edit') ? 'workspace-write' : 'read-only')}`,
          `developer_instructions = ${tomlText(`${a.instructions.trim()}\n`)}`,
          '',
          tomlServer(mcpTools(a)),
          '',
        ].join('\n'),
      };
    }),
    { kind: 'block', path: '.codex/config.toml', id: 'mcp', content: tomlServer(null), what: 'MCP server' },
  ];
}

function opencode(): Target[] {
  const map: Record<string, string[]> = { search: ['ls', 'glob', 'grep', 'read'], edit: ['edit', 'write'] };
  const { command, args } = serverCommand();
  return [
    ...AGENTS.map((a): Target => ({
      kind: 'file',
      path: `.opencode/prompts/${a.name}.md`,
      what: 'opencode agent prompt',
      content: `${a.instructions.trim()}\n\n${a.examples.map((e) => `<example>${e}</example>`).join('\n')}\n`,
    })),
    { kind: 'json', path: 'opencode.json', key: ['$schema'], value: 'https://opencode.ai/config.json', what: 'schema' },
    {
      kind: 'json',
      path: 'opencode.json',
      key: ['mcp', MCP_NAME],
      value: { type: 'local', command: [command, ...args], enabled: true },
      what: 'MCP server',
    },
    // The server's tools are off for the main agent and on, one by one, for the three subagents.
    { kind: 'json', path: 'opencode.json', key: ['tools', `${MCP_NAME}*`], value: false, what: 'tools' },
    ...AGENTS.map((a): Target => ({
      kind: 'json',
      path: 'opencode.json',
      key: ['agent', a.name],
      what: 'opencode subagent',
      value: {
        description: a.description,
        mode: 'subagent',
        prompt: `{file:.opencode/prompts/${a.name}.md}`,
        tools: Object.fromEntries(
          a.tools.flatMap((t) => {
            const [server, name] = t.split('/');
            return name ? [[`${server}*${name}`, true]] : (map[server!] ?? [server!]).map((x) => [x, true]);
          }),
        ),
      },
    })),
  ];
}

function vscode(): Target[] {
  const { command, args } = serverCommand();
  return [
    ...AGENTS.map((a): Target => ({
      kind: 'file',
      path: `.github/agents/${a.name}.agent.md`,
      what: 'VS Code / Copilot custom agent',
      content: frontMatter(
        {
          name: a.name,
          description: a.description + examplesText(a),
          tools: a.tools,
          'mcp-servers': { [MCP_NAME]: { type: 'stdio', command, args, tools: ['*'] } },
        },
        a.instructions,
      ),
    })),
    {
      kind: 'json',
      path: '.vscode/mcp.json',
      key: ['servers', MCP_NAME],
      value: { type: 'stdio', command, args },
      what: 'MCP server',
    },
  ];
}

/** Every target of a loop, besides the seed spec and the plans folder (common to all). */
export function loopTargets(loop: Loop): Target[] {
  switch (loop) {
    case 'claude':
      return claude();
    case 'codex':
      return codex();
    case 'opencode':
      return opencode();
    case 'vscode':
      return vscode();
    default: {
      const never: never = loop;
      throw new Error(`unknown loop ${String(never)}`);
    }
  }
}

import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { startMcpHttpHost } from '../../device-runtime/mcp-http/host.js';
import { readOrCreateToken } from '../../device-runtime/mcp-http/token.js';
import { createAgentServer } from '../mcp/server.js';
import { AgentState } from '../mcp/state.js';

const USAGE = `usage: nestwright mcp [options]

Serve nestwright's test-level tools to coding agents over MCP: run the specs, read failures,
drive a live app instance to find locators, write specs and skills.

  --root D          the project (default: the current directory)
  --config F        the Playwright config, relative to the root (default: Playwright's own lookup)
  --http            Streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio
  --port N          with --http (default 0: a free port, printed)
  --token-file F    with --http: the bearer token (created, mode 0600, when missing;
                    default .nestwright/mcp/token under the root)
  --no-auth         with --http: no token (for the MCP conformance suite only)

Add it to Claude Code:  claude mcp add nestwright -- npx nestwright mcp
`;

/** `nestwright mcp`: stdio by default; `--http` with the transport rules of the device protocol. */
export async function mcpCommand(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        root: { type: 'string' },
        config: { type: 'string' },
        http: { type: 'boolean' },
        port: { type: 'string' },
        'token-file': { type: 'string' },
        'no-auth': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    process.stderr.write(`nestwright mcp: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const fail = (msg: string) => {
    process.stderr.write(`nestwright mcp: ${msg}\n`);
    return 2;
  };
  const root = path.resolve(values.root ?? process.cwd());
  if (!existsSync(root) || !statSync(root).isDirectory()) return fail(`--root ${root}: not a directory`);
  if (values.config && !existsSync(path.resolve(root, values.config)))
    return fail(`--config ${values.config}: no such file under ${root}`);
  if (!values.http && (values.port || values['token-file'] || values['no-auth']))
    return fail('--port, --token-file and --no-auth go with --http');
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return fail(`--port ${values.port}: expected a port number 0-65535`);

  const state = new AgentState({ root, ...(values.config ? { config: values.config } : {}) });
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });

  if (!values.http) {
    const transport = new StdioServerTransport();
    const server = createAgentServer(state, () => 'stdio');
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    // stdout is the protocol: anything else goes to stderr.
    console.log = console.error;
    await server.connect(transport);
    process.stdin.once('end', () => void transport.close());
    await Promise.race([closed, stopped]);
    await state.sessions.shutdown();
    return 0;
  }

  let token: string | undefined;
  const tokenFile = values['no-auth'] ? null : path.resolve(root, values['token-file'] ?? '.nestwright/mcp/token');
  try {
    if (tokenFile) token = readOrCreateToken(tokenFile);
  } catch (e) {
    return fail(`--token-file ${tokenFile}: ${(e as Error).message}`);
  }
  const host = await startMcpHttpHost(
    { port, ...(token ? { token } : {}), noAuth: !!values['no-auth'] },
    {
      name: 'nestwright mcp',
      newServer: (sessionId) => createAgentServer(state, sessionId),
      onSessionClosed: (sessionId) => void state.sessions.closeOwner(sessionId),
    },
  ).catch((e: Error) => e);
  if (host instanceof Error) return fail(host.message);
  process.stdout.write(
    `nestwright mcp listening on ${host.url}\n${tokenFile ? `token: in ${tokenFile}` : 'auth: NONE (--no-auth; for the MCP conformance suite only)'}\nproject: ${root}\n`,
  );
  await stopped;
  await host.close();
  await state.sessions.shutdown();
  process.stdout.write('nestwright mcp stopped\n');
  return 0;
}

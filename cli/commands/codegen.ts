import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LiveInspector } from '../inspector/live.js';
import { startInspectorServer, type InspectorServer } from '../inspector/server.js';
import { loadTrace } from '../inspector/trace.js';

const CODEGEN_USAGE = `usage: nestwright codegen (--app path.apk | --package P) [options]

Open the inspector on a live app instance: the screen beside its node tree, the locators
nestwright would use for a picked node, a locator box, and recording into a spec or a skill.

  --app F         an APK to install and launch (relative to the project)
  --package P     an app already installed in the space
  --device URL    a NestSpace runtime's MCP address (token from NESTSPACE_TOKEN);
                  default: a simulated device started for the session
  --port N        the page's port on 127.0.0.1 (default: a free one)
  --no-open       print the address, do not open a browser
`;

const TRACE_USAGE = `usage: nestwright show-trace <trajectory.json | allure-results/<uuid>-result.json> [--port N] [--no-open]

Step through a test's trajectory: each step's screenshots, tree, locator and node.
`;

/** Open `url` in the default browser; say so when none can be started. */
export function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(cmd, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => process.stderr.write(`(could not start ${cmd}; open the address above yourself)\n`));
  child.unref();
}

async function serveUntilStopped(server: InspectorServer, open: boolean, what: string): Promise<number> {
  // The token is in the address: it is the key to the page, printed once, for this run only.
  process.stdout.write(`nestwright ${what} at ${server.url}\n(Ctrl-C to stop)\n`);
  if (open) openBrowser(server.url);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}

function portOf(v: string | undefined): number | null {
  if (v === undefined) return 0;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 && n <= 65535 ? n : null;
}

export async function codegenCommand(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        app: { type: 'string' },
        package: { type: 'string' },
        device: { type: 'string' },
        port: { type: 'string' },
        'no-open': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    process.stderr.write(`nestwright codegen: ${(e as Error).message}\n\n${CODEGEN_USAGE}`);
    return 2;
  }
  if (values.help) return (process.stdout.write(CODEGEN_USAGE), 0);
  const fail = (m: string) => (process.stderr.write(`nestwright codegen: ${m}\n`), 2);
  if (!values.app === !values.package) return fail('give one of --app path.apk or --package P');
  if (values.app && !existsSync(values.app)) return fail(`--app ${values.app}: no such file`);
  const port = portOf(values.port);
  if (port === null) return fail(`--port ${values.port}: expected a port number 0-65535`);
  const device = values.device
    ? { provider: 'nestspace', url: values.device, token: process.env.NESTSPACE_TOKEN ?? '' }
    : undefined;
  const live = new LiveInspector(process.cwd(), values.app ?? values.package!, device);
  try {
    await live.connect();
  } catch (e) {
    process.stderr.write(`nestwright codegen: ${(e as Error).message}\n`);
    await live.close();
    return 1;
  }
  return serveUntilStopped(await startInspectorServer({ port, live }), !values['no-open'], 'codegen');
}

export async function showTraceCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { port: { type: 'string' }, 'no-open': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (e) {
    process.stderr.write(`nestwright show-trace: ${(e as Error).message}\n\n${TRACE_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) return (process.stdout.write(TRACE_USAGE), 0);
  const fail = (m: string) => (process.stderr.write(`${m}\n`), 2);
  if (positionals.length !== 1) return fail(`nestwright show-trace: give one file\n\n${TRACE_USAGE}`);
  const file = path.resolve(positionals[0]!);
  if (!existsSync(file) || !statSync(file).isFile())
    return fail(`nestwright show-trace: ${positionals[0]}: no such file`);
  const port = portOf(values.port);
  if (port === null) return fail(`nestwright show-trace: --port ${values.port}: expected a port number 0-65535`);
  let trace;
  try {
    trace = loadTrace(file);
  } catch (e) {
    return fail((e as Error).message);
  }
  return serveUntilStopped(await startInspectorServer({ port, trace }), !values['no-open'], 'trace viewer');
}

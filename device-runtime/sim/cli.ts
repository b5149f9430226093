import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parsePrice, resolveDeviceAgent, type DeviceAgentOptions } from './core/agent-config.js';
import { loadPolicy, TEST_RUN_POLICY } from './core/policy.js';
import { defaultStateDir } from './core/store.js';
import { readOrCreateToken } from '../mcp-http/token.js';
import { checkKeyFile, simRuntimeService, startAdbd, userKeySources, type RunningAdbd } from './adbd/index.js';
import { startSimServer } from './server.js';

const USAGE = `usage: nestwright sim [options]

Run the simulated NestSpace runtime over MCP Streamable HTTP until Ctrl-C.

  --port N              port on 127.0.0.1 (default 8765; 0 picks a free one)
  --lan                 listen on every interface; needs a token (--token-file)
  --allow-host NAME     also accept this Host/Origin name (repeatable)
  --token-file F        read the bearer token from F (created, mode 0600, when missing)
  --print-token         print the token itself (it is never printed otherwise)
  --state-dir D         where state.json lives (default .nestwright/sim if ./.nestwright exists, else ~/.nestwright/sim)
  --ephemeral           keep nothing on disk
  --slots N             process slots (default 4)
  --skills DIR          serve the skills (*.yaml) of DIR over skill_list / skill_run
  --policy P            strict | test | policy.json (default test: install, uninstall,
                        permissions and clipboard pre-approved; shell off)
  --no-virtual-displays spaces take turns on one main display
  --no-auth             no bearer token (MCP conformance suite only; refused with --lan)
  --session-idle-ms N   reclaim idle MCP sessions after N ms (default 1800000)
  --model ID            the model of the runtime's own agent (task_run); without it task_run
                        answers TOOL_DISABLED (default: NESTWRIGHT_SIM_MODEL)
  --model-provider P    anthropic (default) | openai-compatible
  --model-base-url URL  the provider's base URL (openai-compatible: e.g. http://localhost:11434/v1);
                        the key comes from ANTHROPIC_API_KEY / OPENAI_API_KEY, never a flag
  --model-price IN,OUT  USD per million input, output tokens (models not in nestwright's table)
  --adb-port N          also be a device that Google's adb reaches: \`adb connect 127.0.0.1:N\`
                        (0 picks a free port); the runtime is on the device's port 8765. adb
                        gets in when it signs AUTH with a key the device trusts: this user's
                        ~/.android/adbkey.pub ($ANDROID_USER_HOME, $ADB_VENDOR_KEYS) and
                        --adb-keys; any other host is listed \`unauthorized\`, as by a phone
  --adb-keys F          with --adb-port: also trust the keys in F, an adb_keys file (one
                        adbkey.pub line per key; read again at each AUTH; repeatable)
  --adb-trust-new-keys  with --adb-port: let in a host whose key no one listed, and trust it
                        until the simulator stops ("Always allow" for anyone): any local user
                        can then read the runtime's token with run-as
  --adb-insecure        with --adb-port: no adb AUTH at all (as a ro.adb.secure=0 build): any
                        local user can then read the runtime's token with run-as
`;

/**
 * `nestwright sim`: start the simulator, print where it is and where its token is, run until
 * SIGINT/SIGTERM, then close (state flushed). Returns the exit code; errors name the flag at fault.
 */
export async function simCommand(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        port: { type: 'string' },
        lan: { type: 'boolean' },
        'allow-host': { type: 'string', multiple: true },
        'token-file': { type: 'string' },
        'print-token': { type: 'boolean' },
        'state-dir': { type: 'string' },
        ephemeral: { type: 'boolean' },
        slots: { type: 'string' },
        policy: { type: 'string' },
        'no-virtual-displays': { type: 'boolean' },
        'no-auth': { type: 'boolean' },
        'session-idle-ms': { type: 'string' },
        skills: { type: 'string' },
        'adb-port': { type: 'string' },
        model: { type: 'string' },
        'model-provider': { type: 'string' },
        'model-base-url': { type: 'string' },
        'model-price': { type: 'string' },
        'adb-insecure': { type: 'boolean' },
        'adb-keys': { type: 'string', multiple: true },
        'adb-trust-new-keys': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    process.stderr.write(`nestwright sim: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const fail = (msg: string) => {
    process.stderr.write(`nestwright sim: ${msg}\n`);
    return 2;
  };
  const int = (v: string | undefined, min: number): number | undefined | null => {
    if (v === undefined) return undefined;
    const n = Number(v);
    return Number.isInteger(n) && n >= min ? n : null;
  };
  const port = int(values.port, 0);
  const slots = int(values.slots, 1);
  const idle = int(values['session-idle-ms'], 1);
  if (port === null || (port ?? 0) > 65535) return fail(`--port ${values.port}: expected a port number 0-65535`);
  const adbPort = int(values['adb-port'], 0);
  if (adbPort === null || (adbPort ?? 0) > 65535)
    return fail(`--adb-port ${values['adb-port']}: expected a port number 0-65535`);
  const adbKeys = values['adb-keys'] ?? [];
  for (const flag of ['adb-insecure', 'adb-trust-new-keys', 'adb-keys'] as const) {
    if (values[flag] !== undefined && adbPort === undefined) return fail(`--${flag} needs --adb-port N`);
  }
  if (values['adb-insecure'] && (adbKeys.length || values['adb-trust-new-keys']))
    return fail(
      `--adb-insecure skips AUTH, so --${adbKeys.length ? 'adb-keys' : 'adb-trust-new-keys'} would do nothing; pass one or the other`,
    );
  for (const f of adbKeys) {
    try {
      checkKeyFile(f);
    } catch (e) {
      return fail(
        `--adb-keys ${(e as Error).message}; it must be an adb_keys file this user owns (one adbkey.pub line per key)`,
      );
    }
  }
  if (slots === null) return fail(`--slots ${values.slots}: expected a whole number ≥ 1`);
  if (idle === null) return fail(`--session-idle-ms ${values['session-idle-ms']}: expected milliseconds ≥ 1`);
  if (values.lan && values['no-auth'])
    return fail(
      '--lan cannot be combined with --no-auth: a LAN server must check a token (docs/protocol.md#transport)',
    );
  if (values.lan && !values['token-file'])
    return fail('--lan needs --token-file F: the token must be one you chose and can hand to clients');
  if (values.ephemeral && values['state-dir'])
    return fail('--ephemeral and --state-dir contradict each other; pass one');

  let policy = TEST_RUN_POLICY;
  try {
    if (values.policy) policy = loadPolicy(values.policy);
  } catch (e) {
    return fail((e as Error).message);
  }
  let agent: DeviceAgentOptions | null | undefined;
  try {
    agent = agentFromFlags(values);
  } catch (e) {
    return fail((e as Error).message);
  }
  const stateDir = values.ephemeral ? null : (values['state-dir'] ?? defaultStateDir());
  if (stateDir) {
    try {
      mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    } catch (e) {
      return fail(
        `state directory ${stateDir}: cannot create it (${(e as Error).message}); pass another --state-dir, or --ephemeral to keep nothing on disk`,
      );
    }
  }
  let token: string | undefined;
  let tokenFile: string | null = null;
  if (!values['no-auth']) {
    tokenFile = values['token-file'] ?? (stateDir ? join(stateDir, 'token') : null);
    if (tokenFile) {
      try {
        token = readOrCreateToken(tokenFile);
      } catch (e) {
        const where = values['token-file']
          ? `--token-file ${tokenFile}`
          : `token file ${tokenFile} (in the state directory)`;
        return fail(
          `${where}: ${(e as Error).message}; make it writable, or pass --token-file F or another --state-dir`,
        );
      }
    }
  }

  let sim;
  try {
    sim = await startSimServer({
      port: port ?? 8765,
      lan: values.lan,
      token,
      noAuth: values['no-auth'],
      allowHosts: values['allow-host'],
      stateDir,
      slots: slots ?? undefined,
      policy,
      virtualDisplays: !values['no-virtual-displays'],
      sessionIdleMs: idle ?? undefined,
      skills: values.skills ?? null,
      ...(agent !== undefined ? { agent } : {}),
    });
  } catch (e) {
    return fail((e as Error).message);
  }
  let adbd: RunningAdbd | null = null;
  if (adbPort !== undefined) {
    try {
      adbd = await startAdbd({
        port: adbPort,
        secure: !values['adb-insecure'],
        keyFiles: adbKeys,
        trustUserKeys: true,
        acceptNewKeys: values['adb-trust-new-keys'] ?? false,
        runtime: simRuntimeService({ runtime: sim.runtime, running: sim }),
      });
    } catch (e) {
      await sim.close();
      return fail(`--adb-port ${adbPort}: ${(e as Error).message}; pass another port, or 0 for a free one`);
    }
  }
  const out = (s: string) => process.stdout.write(`${s}\n`);
  // The banner goes out in one write, so whoever waits for "listening on" has the rest too.
  const banner = [`nestwright sim listening on ${sim.url}${values.lan ? ' (and every LAN interface)' : ''}`];
  if (values['no-auth']) banner.push('auth: NONE (--no-auth; for the MCP conformance suite only)');
  else if (values['print-token']) banner.push(`token: ${sim.token}`);
  else
    banner.push(
      `token: in ${tokenFile ?? '(memory only: --ephemeral without --token-file; use --print-token to see it)'}`,
    );
  banner.push(
    `state: ${stateDir ? join(stateDir, 'state.json') : 'ephemeral'}; slots ${sim.runtime.options.slots}; policy ${values.policy ?? 'test (install/uninstall/permissions/clipboard pre-approved)'}`,
  );
  if (adbd)
    banner.push(
      `adb: a device on ${adbd.address} (\`adb connect ${adbd.address}\`; ${adbAuthSummary(values, adbKeys)}); the runtime is its port 8765`,
    );
  out(banner.join('\n'));

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  try {
    // A part that cannot close (a connection a client never ends) must not keep a stopped
    // simulator running: each gets a bounded time, then the process goes on without it.
    await closeWithin('the adb daemon', () => adbd?.close());
    await closeWithin('the runtime', () => sim.close());
  } catch (e) {
    // The last changes could not be written (disk full, read-only): say so, and which state survives.
    process.stderr.write(
      `nestwright sim: stopped, but the last changes were not saved: ${(e as Error).message}. ${stateDir ? join(stateDir, 'state.json') : 'state.json'} keeps the last saved state.\n`,
    );
    return 1;
  }
  out('nestwright sim stopped');
  // Stopped and saved: a handle something left open (a child browser, a client's socket) must
  // not keep the process alive. The timer itself does not hold it.
  setTimeout(() => process.exit(process.exitCode ?? 0), 2_000).unref();
  return 0;
}

/** What the banner says of the adb daemon's AUTH: who gets in. */
function adbAuthSummary(v: { 'adb-insecure'?: boolean; 'adb-trust-new-keys'?: boolean }, keyFiles: string[]): string {
  if (v['adb-insecure']) return 'no AUTH (--adb-insecure): any local user gets in';
  const trusted = [...userKeySources().map((s) => s.path), ...keyFiles].join(', ');
  return v['adb-trust-new-keys']
    ? `AUTH: keys in ${trusted} trusted, and any new key accepted (--adb-trust-new-keys)`
    : `AUTH: keys in ${trusted} trusted; other hosts stay unauthorized`;
}

/** How long each part of a stopping simulator may take to close. */
const CLOSE_MS = 10_000;

async function closeWithin(what: string, close: () => Promise<void> | undefined): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), CLOSE_MS)));
  const done = await Promise.race([Promise.resolve(close()).then(() => 'closed' as const), late]);
  clearTimeout(timer);
  if (done === 'late')
    process.stderr.write(`nestwright sim: ${what} did not close within ${CLOSE_MS / 1000} s; stopping without it.\n`);
}

/** `--model …` flags as the agent's options (undefined: none given, the environment decides); checked here, so a bad one fails at start. */
function agentFromFlags(v: Record<string, unknown>): DeviceAgentOptions | undefined {
  const model = v.model as string | undefined;
  const others = ['model-provider', 'model-base-url', 'model-price'].filter((k) => v[k] !== undefined);
  if (!model) {
    if (others.length) throw new Error(`--${others[0]} needs --model ID (the model id the provider serves)`);
    return undefined;
  }
  const provider = v['model-provider'] as string | undefined;
  if (provider !== undefined && provider !== 'anthropic' && provider !== 'openai-compatible')
    throw new Error(`--model-provider ${provider}: expected anthropic or openai-compatible`);
  const price = v['model-price'] ? parsePrice(v['model-price'] as string, '--model-price') : null;
  const opts: DeviceAgentOptions = {
    model,
    ...(provider ? { provider } : {}),
    ...(v['model-base-url'] ? { baseURL: v['model-base-url'] as string } : {}),
    ...(price ? { prices: { [model]: price } } : {}),
  };
  resolveDeviceAgent(opts, '--model');
  return opts;
}

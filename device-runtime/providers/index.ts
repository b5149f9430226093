import { classifyTransportFailure, DeviceClient, McpToolTransport, DeviceError } from '../client/index.js';
import { describeIssues, toolError } from '../protocol/index.js';
import { DeviceOptionsSchema, type DeviceOptions } from './options.js';

export { DeviceOptionsSchema, type DeviceOptions } from './options.js';

export {
  EMBEDDED_URL_ENV,
  EMBEDDED_TOKEN_ENV,
  COMPANION_URL_ENV,
  COMPANION_TOKEN_ENV,
  startEmbeddedDevice,
  startEmbeddedDeviceEarly,
  type EmbeddedDevice,
  type EarlyEmbeddedDevice,
} from './run-wide.js';
import {
  COMPANION_TOKEN_ENV,
  COMPANION_URL_ENV,
  EMBEDDED_TOKEN_ENV,
  EMBEDDED_URL_ENV,
  startEmbeddedDevice,
} from './run-wide.js';

type CompanionOptions = Extract<DeviceOptions, { provider: 'companion' }>;

/**
 * Start the endpoint companion phones dial in to (the run's global setup does it once; a run
 * without it starts one per worker). Keys come from the options or NESTWRIGHT_COMPANION_KEYS.
 */
export async function startCompanion(opts: CompanionOptions, log?: (line: string) => void) {
  const keys =
    opts.keys ??
    (process.env.NESTWRIGHT_COMPANION_KEYS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
  if (!keys.length)
    throw new DeviceError(
      'connectDevice',
      toolError('INVALID_ARGUMENT', 'use.deviceOptions (companion): no keys: a phone could never authenticate', {
        hint: "Give keys: ['…'] or set NESTWRIGHT_COMPANION_KEYS=key1,key2 (the API key the companion app is set up with).",
      }),
    );
  const { startCompanionServer } = await import('./companion/server.js');
  return startCompanionServer({ ...opts, keys, ...(log ? { log } : {}) });
}

/**
 * Before the workers start (global setup): start an emulator for each `{ provider: 'emulator',
 * avd }` of the run whose AVD is not running yet. Returns the teardown, which stops only those.
 */
export async function startRunEmulators(
  devices: unknown[],
  log: (line: string) => void = (l) => void process.stderr.write(`${l}\n`),
): Promise<() => Promise<void>> {
  const avds = new Map<string, Extract<DeviceOptions, { provider: 'emulator' }>>();
  for (const d of devices) {
    const parsed = DeviceOptionsSchema.safeParse(d);
    if (parsed.success && parsed.data.provider === 'emulator' && !avds.has(parsed.data.avd))
      avds.set(parsed.data.avd, parsed.data);
  }
  if (avds.size === 0) return async () => {};
  const { ensureEmulator } = await import('./emulator/connect.js');
  const stops: Array<() => Promise<void>> = [];
  try {
    for (const opts of avds.values()) stops.push((await ensureEmulator(opts, log)).stop);
  } catch (e) {
    for (const stop of stops) await stop().catch(() => {});
    throw e;
  }
  return async () => {
    for (const stop of stops) await stop().catch(() => {});
  };
}

/**
 * The one factory through which the framework reaches a device: validate the options, find or
 * start the runtime, and connect a client over MCP Streamable HTTP.
 */
export async function connectDevice(raw: unknown): Promise<{ client: DeviceClient; close(): Promise<void> }> {
  const parsed = DeviceOptionsSchema.safeParse(raw ?? { provider: 'sim' });
  if (!parsed.success) {
    throw new DeviceError(
      'connectDevice',
      toolError('INVALID_ARGUMENT', describeIssues(parsed.error, 'use.deviceOptions'), {
        hint: "Set use.deviceOptions to { provider: 'sim' }, { provider: 'nestspace', url, token }, { provider: 'adb', serial? }, { provider: 'emulator', avd } { provider: 'appium', url, capabilities } or { provider: 'companion', keys }.",
      }),
    );
  }
  const opts: DeviceOptions = parsed.data;
  if (opts.provider === 'appium') {
    const { AppiumToolTransport } = await import('./appium/index.js');
    const client = new DeviceClient(new AppiumToolTransport(opts));
    return { client, close: () => client.close() };
  }
  if (opts.provider === 'adb' || opts.provider === 'emulator') {
    // Loaded only when asked for: a simulator run never starts adb.
    const conn =
      opts.provider === 'adb'
        ? await (await import('./adb/connect.js')).connectAdb(opts)
        : await (await import('./emulator/connect.js')).connectEmulator(opts);
    // The worker's device, for specs and reporters that want to name it (one device per worker).
    process.env.NESTWRIGHT_DEVICE_SERIAL = conn.serial;
    return { client: conn.client, close: conn.close };
  }
  let embedded: { close(): Promise<void> } | null = null;
  let url: string;
  let token: string;
  if (opts.provider === 'companion') {
    if (process.env[COMPANION_URL_ENV] && process.env[COMPANION_TOKEN_ENV]) {
      url = process.env[COMPANION_URL_ENV]!;
      token = process.env[COMPANION_TOKEN_ENV]!;
    } else {
      const own = await startCompanion(opts);
      embedded = own;
      ({ url, token } = own);
    }
  } else if (opts.provider === 'sim' && !opts.url) {
    if (process.env[EMBEDDED_URL_ENV] && process.env[EMBEDDED_TOKEN_ENV]) {
      url = process.env[EMBEDDED_URL_ENV]!;
      token = process.env[EMBEDDED_TOKEN_ENV]!;
    } else {
      // No run-wide simulator (plain @playwright/test config): one per worker.
      const own = await startEmbeddedDevice(opts);
      embedded = own;
      ({ url, token } = own);
    }
  } else {
    url = opts.url!;
    token = opts.token ?? '';
  }
  try {
    const transport = await McpToolTransport.http(url, token);
    const client = new DeviceClient(transport);
    // A runtime of another major protocol version, or an older minor one, is refused here.
    await client.info().catch(async (e) => {
      await client.close();
      throw e;
    });
    return {
      client,
      async close() {
        await client.close();
        await embedded?.close();
      },
    };
  } catch (e) {
    await embedded?.close();
    if (e instanceof DeviceError && e.tool === 'runtime_info') throw e;
    const msg = (e as Error).message;
    const code = classifyTransportFailure(e).kind === 'unauthorized' ? 'UNAUTHORIZED' : 'DEVICE_DISCONNECTED';
    throw new DeviceError(
      'connectDevice',
      toolError(code, `cannot connect to ${url}: ${msg}`, {
        hint:
          code === 'UNAUTHORIZED'
            ? "Check use.deviceOptions.token: it must be the runtime's bearer token."
            : 'Is the runtime running? For a real device: `adb forward tcp:8765 tcp:8765` and check the NestSpace MCP switch.',
        retryable: false,
      }),
      { cause: e },
    );
  }
}

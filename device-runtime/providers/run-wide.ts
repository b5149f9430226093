import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { listenEarly, type EarlyListener } from '../mcp-http/early-listener.js';

/**
 * The devices a test run starts once for all its workers (the global setup's), and how a worker
 * finds them: the environment. Nothing here loads the device client, zod's schemas or the MCP SDK
 * (providers/index.ts does), so the global setup and a worker's import of the package stay light;
 * the simulator itself is imported only when it starts.
 */

/** Where the embedded simulator of this run listens (set by the global setup for workers). */
export const EMBEDDED_URL_ENV = 'NESTWRIGHT_SIM_URL';
export const EMBEDDED_TOKEN_ENV = 'NESTWRIGHT_SIM_TOKEN';
/** Where the run's companion endpoint serves the device protocol to workers (set by the global setup). */
export const COMPANION_URL_ENV = 'NESTWRIGHT_COMPANION_URL';
export const COMPANION_TOKEN_ENV = 'NESTWRIGHT_COMPANION_TOKEN';

export interface EmbeddedDevice {
  url: string;
  token: string;
  close(): Promise<void>;
}

/**
 * Start the embedded simulated runtime in this process (the only place that loads the
 * simulator). Which control channels it offers comes from NESTWRIGHT_CHANNELS
 * (`aapm,no-accessibility,no-shizuku`), so a whole run can exercise the Shizuku fallback.
 */
export async function startEmbeddedDevice(
  opts: {
    faults?: string;
    seed?: number;
    slots?: number;
    /** Serve this early listener's port (global setup: see mcp-http/early-listener.ts), with this token. */
    listener?: EarlyListener;
    token?: string;
  } = {},
): Promise<EmbeddedDevice> {
  const { startSimServer, channelsFromEnv } = await import('../sim/index.js');
  return startSimServer({ ...(opts as object), channels: channelsFromEnv() } as never);
}

/** The run's simulator, known before it loads: see {@link startEmbeddedDeviceEarly}. */
export interface EarlyEmbeddedDevice {
  url: string;
  token: string;
  /** Load and start the simulator now (once; later calls return the same promise). */
  start(): Promise<EmbeddedDevice>;
  /** Stop it, or, when it never started, stop listening. */
  close(): Promise<void>;
}

/**
 * The embedded simulated runtime for a test run, started without holding the run up: its address
 * and token are known at once (a port already listening on 127.0.0.1, a fresh token), and the
 * simulator loads when `start()` is called (the global setup does, once Playwright has had time
 * to list the specs) or when the first connection comes, which a worker makes as it imports the
 * package ({@link wakeEmbeddedDevice}): the runner loads it beside a worker starting rather than
 * on the thread that lists the specs. A connection made
 * before it serves waits. `start()` fails with why it cannot (the port is then closed), and
 * `onStartFailure` hears it, whatever started it.
 */
export async function startEmbeddedDeviceEarly(
  opts: { faults?: string; seed?: number; slots?: number } = {},
  onStartFailure: (e: unknown) => void = () => {},
): Promise<EarlyEmbeddedDevice> {
  let started: Promise<EmbeddedDevice> | undefined;
  const token = randomBytes(24).toString('base64url');
  const start = (): Promise<EmbeddedDevice> =>
    (started ??= startEmbeddedDevice({ ...opts, listener, token }).catch(async (e: unknown) => {
      await listener.close();
      onStartFailure(e);
      throw e;
    }));
  const listener: EarlyListener = await listenEarly('127.0.0.1', () => void start().catch(() => {}));
  return {
    url: `http://127.0.0.1:${listener.port}/mcp`,
    token,
    start,
    close: async () => {
      if (started) await (await started).close();
      else await listener.close();
    },
  };
}

/**
 * In a worker of a run with an embedded simulator: connect to its port and hang up, so the
 * runner starts loading the simulator now, while this worker loads the package, rather than
 * when its first test asks for the device. Does nothing without one; never throws.
 */
export function wakeEmbeddedDevice(): void {
  const url = process.env[EMBEDDED_URL_ENV];
  if (!url || process.env.TEST_WORKER_INDEX === undefined) return;
  const port = Number(/^http:\/\/127\.0\.0\.1:(\d+)\//.exec(url)?.[1]);
  if (!port) return;
  const socket = connect(port, '127.0.0.1');
  socket.unref();
  socket.once('connect', () => socket.destroy());
  socket.once('error', () => socket.destroy());
}

import { randomBytes } from 'node:crypto';
import { startSimServer, type RunningSim } from '../server.js';
import type { SimRuntime } from '../runtime.js';

/**
 * The NestSpace runtime as an app on the simulated device: its package, and its foreground
 * service — the simulator's MCP server, started by `am start-foreground-service` and stopped by
 * `am force-stop`. Its token is made on first start, as the design's runtime does, and kept.
 */
export interface RuntimeService {
  readonly package: string;
  readonly versionName: string;
  readonly versionCode: number;
  /** The host port the MCP server listens on while the service runs; null when stopped. */
  port(): number | null;
  /** The token, once the runtime has started once; null before. */
  token(): string | null;
  /** A process id for `pidof` while it runs. */
  pid(): number | null;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface SimRuntimeServiceOptions {
  runtime: SimRuntime;
  package?: string;
  versionName?: string;
  versionCode?: number;
  /** The token the runtime uses (default: a random one made on first start). */
  token?: string;
  /** Already running: this server (`nestwright sim --adb-port`) is the service. */
  running?: RunningSim;
}

let pids = 4000;

/** A RuntimeService over one SimRuntime: stopping closes its HTTP host, the runtime's spaces live on. */
export function simRuntimeService(opts: SimRuntimeServiceOptions): RuntimeService {
  let sim: RunningSim | null = opts.running ?? null;
  let token: string | null = opts.running?.token ?? opts.token ?? null;
  let pid: number | null = sim ? ++pids : null;
  let starting: Promise<void> | null = null;
  return {
    package: opts.package ?? 'com.coke.nestspace',
    versionName: opts.versionName ?? '0.3.0',
    versionCode: opts.versionCode ?? 3,
    port: () => (sim ? Number(new URL(sim.url).port) : null),
    token: () => token,
    pid: () => pid,
    start() {
      if (sim) return Promise.resolve();
      token ??= randomBytes(24).toString('base64url');
      starting ??= startSimServer({ runtime: opts.runtime, port: 0, token })
        .then((s) => {
          sim = s;
          pid = ++pids;
        })
        .finally(() => (starting = null));
      return starting;
    },
    async stop() {
      const s = sim;
      sim = null;
      pid = null;
      await s?.close();
    },
  };
}

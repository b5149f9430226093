import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DeviceClient, DeviceError, McpToolTransport } from '../../client/index.js';
import { toolError } from '../../protocol/index.js';
import { Adb } from './adb.js';
import { waitForBoot } from './boot.js';
import { listDevices } from './devices.js';
import { ProviderError } from './errors.js';
import { forwardPort, removeForward } from './forward.js';
import { ProxyReverse } from './proxy-reverse.js';
import { WebViewSockets } from './webview-sockets.js';
import { DeviceMonitor } from './monitor.js';
import { GuardedTransport } from './guarded-transport.js';
import type { AdbDeviceOptions } from './options.js';
import {
  ensureRuntimeInstalled,
  obtainToken,
  RUNTIME_DEFAULTS,
  runtimeAnswers,
  startRuntimeService,
} from './runtime.js';
import { selectDevice } from './select.js';

export interface AdbConnection {
  client: DeviceClient;
  serial: string;
  /** http://127.0.0.1:<forwarded port>/mcp */
  url: string;
  /** Where the time went (bench): all of it, and the wall time spent waiting on the device (adb, HTTP probe, MCP handshake). */
  timings: { totalMs: number; deviceMs: number };
  close(): Promise<void>;
}

export interface AdbConnectContext {
  api?: string;
  /** Spreads workers over `serials` / `pool`; default: Playwright's TEST_PARALLEL_INDEX. */
  workerIndex?: number;
  /** A serial chosen already (the emulator provider's). */
  serial?: string;
  onProgress?: (line: string) => void;
}

/**
 * The adb provider: find the device (`adb devices -l`), wait for its boot, make sure the NestSpace
 * runtime is installed and its service answers, forward a free local port to its port 8765, get
 * the token, connect the MCP client, and watch the device (`adb track-devices`) so that losing it
 * fails calls at once with DEVICE_DISCONNECTED. `close()` removes the forward; so does process exit.
 */
export async function connectAdb(
  opts: Omit<AdbDeviceOptions, 'provider'>,
  ctx: AdbConnectContext = {},
): Promise<AdbConnection> {
  const t0 = performance.now();
  const api = ctx.api ?? 'connectDevice(adb)';
  const adb = Adb.find(api);
  const workerIndex = ctx.workerIndex ?? Number(process.env.TEST_PARALLEL_INDEX ?? 0);
  const serial = ctx.serial ?? selectDevice(api, await listDevices(adb), opts, workerIndex).serial;
  const rt = opts.runtime ?? {};
  const devicePort = opts.port ?? RUNTIME_DEFAULTS.port;

  // Independent adb round trips in parallel: boot state, the runtime package, the forward.
  const [boot, installed, port] = await Promise.allSettled([
    adb.shell(serial, ['getprop', 'sys.boot_completed'], { timeoutMs: 5_000 }),
    ensureRuntimeInstalled(adb, serial, rt),
    forwardPort(adb, serial, devicePort),
  ]);
  const local = port.status === 'fulfilled' ? port.value : null;
  const cleanup = async () => {
    if (local !== null) await removeForward(adb, serial, local);
  };
  let monitor: DeviceMonitor | null = null;
  const onDevice = <T>(p: Promise<T>) => adb.deviceClock.track(p);
  try {
    if (port.status === 'rejected') throw port.reason;
    if (boot.status === 'rejected') throw boot.reason;
    if (boot.value.stdout.trim() !== '1') {
      ctx.onProgress?.(`${serial}: waiting for boot to complete`);
      await waitForBoot(adb, serial, {
        timeoutMs: opts.bootTimeoutMs ?? 120_000,
        onProgress: (p) => ctx.onProgress?.(`${serial}: ${p.stage} (${(p.elapsedMs / 1000).toFixed(1)} s)`),
      });
      // The package manager was not up before the boot completed: ask again.
      await ensureRuntimeInstalled(adb, serial, rt);
    } else if (installed.status === 'rejected') {
      throw installed.reason;
    }

    const url = `http://127.0.0.1:${local}/mcp`;
    const tokenP = obtainToken(adb, serial, rt, opts.token).then(
      (t) => ({ t }),
      (e: unknown) => ({ e }),
    );
    if (!(await onDevice(runtimeAnswers(url)))) {
      ctx.onProgress?.(`${serial}: starting the NestSpace runtime service`);
      await startRuntimeService(adb, serial, rt);
      const limit = rt.startTimeoutMs ?? RUNTIME_DEFAULTS.startTimeoutMs;
      const until = Date.now() + limit;
      while (!(await onDevice(runtimeAnswers(url)))) {
        if (Date.now() > until) {
          throw new ProviderError(
            api,
            'RUNTIME_NOT_RUNNING',
            `the NestSpace runtime on ${serial} does not answer on its port ${devicePort} ${Math.round(limit / 1000)} s after its service was started`,
            {
              hint: 'Open the NestSpace app on the device and check its MCP switch; `adb logcat` shows why the service stopped.',
              serial,
            },
          );
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    let tok = await tokenP;
    // A runtime that was just started writes its token on first launch: read it again.
    if ('e' in tok)
      tok = await obtainToken(adb, serial, rt, opts.token).then(
        (t) => ({ t }),
        (e: unknown) => ({ e }),
      );
    if ('e' in tok) throw tok.e;
    const token = tok.t;

    let guard: GuardedTransport | null = null;
    monitor = new DeviceMonitor(adb, serial, (reason) => guard?.lose(reason));
    const [inner] = await adb.deviceClock.track(Promise.all([connectMcp(api, url, token, serial), monitor.start()]));
    guard = new GuardedTransport(inner, serial);
    if (monitor.lostReason) guard.lose(monitor.lostReason);
    // WebViews' DevTools sockets (the `webview` extension) are forwarded as they are listed; a
    // proxy on this machine's loopback (the `net_proxy` extension) is reversed to the phone.
    const client = new DeviceClient(new ProxyReverse(new WebViewSockets(guard, adb, serial), adb, serial));
    const m = monitor;
    return {
      client,
      serial,
      url,
      timings: { totalMs: performance.now() - t0, deviceMs: adb.deviceClock.busyMs },
      async close() {
        m.stop();
        // Ending the MCP session and removing the forward are independent; a runtime that does
        // not answer the session's DELETE must not hold the worker's teardown.
        const ended = client.close().catch(() => {});
        await Promise.all([Promise.race([ended, new Promise((r) => setTimeout(r, 5_000).unref())]), cleanup()]);
      },
    };
  } catch (e) {
    monitor?.stop();
    await cleanup();
    throw e;
  }
}

/**
 * The MCP handshake over the forward. A connection adb drops between the runtime's answer and the
 * next request (a keep-alive race, most often while the device is busy) fails the handshake with
 * no harm done: it is tried up to three times; a refused token is not retried.
 */
async function connectMcp(api: string, url: string, token: string, serial: string): Promise<McpToolTransport> {
  let last: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await McpToolTransport.http(url, token);
    } catch (e) {
      last = e;
      if (refused(e)) break;
      await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
    }
  }
  {
    const e = last as Error;
    const unauthorized = refused(e);
    throw new DeviceError(
      api,
      toolError(
        unauthorized ? 'UNAUTHORIZED' : 'DEVICE_DISCONNECTED',
        `the runtime on ${serial} (forwarded to ${url}) ${unauthorized ? 'refused the token' : `did not complete the MCP handshake: ${(e as Error).message}`}`,
        {
          hint: unauthorized
            ? "The token (use.deviceOptions.token, NESTSPACE_TOKEN or the one read from the device) is not this runtime's; unset the first two to read it from the device."
            : 'Check the runtime on the device (`npx nestwright devices`).',
          retryable: false,
        },
      ),
      { cause: e },
    );
  }
}

/** The runtime answered 401: the SDK's StreamableHTTPError carries the HTTP status as its code. */
function refused(e: unknown): boolean {
  return e instanceof StreamableHTTPError && e.code === 401;
}

import { Adb } from '../adb/adb.js';
import { connectAdb, type AdbConnection, type AdbConnectContext } from '../adb/connect.js';
import { ProviderError } from '../adb/errors.js';
import { startEmulator, stopEmulator } from './lifecycle.js';
import type { EmulatorDeviceOptions } from './options.js';
import { runningEmulators } from './running.js';

/** The emulator running `avd`, if any (the first one when several run it). */
export async function findRunning(adb: Adb, avd: string): Promise<string | null> {
  return (await runningEmulators(adb)).find((e) => e.avd === avd)?.serial ?? null;
}

/**
 * For the run (global setup): make sure an emulator runs `opts.avd`. Starts one when none is
 * running and returns how to stop it — only the one it started; a running one is left alone.
 */
export async function ensureEmulator(
  opts: EmulatorDeviceOptions,
  onLine: (s: string) => void = () => {},
): Promise<{ serial: string; started: boolean; stop(): Promise<void> }> {
  const api = `use.deviceOptions (emulator ${opts.avd})`;
  const adb = Adb.find(api);
  const existing = await findRunning(adb, opts.avd);
  if (existing) return { serial: existing, started: false, stop: async () => {} };
  onLine(
    `nestwright: starting emulator ${opts.avd}${opts.snapshot ? ' (from its snapshot when there is one)' : ' (cold boot)'}…`,
  );
  const started = await startEmulator(adb, {
    avd: opts.avd,
    headless: opts.headless,
    snapshot: opts.snapshot,
    consolePort: opts.consolePort,
    args: opts.args,
    bootTimeoutMs: opts.bootTimeoutMs,
    onProgress: (p) => onLine(`nestwright: ${p.serial} ${p.stage} ${(p.elapsedMs / 1000).toFixed(1)} s`),
  });
  onLine(`nestwright: ${started.serial} (${opts.avd}) booted in ${(started.bootMs / 1000).toFixed(1)} s`);
  return { serial: started.serial, started: true, stop: () => stopEmulator(adb, started.serial) };
}

/** A worker's connection: the emulator running `avd` (started by the run's global setup), through adb. */
export async function connectEmulator(
  opts: EmulatorDeviceOptions,
  ctx: AdbConnectContext = {},
): Promise<AdbConnection> {
  const api = ctx.api ?? `connectDevice(emulator ${opts.avd})`;
  const adb = Adb.find(api);
  const serial = await findRunning(adb, opts.avd);
  if (!serial) {
    throw new ProviderError(api, 'EMULATOR_NOT_RUNNING', `no emulator is running AVD ${opts.avd}`, {
      hint:
        "nestwright's defineConfig starts it for the run (global setup); with a plain Playwright config start it first: `npx nestwright emulator start " +
        opts.avd +
        '`.',
    });
  }
  const { provider: _p, avd: _a, headless: _h, snapshot: _s, consolePort: _c, args: _x, ...rest } = opts;
  return connectAdb(rest, { ...ctx, api, serial });
}

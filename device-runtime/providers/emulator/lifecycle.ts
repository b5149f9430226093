import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Adb } from '../adb/adb.js';
import { waitForBoot, type BootProgress } from '../adb/boot.js';
import { listDevices } from '../adb/devices.js';
import { ProviderError } from '../adb/errors.js';
import { findEmulator, listAvds } from './avds.js';
import { freeConsolePort, runningEmulators } from './running.js';

export interface StartOptions {
  avd: string;
  /** `-no-window`; default true. */
  headless?: boolean | undefined;
  /**
   * false (default): a cold boot (`-no-snapshot-load`), the quick-boot snapshot saved on exit;
   * true: boot from that snapshot when there is one (and save it again); a name: `-snapshot NAME`.
   */
  snapshot?: boolean | string | undefined;
  consolePort?: number | undefined;
  args?: string[] | undefined;
  bootTimeoutMs?: number | undefined;
  onProgress?: ((p: BootProgress) => void) | undefined;
}

export interface StartedEmulator {
  serial: string;
  avd: string;
  pid: number;
  log: string;
  bootMs: number;
}

/** Where nestwright keeps what it started: a record per emulator and its log. */
export function emulatorStateDir(): string {
  return resolve(process.env.NESTWRIGHT_EMULATOR_DIR ?? '.nestwright/emulators');
}

/** The emulator's command line for these options. */
export function emulatorArgs(o: StartOptions, port: number): string[] {
  const args = ['-avd', o.avd, '-port', String(port), '-no-audio', '-no-boot-anim'];
  if (o.headless !== false) args.push('-no-window');
  if (typeof o.snapshot === 'string') args.push('-snapshot', o.snapshot);
  else if (o.snapshot !== true) args.push('-no-snapshot-load');
  return [...args, ...(o.args ?? [])];
}

/**
 * Start an emulator for `avd` in the background on a free console port, and wait for its boot
 * (`sys.boot_completed`) with progress. Several can run at once, each on its own port pair.
 */
export async function startEmulator(adb: Adb, o: StartOptions): Promise<StartedEmulator> {
  const api = adb.api;
  const bin = findEmulator(api);
  const avds = await listAvds(api, bin);
  if (!avds.includes(o.avd)) {
    throw new ProviderError(
      api,
      'AVD_NOT_FOUND',
      `no AVD named ${o.avd}; the SDK has ${avds.length ? avds.join(', ') : 'none'}`,
      {
        hint: 'Create one: `avdmanager create avd -n NAME -k "system-images;android-34;google_apis;x86_64"` (`npx nestwright emulator list` lists them).',
      },
    );
  }
  const running = await runningEmulators(adb);
  const port = o.consolePort ?? freeConsolePort(running);
  const serial = `emulator-${port}`;
  if (running.some((r) => r.serial === serial)) {
    throw new ProviderError(
      api,
      'INVALID_OPTIONS',
      `console port ${port} is taken by ${serial} (${running.find((r) => r.serial === serial)!.avd ?? 'another AVD'})`,
      {
        hint: 'Leave consolePort out to take the first free one.',
      },
    );
  }
  const dir = emulatorStateDir();
  mkdirSync(dir, { recursive: true });
  const log = join(dir, `${serial}.log`);
  const fd = openSync(log, 'w');
  const argv = emulatorArgs(o, port);
  const child = spawn(bin, argv, { detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  let exited: string | null = null;
  child.once('exit', (code, signal) => (exited = `the emulator exited with ${code ?? signal} (log: ${log})`));
  child.once('error', (e) => (exited = `the emulator could not start: ${e.message}`));
  child.unref();
  writeFileSync(
    join(dir, `${serial}.json`),
    JSON.stringify({ serial, avd: o.avd, pid: child.pid, argv, startedAt: new Date().toISOString() }, null, 2),
  );
  const t0 = Date.now();
  try {
    await waitForBoot(adb, serial, {
      timeoutMs: o.bootTimeoutMs ?? 300_000,
      intervalMs: 250,
      ...(o.onProgress ? { onProgress: o.onProgress } : {}),
      alive: () => exited && `${exited}\n${tail(log)}`,
    });
  } catch (e) {
    await stopEmulator(adb, serial).catch(() => {});
    throw e;
  }
  return { serial, avd: o.avd, pid: child.pid!, log, bootMs: Date.now() - t0 };
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .slice(-8)
      .map((l) => `    ${l}`)
      .join('\n');
  } catch {
    return '';
  }
}

/** The emulators nestwright started (records in the state dir) that are still running. */
export function startedRecords(): Array<{ serial: string; avd: string; pid: number }> {
  const dir = emulatorStateDir();
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { serial: string; avd: string; pid: number })
    .filter((r) => alive(r.pid));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stop an emulator: `adb emu kill` (it saves its quick-boot snapshot on the way out), then wait
 * until adb no longer lists it; the process nestwright started is killed if it lingers.
 */
export async function stopEmulator(adb: Adb, serial: string, timeoutMs = 30_000): Promise<void> {
  const record = join(emulatorStateDir(), `${serial}.json`);
  const pid = existsSync(record) ? (JSON.parse(readFileSync(record, 'utf8')) as { pid: number }).pid : null;
  await adb.run(serial, ['emu', 'kill'], { timeoutMs: 10_000 }).catch(() => {});
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const listed = (await listDevices(adb)).some((d) => d.serial === serial);
    if (!listed && (pid === null || !alive(pid))) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  if (pid !== null && alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(record, { force: true });
}

import type { Adb } from './adb.js';
import { deviceProps, listDevices, type AdbDevice } from './devices.js';
import { RUNTIME_DEFAULTS, runtimeVersion } from './runtime.js';

export interface DeviceRow {
  serial: string;
  state: string;
  model: string | null;
  api: number | null;
  abi: string | null;
  emulator: boolean;
  avd: string | null;
  booted: boolean | null;
  /** The NestSpace runtime: its version, and whether its process runs; null when unknown (device not online). */
  runtime: { installed: boolean; version: string | null; running: boolean } | null;
  /** What went wrong asking the device, if anything (the row still lists it). */
  problem: string | null;
}

/**
 * Every device adb lists, with model, API level, ABI and the NestSpace runtime's version and
 * state — three adb calls per online device (getprop, dumpsys package, pidof), all in parallel.
 */
export async function describeDevices(
  adb: Adb,
  opts: { runtimePackage?: string; timeoutMs?: number } = {},
  listed?: AdbDevice[],
): Promise<DeviceRow[]> {
  const pkg = opts.runtimePackage ?? RUNTIME_DEFAULTS.package;
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const devices = listed ?? (await listDevices(adb));
  return Promise.all(
    devices.map(async (d): Promise<DeviceRow> => {
      const row: DeviceRow = {
        serial: d.serial,
        state: d.state,
        model: d.model?.replace(/_/g, ' ') ?? null,
        api: null,
        abi: null,
        emulator: d.serial.startsWith('emulator-'),
        avd: null,
        booted: null,
        runtime: null,
        problem: null,
      };
      if (d.state !== 'device') return row;
      const [props, version, pid] = await Promise.allSettled([
        deviceProps(adb, d.serial, timeoutMs),
        runtimeVersion(adb, d.serial, pkg),
        adb.shell(d.serial, ['pidof', pkg], { timeoutMs, okExitCodes: [1] }),
      ]);
      if (props.status === 'fulfilled') {
        Object.assign(row, {
          model: props.value.model ?? row.model,
          api: props.value.api,
          abi: props.value.abi,
          emulator: props.value.emulator || row.emulator,
          avd: props.value.avd,
          booted: props.value.bootCompleted,
        });
      } else {
        row.problem = (props.reason as Error).message.split('\n')[0]!;
      }
      if (version.status === 'fulfilled') {
        row.runtime = {
          installed: version.value !== null,
          version: version.value?.versionName ?? null,
          running: pid.status === 'fulfilled' && pid.value.stdout.trim() !== '',
        };
      } else if (row.booted !== false) {
        row.problem ??= (version.reason as Error).message.split('\n')[0]!;
      }
      return row;
    }),
  );
}

/** The runtime column: `0.3.0 running`, `0.3.0 stopped`, `not installed`, or why it is unknown. */
export function runtimeCell(r: DeviceRow): string {
  if (r.state !== 'device') return '-';
  if (r.booted === false) return '(booting)';
  if (!r.runtime) return '?';
  if (!r.runtime.installed) return 'not installed';
  return `${r.runtime.version ?? 'installed'} ${r.runtime.running ? 'running' : 'stopped'}`;
}

import type { Adb } from '../adb/adb.js';
import { listDevices, type AdbDevice } from '../adb/devices.js';

export interface RunningEmulator {
  serial: string;
  consolePort: number;
  state: string;
  /** Null while the console does not answer yet (early boot). */
  avd: string | null;
}

/** Emulators adb lists (`emulator-<console port>`), with the AVD each runs (`adb emu avd name`). */
export async function runningEmulators(adb: Adb, devices?: AdbDevice[]): Promise<RunningEmulator[]> {
  const emus = (devices ?? (await listDevices(adb))).filter((d) => /^emulator-\d+$/.test(d.serial));
  return Promise.all(
    emus.map(async (d) => {
      const r = await adb.run(d.serial, ['emu', 'avd', 'name'], { timeoutMs: 5_000 }).catch(() => null);
      const first = r?.stdout.split(/\r?\n/)[0]?.trim();
      return {
        serial: d.serial,
        consolePort: Number(d.serial.slice('emulator-'.length)),
        state: d.state,
        avd: first && first !== 'KO' && !first.startsWith('KO:') ? first : null,
      };
    }),
  );
}

/** The first even console port from 5554 that no listed emulator uses. */
export function freeConsolePort(running: Array<{ consolePort: number }>): number {
  const used = new Set(running.flatMap((r) => [r.consolePort, r.consolePort + 1]));
  for (let p = 5554; p <= 5682; p += 2) if (!used.has(p)) return p;
  throw new Error('no free emulator console port between 5554 and 5682');
}

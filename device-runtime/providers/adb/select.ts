import type { AdbDevice } from './devices.js';
import { ProviderError } from './errors.js';

export interface Selection {
  serial?: string | undefined;
  serials?: string[] | undefined;
  pool?: boolean | undefined;
}

const START_ONE =
  'Start an emulator (`npx nestwright emulator start <avd>`, `npx nestwright emulator list` lists them) or plug in a phone with USB debugging on; `adb devices -l` should then list it as "device".';

function table(devices: AdbDevice[]): string {
  return devices.map((d) => `    ${d.serial.padEnd(22)} ${d.state}${d.model ? ` model:${d.model}` : ''}`).join('\n');
}

function unusable(api: string, d: AdbDevice): ProviderError {
  if (d.state === 'unauthorized') {
    return new ProviderError(
      api,
      'DEVICE_UNAUTHORIZED',
      `${d.serial} has not authorized this computer for USB debugging`,
      {
        hint: 'Unlock the device and accept the "Allow USB debugging?" prompt (tick "Always allow"); if none shows, revoke USB debugging authorizations in Developer options and replug.',
        serial: d.serial,
      },
    );
  }
  return new ProviderError(api, 'DEVICE_OFFLINE', `${d.serial} is ${d.state}`, {
    hint:
      d.state === 'offline'
        ? 'An emulator shows offline while it boots — wait for it (`adb wait-for-device`); a phone that stays offline needs replugging or `adb reconnect`.'
        : 'Fix the device\'s adb connection (`adb devices -l` must show it as "device"); on Linux "no permissions" needs udev rules for the device.',
    serial: d.serial,
  });
}

/**
 * Which device this worker uses. One attached device: that one. Several: `serial` must name one
 * (they are listed), or `serials` / `pool` spread workers over the online ones by worker index —
 * so a device that went offline is skipped by workers that start after it dropped.
 */
export function selectDevice(api: string, devices: AdbDevice[], sel: Selection, workerIndex: number): AdbDevice {
  if (sel.serial) {
    const d = devices.find((x) => x.serial === sel.serial);
    if (!d) {
      throw new ProviderError(
        api,
        devices.length ? 'SERIAL_NOT_FOUND' : 'NO_DEVICE',
        `no device ${sel.serial} in \`adb devices -l\`${devices.length ? `; attached:\n${table(devices)}` : ' (none attached)'}`,
        {
          hint: devices.length
            ? 'Use one of the serials above (use.deviceOptions.serial), or check the cable / emulator.'
            : START_ONE,
          serial: sel.serial,
        },
      );
    }
    if (d.state !== 'device') throw unusable(api, d);
    return d;
  }
  if (sel.serials || sel.pool) {
    const candidates = sel.serials
      ? sel.serials.map(
          (s) => devices.find((d) => d.serial === s) ?? ({ serial: s, state: 'not attached' } as AdbDevice),
        )
      : devices;
    const online = candidates.filter((d) => d.state === 'device');
    if (online.length === 0) {
      throw new ProviderError(
        api,
        'NO_DEVICE',
        `none of the ${sel.serials ? 'devices in use.deviceOptions.serials' : 'attached devices'} is online${candidates.length ? `:\n${table(candidates)}` : ' (none attached)'}`,
        {
          hint: START_ONE,
        },
      );
    }
    return online[workerIndex % online.length]!;
  }
  if (devices.length === 0)
    throw new ProviderError(api, 'NO_DEVICE', 'no Android device is attached (`adb devices -l` lists none)', {
      hint: START_ONE,
    });
  if (devices.length > 1) {
    throw new ProviderError(
      api,
      'SERIAL_REQUIRED',
      `${devices.length} devices are attached; say which one:\n${table(devices)}`,
      {
        hint: "Set use.deviceOptions.serial to one of them, or spread workers over several with serials: ['…', '…'] (or pool: true for all).",
      },
    );
  }
  const d = devices[0]!;
  if (d.state !== 'device') throw unusable(api, d);
  return d;
}

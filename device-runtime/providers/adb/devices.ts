import type { Adb } from './adb.js';

/** One line of `adb devices -l`. `state` is adb's: device, offline, unauthorized, no permissions, … */
export interface AdbDevice {
  serial: string;
  state: string;
  usb: string | null;
  product: string | null;
  model: string | null;
  device: string | null;
  transportId: number | null;
}

/**
 * Parse `adb devices -l`. Lines are `SERIAL<spaces>STATE key:value…` (adb pads the serial to 22
 * columns, or uses a tab without -l); the state can be two words (`no permissions (…)`), so it
 * runs up to the first `key:value` pair. Daemon start-up chatter (`* daemon …`) is skipped.
 */
export function parseDevices(out: string): AdbDevice[] {
  const devices: AdbDevice[] = [];
  for (const raw of out.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('List of devices') || line.startsWith('*') || line.startsWith('adb ')) continue;
    const m = /^(\S+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const rest = m[2]!.split(/\s+/);
    const stateWords: string[] = [];
    const kv: Record<string, string> = {};
    for (const w of rest) {
      const i = w.indexOf(':');
      if (i > 0 && /^(usb|product|model|device|transport_id)$/.test(w.slice(0, i))) kv[w.slice(0, i)] = w.slice(i + 1);
      else if (Object.keys(kv).length === 0) stateWords.push(w);
    }
    devices.push({
      serial: m[1]!,
      state: stateWords.join(' ') || 'unknown',
      usb: kv.usb ?? null,
      product: kv.product ?? null,
      model: kv.model ?? null,
      device: kv.device ?? null,
      transportId: kv.transport_id ? Number(kv.transport_id) : null,
    });
  }
  return devices;
}

export async function listDevices(adb: Adb): Promise<AdbDevice[]> {
  return parseDevices((await adb.run(null, ['devices', '-l'])).stdout);
}

/** `getprop` with no argument: every `[key]: [value]` line, as a record. */
export function parseGetprop(out: string): Record<string, string> {
  const props: Record<string, string> = {};
  for (const m of out.matchAll(/^\[([^\]]+)\]: \[([^\]]*)\]/gm)) props[m[1]!] = m[2]!;
  return props;
}

export interface DeviceProps {
  model: string | null;
  api: number | null;
  release: string | null;
  abi: string | null;
  emulator: boolean;
  avd: string | null;
  bootCompleted: boolean;
  bootAnimation: string | null;
}

/** One `adb shell getprop` (all properties) rather than one adb round trip per property. */
export async function deviceProps(adb: Adb, serial: string, timeoutMs = 5_000): Promise<DeviceProps> {
  const p = parseGetprop((await adb.shell(serial, ['getprop'], { timeoutMs })).stdout);
  const api = Number(p['ro.build.version.sdk']);
  return {
    model: p['ro.product.model'] || null,
    api: Number.isInteger(api) && api > 0 ? api : null,
    release: p['ro.build.version.release'] || null,
    abi: p['ro.product.cpu.abi'] || null,
    emulator: p['ro.kernel.qemu'] === '1' || p['ro.boot.qemu'] === '1',
    avd: p['ro.boot.qemu.avd_name'] || p['ro.kernel.qemu.avd_name'] || null,
    bootCompleted: p['sys.boot_completed'] === '1',
    bootAnimation: p['init.svc.bootanim'] || null,
  };
}

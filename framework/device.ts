import type { DeviceClient } from '../device-runtime/client/index.js';
import type { DeviceOptions } from '../device-runtime/providers/index.js';
import type { RuntimeInfo } from '../device-runtime/protocol/index.js';
import { Space } from './space.js';

/** What the `device` fixture offers once connected, on top of its options. */
export interface DeviceApi {
  /** The protocol client: every tool of the device, validated both ways. */
  readonly client: DeviceClient;
  info(): Promise<RuntimeInfo | null>;
  /**
   * How much slower than a phone this device runs (runtime_info `timing`, e.g. the simulator's
   * `hostile` profile: 3), or null when it does not say. nestwright multiplies timeouts by it.
   */
  readonly timing: { profile: string; timeoutScale: number } | null;
  /** A second space (its own screen), e.g. for two users acting at the same time. Deleted after the worker. */
  newSpace(name?: string): Promise<Space>;
}

/**
 * The `device` fixture. In playwright.config.ts `use.device` holds the options (`{ provider: 'sim' }`);
 * in a test the same fixture is the connected device: options plus {@link DeviceApi}.
 */
export type Device = DeviceOptions & DeviceApi;

/** Make a `use.device` value for test.use() with its type: `test.use({ device: devices.sim({ faults: 'hostile' }) })`. */
export const devices = {
  sim: (opts: Omit<Extract<DeviceOptions, { provider: 'sim' }>, 'provider'> = {}): Device => ({ provider: 'sim', ...opts }) as Device,
  nestspace: (opts: Omit<Extract<DeviceOptions, { provider: 'nestspace' }>, 'provider'>): Device => ({ provider: 'nestspace', ...opts }) as Device,
  /** A device adb lists: `devices.adb({ serial })`, or spread workers with `{ serials }` / `{ pool: true }`. */
  adb: (opts: Omit<Extract<DeviceOptions, { provider: 'adb' }>, 'provider'> = {}): Device => ({ provider: 'adb', ...opts }) as Device,
  /** An emulator running `avd`, started for the run when none is: `devices.emulator({ avd: 'Pixel_8_API_34' })`. */
  emulator: (opts: Omit<Extract<DeviceOptions, { provider: 'emulator' }>, 'provider'>): Device => ({ provider: 'emulator', ...opts }) as Device,
};

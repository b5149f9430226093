import type { DeviceClient } from '../../device-runtime/client/index.js';
import type { DeviceOptions } from '../../device-runtime/providers/index.js';
import type { RuntimeInfo } from '../../device-runtime/protocol/index.js';
import { Space } from './space.js';

/** What the `device` fixture offers once connected, on top of its options. */
export interface DeviceApi {
  /**
   * The protocol client: every tool of the device, validated both ways (docs/protocol.md).
   *
   * @example
   * ```ts
   * const { spaces } = await device.client.call('space_list', {});
   * ```
   */
  readonly client: DeviceClient;
  /**
   * The runtime's `runtime_info`: protocol version, device traits, capabilities, extensions;
   * null when the runtime does not offer the tool.
   *
   * @example
   * ```ts
   * const info = await device.info();
   * test.skip(!info?.extensions.includes('clear_data'), 'needs a runtime that wipes instances');
   * ```
   */
  info(): Promise<RuntimeInfo | null>;
  /**
   * How much slower than a phone this device runs (runtime_info `timing`, e.g. the simulator's
   * `hostile` profile: 3), or null when it does not say. nestwright multiplies timeouts by it.
   *
   * @example
   * ```ts
   * const slow = (device.timing?.timeoutScale ?? 1) > 1;
   * ```
   */
  readonly timing: { profile: string; timeoutScale: number } | null;
  /**
   * A new, empty space on this device, with its own virtual display, for the test to use
   * beside the worker's `space` (two users acting at the same time, a fresh copy of a
   * per-space backend such as the chat server). It installs nothing: `space.launch('x.apk')` or
   * `space.install()` installs into it. Like the worker's space it is created with `space_create`
   * and held with an EXCLUSIVE lease (`session_acquire`). `name` defaults to `extra-<n>`.
   *
   * Clean-up: instances launched in it during a test are stopped and wiped when that test ends;
   * the space itself, with what was installed, is deleted (`space_delete`) when the worker ends,
   * not when the test does (call `space.delete()` to free it sooner).
   *
   * @example
   * ```ts
   * import { test, expect } from 'nestwright';
   *
   * test('a fresh space has an empty room', async ({ device }) => {
   *   const space = await device.newSpace();
   *   const chat = await space.launch('fixtures/apks/chat.apk');
   *   await chat.getById('name').fill('Dee');
   *   await chat.getByRole('button', { name: 'Join' }).tap();
   *   await expect(chat.getById('empty')).toHaveText('No messages yet');
   * });
   * ```
   */
  newSpace(name?: string): Promise<Space>;
}

/**
 * The `device` fixture: the device `use.deviceOptions` names (`{ provider: 'sim' }` by default),
 * connected — its options plus {@link DeviceApi}. One connection per worker.
 *
 * @example
 * ```ts
 * import { test, expect, type Device } from 'nestwright';
 *
 * async function spaceCount(device: Device): Promise<number> {
 *   return (await device.client.call('space_list', {})).spaces.length;
 * }
 *
 * test('the worker has a space', async ({ device, space }) => {
 *   expect(await spaceCount(device)).toBeGreaterThanOrEqual(1);
 * });
 * ```
 */
export type Device = DeviceOptions & DeviceApi;

/**
 * Make a `use.deviceOptions` value for the config or test.use() with its type. A file that asks the simulator for
 * other faults, seed or slots than the run's gets a simulator of its own for its worker.
 *
 * @example
 * ```ts
 * import { test, devices } from 'nestwright';
 *
 * test.use({ deviceOptions: devices.sim({ faults: 'hostile', seed: 7 }) });
 * ```
 */
export const devices = {
  /**
   * The embedded simulated device (`{ provider: 'sim' }`), or one at `url` started with `nestwright sim`.
   *
   * @example
   * ```ts
   * test.use({ deviceOptions: devices.sim({ faults: 'hostile', seed: 3 }) });
   * ```
   */
  sim: (opts: Omit<Extract<DeviceOptions, { provider: 'sim' }>, 'provider'> = {}): DeviceOptions => ({
    provider: 'sim',
    ...opts,
  }),
  /**
   * A phone running NestSpace at `url` (e.g. after `adb forward tcp:8765 tcp:8765`), with its `token`.
   *
   * @example
   * ```ts
   * test.use({ deviceOptions: devices.nestspace({ url: 'http://127.0.0.1:8765/mcp', token: process.env.NESTSPACE_TOKEN! }) });
   * ```
   */
  nestspace: (opts: Omit<Extract<DeviceOptions, { provider: 'nestspace' }>, 'provider'>): DeviceOptions => ({
    provider: 'nestspace',
    ...opts,
  }),
  /**
   * A device adb lists: `devices.adb({ serial })`, or spread workers with `{ serials }` / `{ pool: true }`.
   *
   * @example
   * ```ts
   * test.use({ deviceOptions: devices.adb({ serial: 'emulator-5554' }) });
   * ```
   */
  adb: (opts: Omit<Extract<DeviceOptions, { provider: 'adb' }>, 'provider'> = {}): DeviceOptions => ({
    provider: 'adb',
    ...opts,
  }),
  /**
   * An emulator running `avd`, started for the run when none is.
   *
   * @example
   * ```ts
   * test.use({ deviceOptions: devices.emulator({ avd: 'Pixel_8_API_34', headless: true }) });
   * ```
   */
  emulator: (opts: Omit<Extract<DeviceOptions, { provider: 'emulator' }>, 'provider'>): DeviceOptions => ({
    provider: 'emulator',
    ...opts,
  }),
  /**
   * Phones that dial in: the run listens on `listen` (default 0.0.0.0:8080) at `/ws/device` for
   * companion apps that authenticate with one of `keys` (default NESTWRIGHT_COMPANION_KEYS).
   *
   * @example
   * ```ts
   * test.use({ deviceOptions: devices.companion({ listen: { port: 8080 }, keys: [process.env.PHONE_KEY ?? ''] }) });
   * ```
   */
  companion: (opts: Omit<Extract<DeviceOptions, { provider: 'companion' }>, 'provider'> = {}): DeviceOptions => ({
    provider: 'companion',
    ...opts,
  }),
};

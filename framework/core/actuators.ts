import type { AppDriver } from './driver.js';
import type { Actuator } from './actuator.js';
import { ClientActuator } from './actuator-client.js';
import { DeviceActuator } from './actuator-device.js';

const chosen = new WeakMap<AppDriver, Promise<Actuator>>();

/**
 * The driver's actuator, chosen once per driver: device-side when the runtime advertises
 * `selector_actions` in `runtime_info` and the `deviceActions` option (NESTWRIGHT_DEVICE_ACTIONS)
 * is not 'off'; client-side otherwise, and when the runtime cannot say.
 */
export function actuatorOf(d: AppDriver): Promise<Actuator> {
  let a = chosen.get(d);
  if (!a) {
    a =
      d.options.deviceActions === 'off'
        ? Promise.resolve(new ClientActuator(d))
        : d.calls.client.info().then(
            (info): Actuator =>
              info?.extensions.includes('selector_actions') ? new DeviceActuator(d) : new ClientActuator(d),
            (): Actuator => new ClientActuator(d),
          );
    chosen.set(d, a);
  }
  return a;
}

import type { InstanceFeature } from '../core/lifecycle.js';
import type { InstancePort } from '../port.js';
import { applyWorldOptions, type WorldOptions } from './world-options.js';

/**
 * The world options as a lifecycle feature: each instance the test launches starts with the
 * test's `geolocation`, `locale`, `timezoneId` and `colorScheme` (nothing is called when none is
 * set). An option the device refuses fails the launch, and the lifecycle stops the instance.
 */
export function worldFeature(options: WorldOptions): InstanceFeature | null {
  const set = Object.values(options).some((v) => v !== undefined && v !== null);
  if (!set) return null;
  return {
    name: 'world',
    launched: (instance: InstancePort) =>
      instance.wrap('use.world', {}, (call) =>
        applyWorldOptions(
          {
            hasExtension: (name) => instance.offers(name),
            call: (tool, input) => instance.call(call, tool, input),
          },
          {
            space_id: instance.spaceId,
            package: instance.pkg,
            ...(instance.instance ? { instance: instance.instance } : {}),
          },
          options,
        ),
      ),
  };
}

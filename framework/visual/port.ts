import type { Bounds, Clock, RuntimeInfo, ScreenRegion, UiNode } from '../../device-runtime/protocol/index.js';
import { App } from '../app.js';
import { Locator } from '../locator.js';
import { resolveSteps } from '../selector.js';
import type { TrajectoryStep } from '../trajectory.js';

/**
 * What visual comparison needs of an app (and of the locator it pictures), and nothing more:
 * the only file of `framework/visual/` that knows `App`, `Locator` and the driver. Each member
 * names its cost in round trips to the device.
 */
export interface VisualPort {
  /** `app` or the locator, as messages and step titles name the subject. */
  readonly subject: string;
  /** The package and instance, for messages. */
  readonly who: string;
  readonly clock: Clock;
  /** The assertion's timeout in ms: `given` or the config's expect timeout, times the device's timing. */
  timeout(given: number | undefined): number;
  describeTimeout(ms: number): string;
  /** The runtime's runtime_info (asked once per connection). */
  info(): Promise<RuntimeInfo | null>;
  /** Bring the instance to the front: one observation, more when it was not in front. */
  front(api: string): Promise<void>;
  /** Wait up to `ms` until the device reports the screen idle (one `ui_wait_for idle`). */
  idle(api: string, ms: number): Promise<boolean>;
  /** One screenshot at scale 1, with the system UI the runtime says it shows (one round trip). */
  shoot(api: string): Promise<{ png: Buffer; regions: ScreenRegion[] }>;
  /** Bounds of every node each locator names now, in one observation (one round trip); null when the tree was missing. */
  boundsOf(api: string, locators: readonly Locator[]): Promise<Bounds[][] | null>;
  /** Wait until the locator names one visible node (auto-waiting, scrolling it into view). */
  waitFor(api: string, locator: Locator, ms: number): Promise<UiNode>;
  /** Whether `l` is a locator of this app (masks must be). */
  owns(l: unknown): l is Locator;
  /** Run the assertion as a test step with its trajectory record. */
  step<T>(title: string, selector: string | null, body: (record: TrajectoryStep) => Promise<T>): Promise<T>;
}

/** The port of an `expect(app)` or `expect(locator)` receiver, or null for anything else. */
export function visualPortOf(
  received: unknown,
  expectTimeout: number | undefined,
): { port: VisualPort; target: Locator | null } | null {
  const target = received instanceof Locator ? received : null;
  const app = received instanceof App ? received : null;
  const driver = target?.driver ?? app?.driver;
  if (!driver) return null;
  const port: VisualPort = {
    subject: target ? target.toString() : 'app',
    who: driver.who(),
    clock: driver.clock,
    timeout: (given) => driver.timeout(given ?? expectTimeout, 'expect'),
    describeTimeout: (ms) => driver.describeTimeout(ms),
    info: () => driver.calls.client.info(),
    front: async (api) => void (await driver.watch.observe(api, { maxNodes: 1 })),
    idle: async (api, ms) =>
      (
        await driver.calls.call(api, 'ui_wait_for', {
          space_id: driver.spaceId,
          idle: true,
          timeout_ms: Math.max(0, Math.round(ms)),
        })
      ).matched,
    shoot: async (api) => {
      const r = await driver.calls.call(api, 'ui_screenshot', { space_id: driver.spaceId, scale: 1 });
      return { png: Buffer.from(r.data, 'base64'), regions: r.regions ?? [] };
    },
    boundsOf: async (api, locators) => {
      const obs = await driver.watch.observe(api);
      if (obs.tree_missing) return null;
      return locators.map((l) => resolveSteps(obs.nodes, l.steps).map((n) => n.bounds));
    },
    waitFor: async (api, locator, ms) => (await locator.waitForActionable(api, { timeout: ms, enabled: false })).node,
    owns: (l): l is Locator => l instanceof Locator && l.driver === driver,
    step: (title, selector, body) =>
      driver.steps.step({ kind: 'assertion', api: 'expect.toHaveScreenshot', title, selector }, body),
  };
  return { port, target };
}

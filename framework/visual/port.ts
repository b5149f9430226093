import type { Bounds, Clock, RuntimeInfo, ScreenRegion, UiNode } from '../../device-runtime/protocol/index.js';
import type { ApiCall, CallWrapper } from '../core/api-call.js';
import { portOf, type PortLocator } from '../core/port.js';
import { resolveSteps } from '../core/selector.js';
import type { TrajectoryStep } from '../core/trajectory.js';

/**
 * What visual comparison needs of an app (and of the locator it pictures), and nothing more:
 * an adapter over the feature port (port.ts), the only file of `framework/visual/` that reads
 * it. Each member
 * names its cost in round trips to the device. `wrap` starts the matcher's call (its timeout
 * defaulting to the matcher's expect timeout); the members take it.
 */
export interface VisualPort extends CallWrapper {
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
  front(call: ApiCall): Promise<void>;
  /** Wait up to `ms` until the device reports the screen idle (one `ui_wait_for idle`). */
  idle(call: ApiCall, ms: number): Promise<boolean>;
  /** One screenshot at scale 1, with the system UI the runtime says it shows (one round trip). */
  shoot(call: ApiCall): Promise<{ png: Buffer; regions: ScreenRegion[] }>;
  /** Bounds of every node each locator names now, in one observation (one round trip); null when the tree was missing. */
  boundsOf(call: ApiCall, locators: readonly PortLocator[]): Promise<Bounds[][] | null>;
  /** Wait until the locator names one visible node (auto-waiting, scrolling it into view). */
  waitFor(call: ApiCall, locator: PortLocator, ms: number): Promise<UiNode>;
  /** Whether `l` is a locator of this app (masks must be). */
  owns(l: unknown): l is PortLocator;
  /** Run the assertion as `call`'s test step with its trajectory record. */
  step<T>(
    call: ApiCall,
    title: string,
    selector: string | null,
    body: (record: TrajectoryStep) => Promise<T>,
  ): Promise<T>;
}

/** The port of an `expect(app)` or `expect(locator)` receiver, or null for anything else. */
export function visualPortOf(
  received: unknown,
  expectTimeout: number | undefined,
): { port: VisualPort; target: PortLocator | null } | null {
  const subject = portOf(received);
  if (!subject) return null;
  const { port: driver, locator: target } = subject;
  const port: VisualPort = {
    subject: target ? target.toString() : 'app',
    who: driver.who(),
    clock: driver.clock,
    timeout: (given) => driver.timeout(given ?? expectTimeout, 'expect'),
    describeTimeout: (ms) => driver.describeTimeout(ms),
    wrap: (api, opts, body) =>
      driver.wrap(api, { kind: 'expect', ...opts, timeout: opts.timeout ?? expectTimeout }, body),
    info: () => driver.info(),
    front: async (call) => void (await driver.observe(call, { maxNodes: 1 })),
    idle: async (call, ms) =>
      (
        await driver.call(call, 'ui_wait_for', {
          space_id: driver.spaceId,
          idle: true,
          timeout_ms: Math.max(0, Math.round(ms)),
        })
      ).matched,
    shoot: async (call) => {
      const r = await driver.call(call, 'ui_screenshot', { space_id: driver.spaceId, scale: 1 });
      return { png: Buffer.from(r.data, 'base64'), regions: r.regions ?? [] };
    },
    boundsOf: async (call, locators) => {
      const obs = await driver.observe(call);
      if (obs.tree_missing) return null;
      return locators.map((l) => resolveSteps(obs.nodes, l.steps).map((n) => n.bounds));
    },
    waitFor: async (call, locator, ms) => (await locator.waitForActionable(call, { timeout: ms, enabled: false })).node,
    owns: (l): l is PortLocator => portOf(l)?.locator?.driver === driver,
    step: (call, title, selector, body) => driver.step(call, { kind: 'assertion', title, selector }, body),
  };
  return { port, target };
}

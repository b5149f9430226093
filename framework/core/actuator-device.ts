import { toWireSteps, type Observation, type ToolInput, type UiNode } from '../../device-runtime/protocol/index.js';
import { DeviceError } from '../../device-runtime/client/index.js';
import type { AppDriver } from './driver.js';
import { StrictModeViolationError } from './errors.js';
import type { ActionSpec, Actuator, Attempt, CountWait, LocatorRef, SelectorTool } from './actuator.js';
import type { ApiCall } from './api-call.js';
import { waitTimeout } from './wait-here.js';

/**
 * The device-side actuator, on a runtime with the `selector_actions` extension
 * (docs/protocol.md#extensions): the device waits for the node, acts (or scrolls), repeats an
 * action that showed no effect and answers with the screen after, in one round trip. Its
 * TIMEOUT and AMBIGUOUS_TARGET become the errors the client-side wait throws.
 */
export class DeviceActuator implements Actuator {
  readonly where = 'device';

  constructor(private readonly d: AppDriver) {}

  /** The fields every call of a locator carries: its steps and its app instance. */
  private selectorArgs(locator: LocatorRef) {
    const d = this.d;
    return {
      space_id: d.spaceId,
      selector: toWireSteps(locator.steps),
      app: { package: d.pkg, ...(d.instance ? { instance: d.instance } : {}) },
      max_nodes: 400,
    };
  }

  async act(
    call: ApiCall,
    locator: LocatorRef,
    action: ActionSpec,
    wait: { timeout: number; observeBefore: boolean },
  ): Promise<Attempt> {
    try {
      const r = await this.d.calls.raw(action.tool, {
        ...this.selectorArgs(locator),
        wait: { timeout_ms: wait.timeout, enabled: true, scroll: true },
        observe_before: wait.observeBefore,
        ...action.args,
      } as ToolInput<SelectorTool>);
      // The fingerprint is of what the locator names (as on the client side), not of the
      // clickable ancestor a tap may land on.
      const named = r.matched ?? r.node;
      if (r.observation) this.d.calls.lastSeen = r.observation;
      return {
        node: r.node,
        named: named && r.observation_before ? { node: named, obs: r.observation_before } : null,
        before: r.snapshot_id ?? null,
        after: r.observation ?? null,
        // The device verified the effect (repeating a dropped action itself): nothing is repeated here.
        effect: true,
        attempts: r.attempts ?? 1,
      };
    } catch (e) {
      throw await this.waitError(call, locator, e);
    }
  }

  async scrollIntoView(call: ApiCall, locator: LocatorRef): Promise<{ node: UiNode; obs: Observation }> {
    try {
      const r = await this.d.calls.raw('ui_scroll', {
        ...this.selectorArgs(locator),
        wait: { timeout_ms: Math.max(1, call.remaining()), enabled: false, scroll: true },
      } as ToolInput<'ui_scroll'>);
      if (!r.node || !r.observation)
        throw call.error(
          'the runtime answered ui_scroll with a selector without the node or the observation (selector_actions)',
          { code: 'PROTOCOL_ERROR' },
        );
      this.d.calls.lastSeen = r.observation;
      return { node: r.node, obs: r.observation };
    } catch (e) {
      throw await this.waitError(call, locator, e);
    }
  }

  readonly waitForCount = async (
    call: ApiCall,
    locator: LocatorRef,
    count: number,
    gone: boolean,
  ): Promise<CountWait> => {
    const d = this.d;
    const r = await d.calls.call(call, 'ui_wait_for', {
      ...this.selectorArgs(locator),
      count,
      gone,
      timeout_ms: Math.max(1, call.remaining()),
    });
    if (r.observation) d.calls.lastSeen = r.observation;
    call.log.push(...(r.log ?? []).map((l) => l.trim()));
    return { matched: r.matched, obs: r.observation ?? null, matches: r.matches ?? [] };
  };

  /** A device-side wait's TIMEOUT or AMBIGUOUS_TARGET as the client-side wait throws it (with its log and screen); other errors translated. */
  private async waitError(call: ApiCall, locator: LocatorRef, e: unknown): Promise<unknown> {
    if (e instanceof DeviceError && (e.code === 'TIMEOUT' || e.code === 'AMBIGUOUS_TARGET')) {
      const details = (e.details ?? {}) as { log?: string[]; observation?: Observation | null; matches?: UiNode[] };
      const obs = details.observation ?? null;
      if (obs) this.d.calls.lastSeen = obs;
      if (e.code === 'AMBIGUOUS_TARGET')
        return new StrictModeViolationError(call, locator.toString(), details.matches ?? []);
      call.log.push(...(details.log ?? []));
      return waitTimeout(call, locator, obs);
    }
    return this.d.calls.translate(call, e);
  }
}

import type { ToolInput, ToolName, ToolResult } from '../../device-runtime/protocol/index.js';
import type { ApiCall, CallWrapper } from '../core/api-call.js';
import type { InstancePort } from '../port.js';
import { NestwrightError } from '../errors.js';

/** The instance a world call names: its space, package and instance id. */
export interface InstanceRef {
  space_id: string;
  package: string;
  instance?: string;
}

/**
 * What the world feature needs of an app (DESIGN.md: features talk to a port, not to the core's
 * insides): the instance it names, one tool-call path, steps for the trajectory and report, and
 * the assertion timeouts. Built once per app from its driver; nothing here reaches further.
 * A public method of the world starts its call with `step(api, title, body)` (a call that is
 * one step) or `wrap(api, opts, body)` (a call with no step of its own), and hands the call on.
 */
export interface WorldPort extends CallWrapper {
  readonly ref: InstanceRef;
  /** `com.example.app@2`, for messages. */
  who(): string;
  /** A world tool call of `call`; NOT_SUPPORTED naming the tool when the runtime lacks the `world` extension. */
  call<N extends ToolName>(
    call: ApiCall,
    tool: N,
    input: Omit<ToolInput<N>, keyof InstanceRef>,
  ): Promise<ToolResult<N>>;
  /** The public method `api` as one step of the test (and of its trajectory) titled `title`: a change of the world (`app`) or an assertion. */
  step<T>(api: string, title: string, body: (call: ApiCall) => Promise<T>, kind?: 'app' | 'assertion'): Promise<T>;
  /** An assertion's timeout in ms (`given` or the expect timeout, scaled to the device) and how to print it. */
  expectTimeout(given: number | undefined): number;
  describeTimeout(ms: number): string;
  readonly clock: InstancePort['clock'];
}

/** The world's view of the feature port (framework/port.ts): the instance's ref, and steps titled for the world. */
export function worldPort(driver: InstancePort): WorldPort {
  const ref: InstanceRef = {
    space_id: driver.spaceId,
    package: driver.pkg,
    ...(driver.instance ? { instance: driver.instance } : {}),
  };
  let offered: Promise<boolean> | null = null;
  return {
    ref,
    who: () => driver.who(),
    wrap: (api, opts, body) => driver.wrap(api, opts, body),
    async call(call, tool, input) {
      offered ??= driver.offers('world');
      if (!(await offered)) {
        throw new NestwrightError(
          call,
          `this device runtime does not offer ${tool} (NOT_SUPPORTED): it lacks the \`world\` extension, so the app's world (location, clock, locale, notifications, biometrics, camera) cannot be set on it. Run on the simulator or a NestSpace runtime that lists "world" in runtime_info.extensions.`,
          { code: 'NOT_SUPPORTED' },
        );
      }
      return driver.call(call, tool, { ...ref, ...input } as ToolInput<typeof tool>);
    },
    step: (api, title, body, kind = 'app') =>
      driver.wrap(api, {}, (call) => driver.step(call, { kind, title, selector: null }, () => body(call))),
    expectTimeout: (given) => driver.timeout(given, 'expect'),
    describeTimeout: (ms) => driver.describeTimeout(ms),
    clock: driver.clock,
  };
}

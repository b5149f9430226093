import type { AppFunction } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from '../core/api-call.js';
import { NestwrightError } from '../core/errors.js';
import type { InstancePort } from '../core/port.js';

/** One function the app declares (Android's AppFunctions), as `app.functions.list()` gives it. */
export interface AppFunctionInfo {
  /** The function's id, e.g. `createNote`: what `app.functions.call(name, …)` takes. */
  name: string;
  description: string;
  /** JSON Schema of the parameters. */
  parameters: Record<string, unknown>;
  /** JSON Schema of the result, when the app declares one. */
  result: Record<string, unknown> | null;
  /** Calling it needs a human approval unless the runtime's policy pre-approves it (a test run does). */
  dangerous: boolean;
}

/** The device codes that mean "no AppFunctions here": the runtime lacks the tools, or the device the feature. */
const ABSENT = new Set(['NOT_SUPPORTED', 'UNKNOWN_TOOL']);

const shortJson = (v: unknown) => {
  const s = JSON.stringify(v ?? {});
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
};

/**
 * The functions the app declares for agents (`app.functions`, docs/functions.md): Android's
 * AppFunctions, through the protocol's `appfn_list` / `appfn_execute`. A call acts on the
 * instance's data directly — no screens, no waiting for them — and is one step of the test and
 * of its trajectory (source `function`, with the function, its parameters and its result).
 * Skills (`fn:` steps) and `app.ai.act` use it where the app has the function, and the UI where not.
 */
export class AppFunctions {
  private known: Promise<AppFunctionInfo[] | null> | null = null;

  /** @internal Made by `app.functions`. */
  constructor(private readonly port: InstancePort) {}

  /**
   * The app's functions, with the JSON Schema of their parameters and results. Throws
   * NOT_SUPPORTED when the runtime has no AppFunctions (naming the `appfn` tools).
   *
   * @example
   * ```ts
   * const fns = await app.functions.list();
   * expect(fns.map((f) => f.name)).toContain('createNote');
   * ```
   */
  list(): Promise<AppFunctionInfo[]> {
    const p = this.port;
    return p.wrap('app.functions.list', {}, (call) =>
      p.step(call, { kind: 'app', title: `List the functions of ${p.pkg}`, selector: null }, async () => {
        const fns = await this.fetch(call);
        this.known = Promise.resolve(fns);
        return fns;
      }),
    );
  }

  /**
   * Call the app's function `name` with `params` and return its result. Bad parameters fail
   * with the parameter named (`params.title: …`); a function marked dangerous needs an approval
   * on a runtime whose policy does not pre-approve it (APPROVAL_REQUIRED).
   *
   * @example
   * ```ts
   * const note = await app.functions.call<{ id: number }>('createNote', { title: 'Milk' });
   * await expect(app.getByText('Milk')).toBeVisible();
   * ```
   */
  call<T = unknown>(name: string, params: Record<string, unknown> = {}, opts: { timeout?: number } = {}): Promise<T> {
    const p = this.port;
    return p.wrap('app.functions.call', opts, (call) => this.run(call, name, params) as Promise<T>);
  }

  /**
   * @internal Run function `name` as a step of `call` (a skill's or an AI step's): what
   * `call()` does, for the features that call functions inside their own public call.
   */
  run(call: ApiCall, name: string, params: Record<string, unknown>): Promise<unknown> {
    const p = this.port;
    const by = p.trajectory.source;
    const previous = p.trajectory.source;
    p.trajectory.source = 'function';
    const title = `Call ${name}(${shortJson(params)})`;
    return p
      .step(call, { kind: 'app', title, selector: null }, async (record) => {
        record.function = { package: p.pkg, id: name, params, by };
        const out = await this.execute(call, name, params);
        record.function.result = out;
        return out;
      })
      .finally(() => (p.trajectory.source = previous));
  }

  /**
   * @internal The app's functions, asked once per instance (null when the runtime has none):
   * what skills and AI steps check before they choose a function over the UI.
   */
  available(call: ApiCall): Promise<AppFunctionInfo[] | null> {
    this.known ??= this.fetch(call).catch((e: unknown) => {
      if (e instanceof NestwrightError && e.code === 'NOT_SUPPORTED') return null;
      this.known = null;
      throw e;
    });
    return this.known;
  }

  private async fetch(call: ApiCall): Promise<AppFunctionInfo[]> {
    const p = this.port;
    try {
      const { functions } = await p.call(call, 'appfn_list', {
        space_id: p.spaceId,
        package: p.pkg,
        ...(p.instance ? { instance: p.instance } : {}),
      });
      return functions.map(info);
    } catch (e) {
      throw this.explain(call, e, 'appfn_list');
    }
  }

  private async execute(call: ApiCall, name: string, params: Record<string, unknown>): Promise<unknown> {
    const p = this.port;
    try {
      const { result } = await p.call(call, 'appfn_execute', {
        space_id: p.spaceId,
        package: p.pkg,
        function_id: name,
        params,
        ...(p.instance ? { instance: p.instance } : {}),
      });
      return result;
    } catch (e) {
      throw this.explain(call, e, 'appfn_execute', name);
    }
  }

  /** The device's error, said for this API: no AppFunctions here, or an approval the function needs. */
  private explain(call: ApiCall, e: unknown, tool: string, name?: string): unknown {
    if (!(e instanceof NestwrightError)) return e;
    const code = e.code as string;
    if (ABSENT.has(code)) {
      return new NestwrightError(
        call,
        `this device runtime does not offer AppFunctions (${tool} answered ${code}: the appfn tools, design §5.7, are missing or the device has no AppFunctionManager), so ${this.port.who()}'s functions cannot be called. Drive the app through its UI, or run on a runtime whose appfn_status says available (the simulator is one).`,
        { cause: e, code: 'NOT_SUPPORTED' },
      );
    }
    if (code === 'APPROVAL_REQUIRED' || code === 'APPROVAL_DENIED') {
      return new NestwrightError(
        call,
        `${name} is marked dangerous and the runtime's policy wants a human approval for it (${e.message.replace(/^[\w.]+: /, '')}). A test run's policy pre-approves app functions; with a strict one, approve it on the device or pre-approve it (preapprove_functions).`,
        { cause: e, code },
      );
    }
    return e;
  }
}

function info(f: AppFunction): AppFunctionInfo {
  return {
    name: f.id,
    description: f.description,
    parameters: f.parameters,
    result: f.result ?? null,
    dangerous: f.dangerous,
  };
}

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  Observation,
  ToolError,
  ToolInput,
  ToolName,
  ToolResult,
  UiNode,
} from '../../device-runtime/protocol/index.js';
import { VirtualClock } from '../../device-runtime/sim/faults/clock.js';
import { SimRuntime, type SimOptions } from '../../device-runtime/sim/runtime.js';

export const APKS = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/apks');
export const NOTES = 'com.nestwright.notes';
export const SHOP = 'com.nestwright.shop';
export const CHAT = 'com.nestwright.chat';
export const SETTINGS = 'com.android.settings';

type Args<N extends ToolName> = Omit<ToolInput<N>, 'space_id'> & { space_id?: string };

/**
 * One simulated runtime in process with a virtual clock, one space and an EXCLUSIVE lease on it:
 * `call` throws with the error envelope, `fail` expects one. Time moves only through `clock`
 * (and the runtime's own sleeps), so nothing here depends on how fast the machine is.
 */
export async function simSpace(opts: SimOptions = {}) {
  const clock = new VirtualClock();
  const rt = new SimRuntime({ clock, ...opts });
  const ctx = { sessionId: 'test-session', caller: 'REMOTE_MCP' as const };
  const raw = <N extends ToolName>(name: N, args: unknown) => rt.call(name, args, ctx);
  const { space_id } = (await must(raw('space_create', { name: 'sim-ui' }))) as ToolResult<'space_create'>;
  await must(raw('session_acquire', { space_id, mode: 'EXCLUSIVE' }));
  const withSpace = (args: object) => ({ space_id, ...args });
  const h = {
    rt,
    clock,
    space_id,
    space: rt.space(space_id),
    call: <N extends ToolName>(name: N, args: Args<N>): Promise<ToolResult<N>> => must(raw(name, withSpace(args))),
    fail: async <N extends ToolName>(name: N, args: Args<N>): Promise<ToolError> => {
      const r = await raw(name, withSpace(args));
      if (r.ok)
        throw new Error(`${name} succeeded but the test expected an error: ${JSON.stringify(r.result).slice(0, 300)}`);
      return r.error;
    },
    install: (apk: string) => h.call('space_install_apk', { apk_paths: [resolve(APKS, apk)] }),
    launch: (pkg: string, instance?: string) =>
      h.call('space_launch', { package: pkg, ...(instance ? { instance } : {}) }),
    observe: (args: Partial<Args<'ui_observe'>> = {}): Promise<Observation> =>
      h.call('ui_observe', args as Args<'ui_observe'>),
    texts: async () => (await h.observe()).nodes.map((n) => n.text).filter((t): t is string => !!t),
    /** Advance the clock until the UI is idle (spinners gone, animations done). */
    settle: async (timeout_ms = 30_000) => h.call('ui_wait_for', { idle: true, timeout_ms }),
    tap: (text: string) => h.call('ui_tap', { text }),
    find: async (pred: (n: UiNode) => boolean, what = 'node'): Promise<{ node: UiNode; obs: Observation }> => {
      const obs = await h.observe();
      const node = obs.nodes.find(pred);
      if (!node)
        throw new Error(
          `no ${what} on screen: ${obs.nodes.map((n) => `${n.id}:${n.role}:${n.text ?? n.desc ?? ''}`).join(', ')}`,
        );
      return { node, obs };
    },
    byRes: (res: string) => h.find((n) => !!n.res_id?.endsWith(`:id/${res}`), `res id ${res}`),
    type: async (res: string, text: string, submit = false) => {
      const { node, obs } = await h.byRes(res);
      return h.call('ui_set_text', { node_id: node.id, snapshot_id: obs.snapshot_id, text, submit });
    },
  };
  return h;
}

export type SimHarness = Awaited<ReturnType<typeof simSpace>>;

async function must<N extends ToolName>(
  p: Promise<{ ok: true; result: ToolResult<N> } | { ok: false; error: ToolError }>,
): Promise<ToolResult<N>> {
  const r = await p;
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}${r.error.hint ? ` (${r.error.hint})` : ''}`);
  return r.result;
}

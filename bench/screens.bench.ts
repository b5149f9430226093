import {
  applyDiff,
  encodeResult,
  getTool,
  nodesHash,
  type Observation,
  type ObservationDiff,
  type WireResult,
} from '../device-runtime/protocol/index.js';
import { DeviceClient } from '../device-runtime/client/index.js';
import { connectDevice, startEmbeddedDevice } from '../device-runtime/providers/index.js';
import { bigRowTitle, bigScreenShape } from '../device-runtime/sim/apps/big-screen.js';
import { SimRuntime } from '../device-runtime/sim/runtime.js';
import { auditScreen } from '../framework/a11y/audit-screen.js';
import { RULE_NAMES, RULES } from '../framework/a11y/rules.js';
import type { App } from '../framework/core/app.js';
import { expect } from '../framework/core/expect.js';
import { fingerprintOf } from '../framework/heal/fingerprint.js';
import { Space } from '../framework/core/space.js';
import { Picture } from '../framework/visual/picture.js';
import { stablePicture } from '../framework/visual/stable.js';
import { measureAppium } from './screens-appium.js';
import { median, round, sample, type BenchSection } from './section.js';

/**
 * `npm run bench screens`: what each step costs on screens of 50, 1,000, 5,000 and 20,000 nodes
 * (Settings' `.BigScreenActivity`, device-runtime/sim/apps/big-screen.ts), each figure side by
 * side with the same step on the 50-node screen (`x50`: its median over the 50-node one's). A
 * cost that grows with the tree shows ~20× at 1,000, ~100× at 5,000 and ~400× at 20,000; a
 * quadratic one, the square of that. NESTWRIGHT_BENCH_SIZES=50,5000 runs some sizes only.
 */
const SIZES = (process.env.NESTWRIGHT_BENCH_SIZES ?? '50,1000,5000,20000').split(',').map(Number);
const SETTINGS = 'com.android.settings';
const BIG = `${SETTINGS}/.BigScreenActivity`;
const ctx = { sessionId: 'bench', caller: 'REMOTE_MCP' as const };
/** The protocol's most nodes in one observation (ui_observe's max_nodes). */
const MAX_NODES: number = (() => {
  const field = getTool('ui_observe')!.input.shape.max_nodes as unknown as {
    _zod: { def: { innerType?: { maxValue?: number } } };
  };
  return field._zod.def.innerType?.maxValue ?? 5000;
})();

async function call(rt: SimRuntime, name: string, args: object): Promise<any> {
  const r = await rt.call(name, args, ctx);
  if (!r.ok) throw new Error(`bench: ${name}: ${r.error.code}: ${r.error.message}`);
  return r.result;
}

/** Runs per size: fewer on big screens (each costs more), at least 5 for a median. */
const runs = (n: number, base: number) => Math.max(5, Math.round(base / Math.max(1, Math.sqrt(n / 50) / 2)));

/** The bytes of a JSON-RPC answer carrying `obs` as ui_observe's MCP result (as the HTTP body is, before SSE framing). */
function wireText(obs: Observation): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, result: encodeResult(getTool('ui_observe')!, obs) });
}

/** A transport that answers every call with `text` parsed afresh, as the HTTP transport does. */
function replay(text: string): DeviceClient {
  return new DeviceClient({
    callTool: async () => (JSON.parse(text) as { result: WireResult }).result,
    close: async () => {},
  });
}

/**
 * {@link sample}, with fewer runs for a step that is slow on this screen (one run over 1 s: 3
 * runs; over 5 s: that run alone), so a quadratic step shows without taking the bench's hour.
 */
async function timed(k: number, fn: () => Promise<unknown> | unknown, warmup = 2): Promise<number[]> {
  const t = performance.now();
  await fn();
  const first = performance.now() - t;
  if (first > 5_000) return [first];
  if (first > 1_000) return sample(2, fn, 0).then((xs) => [first, ...xs]);
  return sample(k, fn, Math.max(0, warmup - 1));
}

interface Figure {
  times: number[];
  note?: string;
}
interface Figures {
  [measure: string]: Figure;
}

/** {@link timed} into a figure; a step that fails is a figure with the failure as its note. */
async function measure(k: number, fn: () => Promise<unknown> | unknown, warmup = 2): Promise<Figure> {
  try {
    return { times: await timed(k, fn, warmup) };
  } catch (e) {
    return {
      times: [],
      note: `fails: ${String((e as Error).message ?? e)
        .split('\n')[0]!
        .slice(0, 120)}`,
    };
  }
}

/** The device-side and pure-client figures of one size, in process (no transport). */
interface Local {
  fig: Figures;
  nodes: number;
  bytes: number;
  /** The observation after a tap that changed one row, on the wire. */
  afterTap: { bytes: number; note: string };
  /** The observed nodes (Appium's fake driver is fed the same tree). */
  tree: Observation['nodes'];
}

async function local(n: number): Promise<Local> {
  const rt = new SimRuntime({ slots: 4 });
  const { space_id } = await call(rt, 'space_create', {});
  await call(rt, 'session_acquire', { space_id });
  await call(rt, 'app_intent', { space_id, package: SETTINGS, component: BIG, extras: { nodes: n } });
  const fig: Figures = {};
  const k = runs(n, 40);
  const observe = () => call(rt, 'ui_observe', { space_id, max_nodes: MAX_NODES });
  // Nothing changed: the screen's kept frame. Told of a change: rendered, laid out and flattened
  // again (the app's rows it kept with ctx.memo reused), as the look after an action is.
  fig['ui_observe on the device, nothing changed (in process)'] = await measure(k, observe, 3);
  const screen = rt.space(space_id).screen;
  fig['ui_observe on the device, after a change (in process)'] = await measure(
    k,
    () => {
      screen.changed();
      return observe();
    },
    3,
  );
  const obs: Observation = await observe();
  const text = wireText(obs);
  const client = replay(text);
  fig['client: JSON parse + validation'] = await measure(
    k,
    () => client.call('ui_observe', { space_id, max_nodes: MAX_NODES }),
    3,
  );
  // An observation after a tap that changed one row: whole, or (extension observe_diff) what changed.
  const base: Observation = await call(rt, 'ui_observe', { space_id, max_nodes: MAX_NODES, since: null });
  await call(rt, 'ui_tap', { space_id, text: bigRowTitle(Math.floor(bigScreenShape(n).rows / 2)) });
  const since = { snapshot_id: base.snapshot_id, hash: nodesHash(base.nodes) };
  const after = await call(rt, 'ui_observe', { space_id, max_nodes: MAX_NODES, since });
  const afterText = wireText(after);
  const diffNote = after.diff
    ? `diff: ${after.diff.changed.length} changed, ${after.diff.added.length} added, ${after.diff.removed.length} removed`
    : 'whole (no observe_diff)';
  if (after.diff) {
    const tool = getTool('ui_observe')!;
    fig['client: parse + validate + apply the diff'] = await measure(k, () => {
      const body = (JSON.parse(afterText) as { result: WireResult }).result.structuredContent!;
      const r = tool.result.parse(body) as Observation & { diff: ObservationDiff };
      return applyDiff(base.nodes, r.diff);
    });
  }
  const mid = obs.nodes.find((x) => x.text === bigRowTitle(Math.floor(bigScreenShape(n).rows / 2)));
  if (mid) fig['heal fingerprint (fingerprintOf)'] = await measure(k, () => fingerprintOf(obs, mid.id));
  const tree = RULE_NAMES.filter((r) => !RULES[r].pixels);
  const input = { nodes: obs.nodes, density: 420, screen: obs.screen, pixels: null };
  fig['a11y audit, tree rules'] = await measure(k, () => auditScreen(input, tree));
  rt.close();
  return {
    fig,
    nodes: obs.nodes.length,
    bytes: Buffer.byteLength(text),
    afterTap: { bytes: Buffer.byteLength(afterText), note: diffNote },
    tree: obs.nodes,
  };
}

/** The framework's figures of one size, over MCP on HTTP against the embedded simulator. */
async function endToEnd(space: Space, client: DeviceClient, n: number): Promise<Figures> {
  const app: App = await space.launch(SETTINGS, undefined, {
    actionTimeout: 10_000,
    expectTimeout: 10_000,
    deviceActions: 'auto',
  });
  const fig: Figures = {};
  try {
    await client.call('app_intent', {
      space_id: space.id,
      package: SETTINGS,
      component: BIG,
      extras: { nodes: n },
      ...(app.instance ? { instance: app.instance } : {}),
    });
    const { rows } = bigScreenShape(n);
    const target = app.getByText(bigRowTitle(Math.floor(rows / 2)));
    const k = runs(n, 30);
    fig['locator.tap end to end'] = await measure(k, () => target.tap());
    fig['expect(locator).toBeVisible()'] = await measure(k, () =>
      expect(app.getByText(bigRowTitle(rows - 1))).toBeVisible({ timeout: 10_000 }),
    );
    let message = '';
    const strict = await measure(
      Math.max(3, k >> 1),
      async () => {
        const e = await app
          .getByRole('button', { name: 'Star' })
          .tap({ timeout: 2_000 })
          .then(
            () => null,
            (x: Error) => x,
          );
        if (!e) throw new Error('bench: a tap on every Star button passed strict mode');
        message = e.message;
      },
      1,
    );
    fig['strict-mode failure (tap on every Star)'] = { ...strict, note: strict.note ?? `${message.length} chars` };
    const shoot = async () => {
      const r = await client.call('ui_screenshot', { space_id: space.id, scale: 1 });
      return { picture: Picture.fromPng(Buffer.from(r.data, 'base64')), excluded: [], excludedKinds: [], masked: [] };
    };
    const clock = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };
    fig["toHaveScreenshot's stability wait (2 shots + compare)"] = await measure(
      Math.max(3, k >> 2),
      async () => {
        const r = await stablePicture(shoot, null, {}, Date.now() + 30_000, clock as any, []);
        if (r.errorMessage) throw new Error(`bench: ${r.errorMessage}`);
      },
      1,
    );
  } finally {
    await app.close();
  }
  return fig;
}

export async function benchScreens(): Promise<BenchSection> {
  const perSize = new Map<number, Local>();
  const sim = await startEmbeddedDevice({ faults: 'instant' });
  try {
    const conn = await connectDevice({ provider: 'sim', url: sim.url, token: sim.token });
    const space = await Space.create(conn.client, 'bench-screens');
    for (const n of SIZES) {
      const l = await local(n);
      const e = await endToEnd(space, conn.client, n);
      perSize.set(n, { ...l, fig: { ...l.fig, ...e } });
    }
    await space.delete();
    await conn.close();
  } finally {
    await sim.close();
  }
  // Appium's column is a comparison: its failure (a big page source timing out) loses it alone.
  const peerSizes = (process.env.NESTWRIGHT_BENCH_APPIUM_SIZES ?? '50,1000,5000').split(',').map(Number);
  let peerError = '';
  const peer =
    process.env.NESTWRIGHT_BENCH_APPIUM === '0'
      ? null
      : await measureAppium(
          [...perSize]
            .filter(([n]) => peerSizes.includes(n))
            .map(([n, l]) => ({ n, nodes: l.tree, text: bigRowTitle(Math.floor(bigScreenShape(n).rows / 2)) })),
          (n) => runs(n, 20),
        ).catch((e: unknown) => {
          peerError = String((e as Error).message ?? e)
            .split('\n')[0]!
            .slice(0, 160);
          return null;
        });
  const base = perSize.get(SIZES[0]!)!;
  const rows: BenchSection['rows'] = [];
  for (const [n, { fig, nodes, bytes, afterTap }] of perSize) {
    rows.push({
      measure: `screen of ${n}: observation`,
      nodes,
      wire_kb: round(bytes / 1024, 1),
      x50: round(bytes / base.bytes, 1),
    });
    rows.push({
      measure: `screen of ${n}: observation after a tap that changed one row`,
      wire_kb: round(afterTap.bytes / 1024, 1),
      of_full: `${round((100 * afterTap.bytes) / bytes, 2)}%`,
      note: afterTap.note,
    });
    const p = peer?.get(n);
    const p0 = peer?.get(SIZES[0]!);
    if (p && p0) {
      rows.push({
        measure: `screen of ${n}: Appium 3 + fake driver, getPageSource of the same tree`,
        median_ms: round(median(p.pageSource)),
        runs: p.pageSource.length,
        vs: `screen of ${SIZES[0]}`,
        ratio: round(median(p.pageSource) / median(p0.pageSource)),
        note: `${round(p.bytes / 1024, 1)} kB of XML`,
      });
      rows.push({
        measure: `screen of ${n}: Appium 3 + fake driver, $(xpath by text).click()`,
        median_ms: round(median(p.findClick)),
        runs: p.findClick.length,
        vs: `screen of ${SIZES[0]}`,
        ratio: round(median(p.findClick) / median(p0.findClick)),
      });
    }
    for (const [m, { times, note }] of Object.entries(fig)) {
      const b = base.fig[m];
      rows.push({
        measure: `screen of ${n}: ${m}`,
        median_ms: times.length ? round(median(times)) : '',
        runs: times.length,
        ...(b?.times.length && times.length
          ? { vs: `screen of ${SIZES[0]}`, ratio: round(median(times) / median(b.times)) }
          : {}),
        ...(note ? { note } : {}),
      });
    }
  }
  return {
    title: `Big screens: cost per step on ${SIZES.join(', ')}-node screens`,
    rows,
    notes: [
      'Instant profile; the sim runs in this process (the observation and client rows without transport, the framework rows over MCP on HTTP).',
      `ui_observe asks for max_nodes ${MAX_NODES} (the protocol's most): nodes shows what came back. wire_kb: the JSON-RPC answer (structured content and its text copy).`,
      "ratio: the median over the first size's. Linear growth is ~20× at 1,000, ~100× at 5,000, ~400× at 20,000.",
      peer
        ? "Appium rows: Appium 3 + @appium/fake-driver fed each screen's observed tree as a UiAutomator2-style page source (bench/screens-appium.ts), over WebdriverIO."
        : `Appium rows left out: ${peerError || 'Appium is not set up (bash bench/peer-setup.sh) or NESTWRIGHT_BENCH_APPIUM=0'}.`,
    ],
  };
}

/**
 * Extension `observe_diff` (device-runtime/protocol/observe-diff.ts) end to end: the simulator
 * in this process over real MCP on HTTP, DeviceClient as the framework uses it. An observation
 * after a tap that changed one row sends that row's node, not the tree; the client's whole
 * observation equals a full one; a wrong base is refused with DIFF_BASE_MISMATCH and the client
 * recovers; a lost base gets a full observation; a runtime without the extension answers in full.
 */
import { expect, test } from '@playwright/test';
import { DeviceClient, DeviceError, McpToolTransport } from '../../device-runtime/client/index.js';
import {
  applyDiff,
  diffNodes,
  DiffMismatch,
  nodesHash,
  type UiNode,
  type WireResult,
} from '../../device-runtime/protocol/index.js';
import { bigRowTitle } from '../../device-runtime/sim/apps/big-screen.js';
import { startSimServer, type RunningSim } from '../../device-runtime/sim/index.js';

const SETTINGS = 'com.android.settings';

/** A client over HTTP whose transport records each ui_observe's arguments and answer size. */
async function client(sim: RunningSim) {
  const transport = await McpToolTransport.http(sim.url, sim.token);
  const sent: Array<{ args: Record<string, unknown>; bytes: number; diff: boolean; error: string | null }> = [];
  /** Each selector tap's `since` and whether its observation after came as a diff, with the answer's size. */
  const taps: Array<{ since: unknown; diff: boolean; bytes: number }> = [];
  const callTool = transport.callTool.bind(transport);
  transport.callTool = async (name: string, args: Record<string, unknown>, signal?: AbortSignal) => {
    const raw: WireResult = await callTool(name, args, signal);
    if (name === 'ui_tap' && args.selector) {
      const obs = (raw.structuredContent as { observation?: { diff?: unknown } } | undefined)?.observation;
      taps.push({ since: args.since, diff: !!obs?.diff, bytes: JSON.stringify(raw).length });
    }
    if (name === 'ui_observe') {
      const text = raw.content?.[0]?.type === 'text' ? String((raw.content[0] as { text: string }).text) : '';
      sent.push({
        args,
        bytes: JSON.stringify(raw).length,
        diff: !!raw.structuredContent?.diff,
        error: raw.isError ? (JSON.parse(text) as { error: { code: string } }).error.code : null,
      });
    }
    return raw;
  };
  const c = new DeviceClient(transport);
  await c.info();
  return { c, sent, taps };
}

async function bigScreen(c: DeviceClient, nodes: number): Promise<string> {
  const { space_id } = await c.call('space_create', { name: 'big' });
  await c.call('session_acquire', { space_id });
  await c.call('app_intent', {
    space_id,
    package: SETTINGS,
    component: `${SETTINGS}/.BigScreenActivity`,
    extras: { nodes },
  });
  return space_id;
}

const observe = (c: DeviceClient, space_id: string) => c.call('ui_observe', { space_id, max_nodes: 5000 });

test('after a tap that changed one row, the observation sends that row and the client has the whole screen', async () => {
  const sim = await startSimServer();
  try {
    const { c, sent } = await client(sim);
    expect((await c.info())!.extensions).toContain('observe_diff');
    const space_id = await bigScreen(c, 1000);
    const first = await observe(c, space_id);
    expect(first.nodes.length).toBeGreaterThan(900);
    await c.call('ui_tap', { space_id, text: bigRowTitle(100) });
    const after = await observe(c, space_id);
    // The reference: a client that never asks for a diff.
    const plain = (await client(sim)).c;
    plain.observeDiff = false;
    const full = await observe(plain, space_id);
    expect(after.nodes).toEqual(full.nodes);
    expect(after.nodes.find((n) => n.text === 'Starred')).toBeTruthy();
    expect('diff' in after).toBe(false);
    expect(sent.map((s) => [s.args.since === null ? 'null' : typeof s.args.since, s.diff])).toEqual([
      ['null', false],
      ['object', true],
    ]);
    expect(sent[1]!.bytes).toBeLessThan(sent[0]!.bytes * 0.05);
    // The next screen (back to Settings' main page) is a diff too, and still the whole screen.
    await c.call('ui_key', { space_id, key: 'back' });
    const main = await observe(c, space_id);
    expect(main.nodes).toEqual((await observe(plain, space_id)).nodes);
    expect(main.nodes.map((n) => n.text)).toContain('Network & internet');
  } finally {
    await sim.close();
  }
});

test("a selector action's screen after is a diff against the client's copy; the client has the whole screen; a wrong base gets it whole", async () => {
  const sim = await startSimServer();
  try {
    const { c, taps } = await client(sim);
    const space_id = await bigScreen(c, 1000);
    const tap = (i: number) =>
      c.call('ui_tap', {
        space_id,
        selector: [{ kind: 'text', text: bigRowTitle(i), exact: true }],
        max_nodes: 5000,
      });
    const plain = (await client(sim)).c;
    plain.observeDiff = false;
    const first = await tap(10);
    const second = await tap(20);
    expect(taps.map((t) => [t.since === null ? 'null' : typeof t.since, t.diff])).toEqual([
      ['null', false],
      ['object', true],
    ]);
    expect(taps[1]!.bytes).toBeLessThan(taps[0]!.bytes * 0.05);
    expect(first.observation!.nodes.filter((n) => n.text === 'Starred')).toHaveLength(1);
    expect(second.observation!.nodes.filter((n) => n.text === 'Starred')).toHaveLength(2);
    expect('diff' in second.observation!).toBe(false);
    expect(second.observation!.nodes).toEqual((await observe(plain, space_id)).nodes);
    // A since with another hash: the tap is done once and its screen after comes whole.
    const wrong = await c.call('ui_tap', {
      space_id,
      selector: [{ kind: 'text', text: bigRowTitle(30), exact: true }],
      max_nodes: 5000,
      since: { snapshot_id: second.observation!.snapshot_id, hash: '0'.repeat(16) },
    });
    expect(wrong.observation!.diff).toBeUndefined();
    expect(wrong.observation!.nodes.filter((n) => n.text === 'Starred')).toHaveLength(3);
    // The client's copy is not that screen's base any more: its next tap still ends whole and right.
    const next = await tap(40);
    expect(next.observation!.nodes).toEqual((await observe(plain, space_id)).nodes);
    expect(next.observation!.nodes.filter((n) => n.text === 'Starred')).toHaveLength(4);
  } finally {
    await sim.close();
  }
});

test('a since whose hash is not the base is refused with DIFF_BASE_MISMATCH; the client drops its copy and gets the whole screen', async () => {
  const sim = await startSimServer();
  try {
    const { c, sent } = await client(sim);
    const space_id = await bigScreen(c, 200);
    const first = await observe(c, space_id);
    // The raw protocol: the right snapshot, another hash.
    const refused = await c
      .call('ui_observe', {
        space_id,
        max_nodes: 5000,
        since: { snapshot_id: first.snapshot_id, hash: '0'.repeat(16) },
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(refused).toBeInstanceOf(DeviceError);
    expect((refused as DeviceError).code).toBe('DIFF_BASE_MISMATCH');
    expect((refused as DeviceError).message).toMatch(/since\.hash .* is not the hash of snapshot/);
    // The client's own copy altered (as a caller mutating what it got would) before its hash is
    // taken: the runtime refuses the base, and the client asks in full.
    (first.nodes[3] as { text: string | null }).text = 'changed here';
    sent.length = 0;
    const next = await observe(c, space_id);
    expect(next.nodes[3]!.text).not.toBe('changed here');
    expect(sent.map((s) => s.error ?? (s.args.since === null ? 'full' : 'since'))).toEqual([
      'DIFF_BASE_MISMATCH',
      'full',
    ]);
  } finally {
    await sim.close();
  }
});

test('a since the runtime does not hold (another session, or an old snapshot) gets a full observation', async () => {
  const sim = await startSimServer();
  try {
    const a = await client(sim);
    const space_id = await bigScreen(a.c, 200);
    const first = await observe(a.c, space_id);
    const hash = nodesHash(first.nodes);
    const b = await client(sim);
    const other = await b.c.call('ui_observe', {
      space_id,
      max_nodes: 5000,
      since: { snapshot_id: first.snapshot_id, hash },
    });
    expect(other.diff).toBeUndefined();
    expect(other.nodes).toEqual(first.nodes);
    // Session a's base moved on: its first snapshot is gone.
    await observe(a.c, space_id);
    const old = await a.c.call('ui_observe', {
      space_id,
      max_nodes: 5000,
      since: { snapshot_id: first.snapshot_id, hash },
    });
    expect(old.diff).toBeUndefined();
    expect(old.nodes.length).toBe(first.nodes.length);
  } finally {
    await sim.close();
  }
});

test('a runtime without the extension does not advertise it, and answers every observation in full', async () => {
  const sim = await startSimServer({ withoutExtensions: ['observe_diff'] });
  try {
    const { c, sent } = await client(sim);
    expect((await c.info())!.extensions).not.toContain('observe_diff');
    const space_id = await bigScreen(c, 200);
    const first = await observe(c, space_id);
    await observe(c, space_id);
    expect(sent.every((s) => s.args.since === undefined && !s.diff)).toBe(true);
    const raw = await c.call('ui_observe', {
      space_id,
      max_nodes: 5000,
      since: { snapshot_id: first.snapshot_id, hash: nodesHash(first.nodes) },
    });
    expect(raw.diff).toBeUndefined();
    expect(raw.nodes.length).toBe(first.nodes.length);
  } finally {
    await sim.close();
  }
});

const node = (id: string, text: string): UiNode => ({
  id,
  role: 'text',
  text,
  desc: null,
  bounds: [0, 0, 10, 10],
  clickable: false,
  editable: false,
  scrollable: false,
  enabled: true,
  focused: false,
  selected: false,
});

test('diffNodes and applyDiff: removed, changed and added nodes round-trip; a reorder is no diff; a wrong base is refused', () => {
  const base = ['a', 'b', 'c', 'd', 'e'].map((id) => node(id, id));
  const next = [node('x', 'x'), base[0]!, node('c', 'C'), base[3]!, node('y', 'y'), node('z', 'z')];
  const diff = diffNodes(base, next, 's_1')!;
  expect(diff).toMatchObject({ base: 's_1', count: 6, removed: ['b', 'e'] });
  expect(diff.changed.map((n) => n.id)).toEqual(['c']);
  expect(diff.added.map((a) => [a.at, a.node.id])).toEqual([
    [0, 'x'],
    [4, 'y'],
    [5, 'z'],
  ]);
  expect(applyDiff(base, diff)).toEqual(next);
  expect(diffNodes(base, [base[1]!, base[0]!], 's_1')).toBeNull();
  const other = base.map((n) => (n.id === 'd' ? node('d', 'D') : n));
  expect(() => applyDiff(other, diff)).toThrow(DiffMismatch);
  expect(() => applyDiff(base.slice(0, 2), diff)).toThrow(DiffMismatch);
});

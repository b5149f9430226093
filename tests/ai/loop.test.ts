import { expect, test } from '@playwright/test';
import type { ModelResponse } from '../../device-runtime/protocol/agent/adapter.js';
import { runActLoop, type ActLoopHost } from '../../device-runtime/protocol/agent/loop.js';
import { ACT_TOOLS } from '../../device-runtime/protocol/agent/tools.js';
import type { AiToolCall } from '../../device-runtime/protocol/agent/record.js';
import type { Observation } from '../../device-runtime/protocol/index.js';

/**
 * The shared act loop on its own, over a host with no device: what app.ai.act and the device's
 * task_run both rely on — one action per turn, refusals back to the model (schema, arguments that
 * are not JSON), done and give_up, and an app's functions (`fn_<id>` tools) beside the act tools.
 */
const screen = (id: string, texts: string[]): Observation =>
  ({
    snapshot_id: id,
    package: 'com.example',
    activity: '.Main',
    tree_missing: false,
    nodes: texts.map((t, i) => ({
      id: `n_${i + 1}`,
      role: 'button',
      text: t,
      bounds: [0, i * 100, 100, i * 100 + 90],
      enabled: true,
    })),
  }) as unknown as Observation;

function host(turns: Array<ModelResponse['toolCalls']>) {
  const calls: AiToolCall[] = [];
  const sent: unknown[] = [];
  let n = 0;
  const h: ActLoopHost<string> = {
    screen: async (o) => [{ type: 'text', text: `<screen snapshot="${o.snapshot_id}">` }],
    request: async (_s, tools, _c, messages) => {
      sent.push({ tools: tools.map((t) => t.name), messages: structuredClone(messages) });
      const toolCalls = turns[n++] ?? [];
      return {
        content: toolCalls.map((c) => ({ type: 'tool_use' as const, ...c })),
        toolCalls,
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, requests: 1 },
        stopReason: 'tool_use',
        latencyMs: 1,
      };
    },
    perform: async (action, o) => ({
      ok: true,
      step: action.name,
      node: o.nodes[0]!,
      selector: 'text="A"',
      after: screen(`${o.snapshot_id}+`, ['A', 'B']),
    }),
    record: (c) => calls.push(c),
    fail: (code, message) => new Error(`${code}: ${message}`),
  };
  return { h, calls, sent };
}

test('refusals go back to the model, one action a turn, then done', async () => {
  const { h, calls, sent } = host([
    [{ id: '1', name: 'tap', input: '{"node_id": n_1', inputError: 'Unexpected token' }],
    [
      { id: '2', name: 'tap', input: { node_id: 'n_1', extra: true } },
      { id: '3', name: 'tap', input: { node_id: 'n_1' } },
      { id: '4', name: 'tap', input: { node_id: 'n_2' } },
    ],
    [{ id: '5', name: 'done', input: { summary: 'tapped' } }],
  ]);
  const r = await runActLoop(h, {
    instructionBlock: '<instruction>\ntap A\n</instruction>',
    instruction: 'tap A',
    start: screen('s1', ['A']),
    maxTurns: 5,
  });
  expect(r).toMatchObject({ steps: ['tap'], summary: 'tapped', turns: 3, end: { snapshot_id: 's1+' } });
  expect(calls.map((c) => [c.tool, c.result, c.message?.split('\n')[0]])).toEqual([
    ['tap', 'refused', 'the arguments are not JSON: Unexpected token'],
    ['tap', 'refused', expect.stringContaining('Unrecognized key')],
    ['tap', 'ok', undefined],
    ['tap', 'refused', 'one action per turn'],
    ['done', 'ok', undefined],
  ]);
  expect(calls[0]!.input).toEqual({ arguments: '{"node_id": n_1' });
  // The second request carries the repair: a tool error saying what was wrong.
  expect(JSON.stringify((sent[1] as any).messages.at(-1))).toContain('arguments are not JSON');
});

test('give_up and running out of turns fail through the host', async () => {
  await expect(
    runActLoop(host([[{ id: '1', name: 'give_up', input: { reason: 'no such app' } }]]).h, {
      instructionBlock: 'x',
      instruction: 'x',
      start: screen('s', ['A']),
      maxTurns: 3,
    }),
  ).rejects.toThrow('AI_GAVE_UP: the model gave up on "x": no such app');
  await expect(
    runActLoop(host([]).h, { instructionBlock: 'x', instruction: 'x', start: screen('s', ['A']), maxTurns: 2 }),
  ).rejects.toThrow('AI_MAX_TURNS');
});

test("an app's functions are offered after the act tools and run as the turn's action", async () => {
  const { h, calls, sent } = host([
    [{ id: '1', name: 'fn_createNote', input: { title: 'Tea' } }],
    [{ id: '2', name: 'fn_createNote', input: { title: '' } }],
    [{ id: '3', name: 'done', input: { summary: 'made' } }],
  ]);
  h.callFunction = async (id, params, o) =>
    params.title
      ? {
          ok: true,
          step: `fn:${id}`,
          node: null,
          selector: null,
          after: screen(`${o.snapshot_id}:fn`, ['Tea']),
          said: 'created note 7',
        }
      : { ok: false, refused: 'params.title: a title is not empty', node: null };
  const r = await runActLoop(h, {
    instructionBlock: 'x',
    instruction: 'x',
    start: screen('s', ['A']),
    maxTurns: 5,
    tools: [...ACT_TOOLS, { name: 'fn_createNote', description: 'Create a note', inputSchema: { type: 'object' } }],
  });
  expect((sent[0] as any).tools).toEqual([
    'tap',
    'long_press',
    'type_text',
    'scroll',
    'press_key',
    'done',
    'give_up',
    'fn_createNote',
  ]);
  expect(r).toMatchObject({ steps: ['fn:createNote'], end: { snapshot_id: 's:fn' } });
  expect(calls.map((c) => [c.tool, c.result, c.message ?? null, c.after])).toEqual([
    ['fn_createNote', 'ok', null, 's:fn'],
    ['fn_createNote', 'refused', 'params.title: a title is not empty', null],
    ['done', 'ok', null, null],
  ]);
});

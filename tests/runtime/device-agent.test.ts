import { expect, test } from '@playwright/test';
import type { SimRuntime } from '../../device-runtime/sim/runtime.js';
import { MessagesStandIn } from '../ai/stand-in.js';
import { ChatCompletionsStandIn, type ChatScript } from '../ai/chat-stand-in.js';
import { done, longPress, press, scripted, tap, typeInto } from '../ai/scripted-model.js';
import { runtime, session, spaceWithNotes } from './helpers.js';

/**
 * The device's own agent (task_run / task_status / task_cancel / trajectory_get): the shared act
 * loop on the simulator, its model behind a local stand-in of the provider's API on loopback.
 */
let model: MessagesStandIn;
const rts: SimRuntime[] = [];
test.beforeAll(async () => (model = await MessagesStandIn.start()));
test.afterAll(async () => {
  for (const rt of rts) rt.close();
  await model?.close();
});

const agentRuntime = (extra: Parameters<typeof runtime>[0] = {}) => {
  const rt = runtime({
    agent: { provider: 'anthropic', model: 'claude-haiku-5-5', apiKey: 'test-key', baseURL: model.url, maxRetries: 0 },
    ...extra,
  });
  rts.push(rt);
  return rt;
};

async function until(s: ReturnType<typeof session>, task_id: string, ok: (t: any) => boolean, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const t = await s.ok('task_status', { task_id });
    if (ok(t)) return t;
    if (Date.now() > deadline) throw new Error(`task ${task_id} still ${t.status}: ${JSON.stringify(t).slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const ended = (t: any) => ['succeeded', 'failed', 'cancelled'].includes(t.status);
const titles = async (s: ReturnType<typeof session>, space_id: string) =>
  (await s.ok('ui_observe', { space_id })).nodes.map((n) => n.text).filter(Boolean);

test("a task completed: the act loop through the runtime's own tools, its record, trajectory and audit", async () => {
  model.script = scripted([
    {
      match: 'create a note titled',
      turns: [tap('New note'), typeInto('title', 'Buy milk'), tap('Save'), done('note created')],
    },
  ]);
  const rt = agentRuntime();
  const s = session(rt, 'client');
  const space_id = await spaceWithNotes(s);
  await s.ok('space_launch', { space_id, package: 'com.nestwright.notes' });
  const started = await s.ok('task_run', { space_id, goal: 'create a note titled "Buy milk"' });
  expect(started).toMatchObject({ status: 'running', goal: 'create a note titled "Buy milk"', steps: 0 });
  const t = await until(s, started.task_id, ended);
  expect(t, t.error ?? '').toMatchObject({ status: 'succeeded', result: 'note created', steps: 3, error: null });
  expect(await titles(s, space_id)).toContain('Buy milk');
  const r = t.record!;
  expect(r).toMatchObject({ verb: 'act', model: 'claude-haiku-5-5', turns: 4, summary: 'note created' });
  expect(r.calls.map((c) => [c.tool, c.result])).toEqual([
    ['tap', 'ok'],
    ['type_text', 'ok'],
    ['tap', 'ok'],
    ['done', 'ok'],
  ]);
  expect(r.calls[0]!.selector).toBeTruthy();
  expect(r.calls[0]!.node).toMatch(/^n_\d+$/);
  expect(r.screens[r.calls[0]!.before!]).toContain(`${r.calls[0]!.node} button "New note"`);
  expect(r.usage.requests).toBe(4);
  expect(r.costUsd).toBeGreaterThan(0);
  expect(Object.keys(r.screens).length).toBeGreaterThanOrEqual(4);
  // The prompts and tools are the ones a test's app.ai.act sends.
  const body = model.requests.at(-1)!.body;
  expect(body.tools.map((x: any) => x.name)).toEqual([
    'tap',
    'long_press',
    'type_text',
    'scroll',
    'press_key',
    'done',
    'give_up',
  ]);
  expect(JSON.stringify(body.system)).toContain('You operate one Android app for an automated test');
  const traj = (await s.ok('trajectory_get', { space_id, task_id: t.task_id })).steps;
  expect(traj.map((x) => x.tool)).toEqual(expect.arrayContaining(['ui_observe', 'ui_tap', 'ui_set_text']));
  expect(traj.every((x) => x.code === 'OK')).toBe(true);
  const audit = (await s.ok('audit_query', { tool: 'ui_set_text' })).entries;
  expect(audit.map((e) => e.caller)).toEqual(['LOCAL_AGENT']);
  // Without task_id: the space's recent calls, the client's and the agent's.
  const recent = (await s.ok('trajectory_get', { space_id, limit: 500 })).steps.map((x) => x.tool);
  expect(recent).toEqual(expect.arrayContaining(['space_launch', 'task_run', 'ui_tap']));
  const info = await s.ok('runtime_info', {});
  expect(info.extensions).toContain('local_agent');
  expect(info.capabilities.local_agent).toEqual({ provider: 'anthropic', model: 'claude-haiku-5-5' });
});

test('a task cancelled mid-way stops before its next turn and takes no more actions', async () => {
  // A model that never finishes: opens the editor and goes back, again and again.
  model.script = scripted([
    { match: 'keep browsing', turns: Array.from({ length: 100 }, (_, i) => (i % 2 ? press('back') : tap('New note'))) },
  ]);
  const rt = agentRuntime();
  const s = session(rt, 'client');
  const space_id = await spaceWithNotes(s);
  await s.ok('space_launch', { space_id, package: 'com.nestwright.notes' });
  const { task_id } = await s.ok('task_run', { space_id, goal: 'keep browsing', max_steps: 100 });
  await until(s, task_id, (t) => t.steps >= 2 || ended(t));
  const cancelled = await s.ok('task_cancel', { task_id });
  expect(cancelled).toMatchObject({ status: 'cancelled', error_code: 'CANCELLED' });
  const steps = cancelled.steps;
  await new Promise((r) => setTimeout(r, 1_000));
  const later = await s.ok('task_status', { task_id });
  expect(later).toMatchObject({ status: 'cancelled', error_code: 'CANCELLED' });
  expect(later.steps - steps).toBeLessThanOrEqual(1); // an action already sent may land, none after
  expect(later.steps).toBeLessThan(100);
  // Cancelling again is harmless; an unknown task is TASK_NOT_FOUND.
  expect((await s.ok('task_cancel', { task_id })).status).toBe('cancelled');
  expect((await s.fail('task_status', { task_id: 'task_nope' })).code).toBe('TASK_NOT_FOUND');
});

test('a dangerous step waits for approval (awaiting_approval); denied, the task is cancelled and nothing is deleted', async () => {
  model.script = scripted([
    {
      match: 'create a note titled',
      turns: [tap('New note'), typeInto('title', 'Buy milk'), tap('Save'), done('created')],
    },
    { match: 'delete the note', turns: [longPress('Buy milk'), tap(/^Delete$/), tap(/^Delete$/), done('deleted')] },
  ]);
  const rt = agentRuntime();
  const s = session(rt, 'client');
  const user = session(rt, 'phone', 'USER');
  const space_id = await spaceWithNotes(s);
  await s.ok('space_launch', { space_id, package: 'com.nestwright.notes' });
  const made = await s.ok('task_run', { space_id, goal: 'create a note titled "Buy milk"' });
  expect((await until(s, made.task_id, ended)).status).toBe('succeeded');
  const { task_id } = await s.ok('task_run', { space_id, goal: 'delete the note "Buy milk"' });
  const waiting = await until(s, task_id, (t) => t.status === 'awaiting_approval' || ended(t));
  expect(waiting.status, waiting.error ?? '').toBe('awaiting_approval');
  expect(waiting.approval).toMatchObject({ tool: 'ui_tap', reason: expect.stringContaining('"Delete"') });
  // It really waits: still pending a moment later, with one action (the long-press) taken.
  await new Promise((r) => setTimeout(r, 300));
  expect(await s.ok('task_status', { task_id })).toMatchObject({ status: 'awaiting_approval', steps: 1 });
  await user.ok('approval_decide', { approval_id: waiting.approval!.approval_id, decision: 'deny', reason: 'keep it' });
  const t = await until(s, task_id, ended);
  expect(t).toMatchObject({ status: 'cancelled', error_code: 'APPROVAL_DENIED', approval: null });
  expect(t.error).toMatch(/denied by USER:phone: keep it/);
  await s.ok('ui_key', { space_id, key: 'back' });
  expect(await titles(s, space_id)).toContain('Buy milk');
  const traj = (await s.ok('trajectory_get', { space_id, task_id })).steps;
  expect(traj.filter((x) => x.tool.startsWith('approval_')).map((x) => [x.tool, x.code])).toEqual([
    ['approval_request', 'OK'],
    ['approval_wait', 'APPROVAL_DENIED'],
  ]);
  const events = (await s.ok('audit_query', { kind: 'approval' })).entries.map((e) => e.tool);
  expect(events).toEqual(['approval.request', 'approval.denied']);
});

test('approved, each dangerous step runs once its approval is given', async () => {
  model.script = scripted([
    { match: 'create a note titled', turns: [tap('New note'), typeInto('title', 'Old'), tap('Save'), done('created')] },
    { match: 'delete the note', turns: [longPress('Old'), tap(/^Delete$/), tap(/^Delete$/), done('deleted')] },
  ]);
  const rt = agentRuntime();
  const s = session(rt, 'client');
  const user = session(rt, 'phone', 'USER');
  const space_id = await spaceWithNotes(s);
  await s.ok('space_launch', { space_id, package: 'com.nestwright.notes' });
  const made = await s.ok('task_run', { space_id, goal: 'create a note titled "Old"' });
  expect((await until(s, made.task_id, ended)).status).toBe('succeeded');
  const { task_id } = await s.ok('task_run', { space_id, goal: 'delete the note "Old"' });
  const seen: string[] = [];
  for (;;) {
    const t = await until(
      s,
      task_id,
      (x) => (x.status === 'awaiting_approval' && !seen.includes(x.approval!.approval_id)) || ended(x),
    );
    if (ended(t)) {
      expect(t, t.error ?? '').toMatchObject({ status: 'succeeded', result: 'deleted' });
      break;
    }
    seen.push(t.approval!.approval_id);
    await user.ok('approval_decide', { approval_id: t.approval!.approval_id, decision: 'approve' });
  }
  expect(seen).toHaveLength(2); // the menu's Delete and the dialog's
  expect(await titles(s, space_id)).not.toContain('Old');
});

test('a budget exceeded fails the task with AI_BUDGET_EXCEEDED and the figures', async () => {
  model.script = scripted([{ match: 'create a note', turns: [tap('New note'), done('x')] }]);
  const rt = agentRuntime();
  const s = session(rt, 'client');
  const space_id = await spaceWithNotes(s);
  await s.ok('space_launch', { space_id, package: 'com.nestwright.notes' });
  const { task_id } = await s.ok('task_run', { space_id, goal: 'create a note', budget: { tokens: 50 } });
  const t = await until(s, task_id, ended);
  expect(t).toMatchObject({ status: 'failed', error_code: 'AI_BUDGET_EXCEEDED', steps: 0 });
  expect(t.error).toMatch(/this task used [\d,]+ tokens .* over its budget of 50 tokens/);
  expect(t.record!.usage.requests).toBe(1);
});

test('the same task through an openai-compatible model', async () => {
  const chat = await ChatCompletionsStandIn.start(
    scripted([
      { match: 'create a note titled', turns: [tap('New note'), typeInto('title', 'Tea'), tap('Save'), done('ok')] },
    ]) as ChatScript,
  );
  try {
    const rt = agentRuntime({
      agent: {
        provider: 'openai-compatible',
        model: 'local-model',
        baseURL: chat.url,
        prices: { 'local-model': { input: 0.5, output: 1.5 } },
        stream: true,
      },
    });
    const s = session(rt, 'client');
    const space_id = await spaceWithNotes(s);
    await s.ok('space_launch', { space_id, package: 'com.nestwright.notes' });
    const { task_id } = await s.ok('task_run', { space_id, goal: 'create a note titled "Tea"' });
    const t = await until(s, task_id, ended);
    expect(t, t.error ?? '').toMatchObject({ status: 'succeeded', steps: 3 });
    expect(t.record).toMatchObject({ model: 'local-model' });
    expect(await titles(s, space_id)).toContain('Tea');
    expect(chat.requests.every((q) => q.chat.model === 'local-model' && q.chat.stream)).toBe(true);
  } finally {
    await chat.close();
  }
});

test('no model configured: TOOL_DISABLED saying how to configure one; a runtime without the agent: NOT_SUPPORTED', async () => {
  const bare = runtime({ agent: null });
  rts.push(bare);
  const s = session(bare, 'client');
  const space_id = await spaceWithNotes(s);
  const e = await s.fail('task_run', { space_id, goal: 'anything' });
  expect(e.code).toBe('TOOL_DISABLED');
  expect(e.message).toContain('no model configured');
  expect(e.hint).toContain('nestwright sim --model');
  expect((await s.fail('task_status', { task_id: 'task_x' })).code).toBe('TASK_NOT_FOUND');
  expect((await s.ok('runtime_info', {})).capabilities.local_agent).toBeNull();
  const without = agentRuntime({ withoutExtensions: ['local_agent'] });
  const w = session(without, 'client');
  const sp = await spaceWithNotes(w);
  for (const [tool, args] of [
    ['task_run', { space_id: sp, goal: 'x' }],
    ['task_status', { task_id: 't' }],
    ['task_cancel', { task_id: 't' }],
  ] as const)
    expect((await w.fail(tool, args as never)).code).toBe('NOT_SUPPORTED');
  expect((await w.ok('runtime_info', {})).extensions).not.toContain('local_agent');
});

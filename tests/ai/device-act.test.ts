import { expect, test } from '@playwright/test';
import { AiStepRecordSchema } from '../../device-runtime/protocol/agent/record.js';
import { startSimServer, type RunningSim } from '../../device-runtime/sim/server.js';
import { attachmentText, runInline } from '../framework/inline.js';
import { done, scripted, tap, typeInto } from './scripted-model.js';
import { MessagesStandIn } from './stand-in.js';

/**
 * `app.ai.act(…, { on: 'device' })`: inline specs against simulators started here, one whose
 * own agent has a model (the Messages API stand-in), one that offers no agent. The step's record
 * has the shape of a local act's; a runtime without the agent fails the step naming the API.
 */
let model: MessagesStandIn;
let withAgent: RunningSim;
let without: RunningSim;
test.beforeAll(async () => {
  model = await MessagesStandIn.start(
    scripted([
      {
        match: 'create a note titled',
        turns: [tap('New note'), typeInto('title', 'Buy milk'), tap('Save'), done('note created on the device')],
      },
    ]),
  );
  withAgent = await startSimServer({
    port: 0,
    agent: { provider: 'anthropic', model: 'claude-haiku-5-5', apiKey: 'test-key', baseURL: model.url },
  });
  without = await startSimServer({ port: 0, withoutExtensions: ['local_agent'] });
});
test.afterAll(async () => {
  await withAgent?.close();
  await without?.close();
  await model?.close();
});

const SPEC = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
test.describe.configure({ timeout: 120_000 });
test.use({ actionTimeout: 10_000 });
test('on the device', async ({ app }) => {
  await app.ai.act('create a note titled {title}', { params: { title: 'Buy milk' }, on: 'device' });
  await expect(app.getByText('Buy milk', { exact: true })).toBeVisible();
});
`;

const on = (sim: RunningSim) => `deviceOptions: { provider: 'sim', url: '${sim.url}', token: '${sim.token}' }`;

test("the device's agent does the step; the trajectory record has the shape of a local act's", async () => {
  test.setTimeout(180_000);
  const r = await runInline({ 'device.spec.ts': SPEC }, { use: on(withAgent) });
  const res = r.result('on the device');
  expect(res.status, res.error + r.stderr).toBe('passed');
  const steps = JSON.parse(attachmentText(res.attachments.find((a) => a.name === 'nestwright-trajectory')!)).steps;
  const ai = steps.find((s: any) => s.ai)!;
  expect(ai.source).toBe('ai');
  const rec = AiStepRecordSchema.parse(ai.ai);
  expect(rec).toMatchObject({
    verb: 'act',
    model: 'claude-haiku-5-5',
    cache: 'off',
    summary: 'note created on the device',
  });
  expect(rec.calls.map((c) => c.tool)).toEqual(['tap', 'type_text', 'tap', 'done']);
  expect(rec.usage.requests).toBe(4);
  expect(rec.costUsd).toBeGreaterThan(0);
  // The model saw the goal with its parameter filled in.
  expect(model.requests[0]!.view.instruction).toBe('create a note titled Buy milk');
});

test('a runtime without its own agent fails the step with AI_NOT_SUPPORTED, naming the API', async () => {
  test.setTimeout(180_000);
  const before = model.requests.length;
  const r = await runInline({ 'device.spec.ts': SPEC }, { use: on(without) });
  const res = r.result('on the device');
  expect(res.status).toBe('failed');
  expect(res.error).toContain("ai.act: [AI_NOT_SUPPORTED] { on: 'device' } needs a runtime that runs its own agent");
  expect(model.requests.length).toBe(before);
});

import { expect, test } from '@playwright/test';
import { AiStepRecordSchema } from '../../device-runtime/protocol/agent/record.js';
import { startSimServer, type RunningSim } from '../../device-runtime/sim/server.js';
import { attachmentText, runInline, type InlineRun } from '../framework/inline.js';
import { sharedBatch } from '../framework/shared-batch.js';
import { done, scripted, tap, typeInto } from './scripted-model.js';
import { MessagesStandIn } from './stand-in.js';

/**
 * `app.ai.act(…, { on: 'device' })`: inline specs against simulators started here, one whose
 * own agent has a model (the Messages API stand-in), one that offers no agent. The step's record
 * has the shape of a local act's; a runtime without the agent fails the step naming the API.
 * One child run: a spec file for each simulator.
 */
const SPEC = (title: string, sim: RunningSim) => `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
test.describe.configure({ timeout: 120_000 });
test.use({ actionTimeout: 10_000, deviceOptions: { provider: 'sim', url: '${sim.url}', token: '${sim.token}' } });
test('${title}', async ({ app }) => {
  await app.ai.act('create a note titled {title}', { params: { title: 'Buy milk' }, on: 'device' });
  await expect(app.getByText('Buy milk', { exact: true })).toBeVisible();
});
`;

test.describe.configure({ mode: 'default' });

let run: InlineRun;
// What the model was sent: its instructions, in order.
let instructions: string[];

test.beforeAll(async () => {
  test.setTimeout(240_000);
  ({ run, instructions } = await sharedBatch('device-act', async () => {
    const model = await MessagesStandIn.start(
      scripted([
        {
          match: 'create a note titled',
          turns: [tap('New note'), typeInto('title', 'Buy milk'), tap('Save'), done('note created on the device')],
        },
      ]),
    );
    const withAgent = await startSimServer({
      port: 0,
      agent: { provider: 'anthropic', model: 'claude-haiku-5-5', apiKey: 'test-key', baseURL: model.url },
    });
    const without = await startSimServer({ port: 0, withoutExtensions: ['local_agent'] });
    try {
      // One run: each file's test.use names its simulator.
      const run = await runInline({
        'agent.spec.ts': SPEC('on the device', withAgent),
        'no-agent.spec.ts': SPEC('on a device without an agent', without),
      });
      return { run, instructions: model.requests.map((q) => q.view.instruction) };
    } finally {
      await withAgent.close();
      await without.close();
      await model.close();
    }
  }));
});

test("the device's agent does the step; the trajectory record has the shape of a local act's", () => {
  const res = run.result('on the device');
  expect(res.status, res.error + run.stderr).toBe('passed');
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
  expect(instructions[0]).toBe('create a note titled Buy milk');
});

test('a runtime without its own agent fails the step with AI_NOT_SUPPORTED, naming the API', () => {
  const res = run.result('on a device without an agent');
  expect(res.status).toBe('failed');
  expect(res.error).toContain("ai.act: [AI_NOT_SUPPORTED] { on: 'device' } needs a runtime that runs its own agent");
  // The model was asked only by the device that has an agent: the other test's four requests.
  expect(instructions).toHaveLength(4);
});

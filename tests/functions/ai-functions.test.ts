import { test, expect } from '@playwright/test';
import { startSimServer } from '../../device-runtime/sim/server.js';
import { done, scripted, tap, tool, typeInto, type Turn } from '../ai/scripted-model.js';
import { MessagesStandIn } from '../ai/stand-in.js';
import { attachmentText, plain, runInline, type InlineResult, type InlineRun } from '../framework/inline.js';
import { sharedBatch } from '../framework/shared-batch.js';

/**
 * `app.ai.act` with the app's functions offered as tools beside the UI actions: with the stand-in
 * model, which calls `fn_createNote` when it is offered (as the prompt asks it to prefer) and
 * works through the screens when not. On a runtime without AppFunctions the tools are the UI
 * actions alone and the same instruction takes the screens.
 */
test.describe.configure({ mode: 'default' });

const offered =
  (name: string): ((v: any) => boolean) =>
  (v) =>
    (v.body.tools ?? []).some((t: { name: string }) => t.name === name);

/** Turn n: the function while it is offered (then done), else the UI. */
const either =
  (fn: Turn[], ui: Turn[]): Turn =>
  (v, n) => {
    const turns = offered('fn_createNote')(v) ? fn : ui;
    return (turns[v.turn] ?? done('scripted turns ended'))(v, n);
  };

const TURNS = {
  fn: [() => tool('fn_createNote', { title: '{title}', body: 'from the model' }), done('note created by its function')],
  ui: [tap('New note'), typeInto('title', '{title}'), tap('Save'), done('note created')],
};

const SPEC = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', actionTimeout: 10_000 });
test.describe.configure({ timeout: 120_000 });
test('act', async ({ app }) => {
  await app.ai.act('create a note titled {title}', { params: { title: 'Buy milk' } });
  await expect(app.getByText('Buy milk')).toBeVisible();
});
test('a bad parameter goes back to the model', async ({ app }) => {
  await app.ai.act('make a note with a bad title');
  await expect(app.getByText('Repaired')).toBeVisible();
});
`;

// The same instruction on a runtime without AppFunctions: a file of its own, its device named by test.use.
const BARE = SPEC.replace(/\ntest\('a bad parameter[\s\S]*$/, '\n')
  .replaceAll('Buy milk', 'Buy bread')
  .replace("test('act'", "test('act without AppFunctions'")
  .replace(
    'actionTimeout: 10_000 });',
    "actionTimeout: 10_000, deviceOptions: { provider: 'sim', url: process.env.NW_BARE_URL, token: process.env.NW_BARE_TOKEN } });",
  );

let run: InlineRun;
let requests: Array<{ body: any; texts: string[]; offered: boolean }>;

test.beforeAll(async () => {
  test.setTimeout(400_000);
  ({ run, requests } = await sharedBatch('ai-functions', async () => {
    const t = Array.from({ length: 12 }, (_, i) => either(TURNS.fn, TURNS.ui)) as Turn[];
    const model = await MessagesStandIn.start(
      scripted([
        { match: 'create a note titled', turns: t },
        {
          match: 'make a note with a bad title',
          turns: [
            () => tool('fn_createNote', { title: 42 }),
            () => tool('fn_createNote', { title: 'Repaired' }),
            done('repaired'),
          ],
        },
      ]),
    );
    const sim = await startSimServer({ appFunctions: false });
    try {
      const run = await runInline(
        { 'fn-ai.spec.ts': SPEC, 'fn-ai-bare.spec.ts': BARE },
        {
          workers: 1,
          use: `ai: { baseURL: '${model.url}', apiKey: 'test-key', cache: 'off' },`,
          env: { NW_BARE_URL: sim.url, NW_BARE_TOKEN: sim.token },
        },
      );
      // What the model was sent, as far as the tests read it.
      const requests = model.requests.map((q) => ({
        body: q.body,
        texts: q.view.texts(),
        offered: offered('fn_createNote')(q.view),
      }));
      return { run, requests };
    } finally {
      await model.close();
      await sim.close();
    }
  }));
});

const trajectory = (r: InlineResult) =>
  JSON.parse(attachmentText(r.attachments.find((a) => a.name === 'nestwright-trajectory')!));

test('the functions are offered beside the UI actions and the model uses one: two model requests, no taps', () => {
  const r = run.result('act');
  expect(r.status, plain(r.error)).toBe('passed');
  const t = trajectory(r);
  const ai = t.steps.find((s: any) => s.ai).ai;
  expect(ai.calls.map((c: any) => c.tool)).toEqual(['fn_createNote', 'done']);
  expect(ai.usage.requests).toBe(2);
  const fn = t.steps.find((s: any) => s.source === 'function');
  expect(fn).toMatchObject({ function: { id: 'createNote', by: 'ai', params: { title: 'Buy milk' } } });
  expect(t.steps.some((s: any) => s.api === 'locator.tap')).toBe(false);
  // The first request of this test's step (the other file's, on a device without AppFunctions, types "Buy bread").
  const first = requests.find((q) => q.texts.some((x) => x.includes('Buy milk')))!.body;
  expect(first.tools.map((x: any) => x.name)).toEqual(
    expect.arrayContaining(['tap', 'type_text', 'done', 'fn_createNote', 'fn_findNotes', 'fn_deleteNote']),
  );
  const createTool = first.tools.find((x: any) => x.name === 'fn_createNote');
  expect(createTool.input_schema.properties.title.type).toBe('string');
  expect(JSON.stringify(first.system)).toContain('call it instead of working through the screens');
});

test('a parameter the app refuses goes back to the model, which repairs it', () => {
  const r = run.result('a bad parameter goes back to the model');
  expect(r.status, plain(r.error)).toBe('passed');
  const calls = trajectory(r).steps.find((s: any) => s.ai).ai.calls;
  expect(calls.map((c: any) => [c.tool, c.result])).toEqual([
    ['fn_createNote', 'refused'],
    ['fn_createNote', 'ok'],
    ['done', 'ok'],
  ]);
  expect(calls[0].message).toContain('params.title');
});

test('without AppFunctions the same instruction goes through the screens: UI tools only, four requests', () => {
  const r = run.result('act without AppFunctions');
  expect(r.status, plain(r.error)).toBe('passed');
  const ai = trajectory(r).steps.find((s: any) => s.ai).ai;
  expect(ai.calls.map((c: any) => c.tool)).toEqual(['tap', 'type_text', 'tap', 'done']);
  expect(ai.usage.requests).toBe(4);
  const bareRequests = requests.filter((q) => q.texts.some((x) => x.includes('Buy bread')));
  expect(bareRequests.length).toBe(4);
  expect(bareRequests.some((q) => q.offered)).toBe(false);
});

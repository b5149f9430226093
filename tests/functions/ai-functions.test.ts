import { test, expect } from '@playwright/test';
import { startSimServer, type RunningSim } from '../../device-runtime/sim/server.js';
import { done, scripted, tap, tool, typeInto, type Turn } from '../ai/scripted-model.js';
import { MessagesStandIn } from '../ai/stand-in.js';
import { attachmentText, plain, runInline, type InlineResult, type InlineRun } from '../framework/inline.js';

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

let model: MessagesStandIn;
let sim: RunningSim;
let fast: InlineRun;
let bare: InlineRun;

test.beforeAll(async () => {
  test.setTimeout(400_000);
  const t = Array.from({ length: 12 }, (_, i) => either(TURNS.fn, TURNS.ui)) as Turn[];
  model = await MessagesStandIn.start(
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
  sim = await startSimServer({ appFunctions: false });
  const use = (extra = '') => `ai: { baseURL: '${model.url}', apiKey: 'test-key', cache: 'off' }, ${extra}`;
  [fast, bare] = await Promise.all([
    runInline({ 'fn-ai.spec.ts': SPEC }, { workers: 1, use: use() }),
    runInline(
      { 'fn-ai.spec.ts': SPEC.replace(/\ntest\('a bad parameter[\s\S]*$/, '\n').replaceAll('Buy milk', 'Buy bread') },
      {
        workers: 1,
        use: use(`deviceOptions: { provider: 'sim', url: process.env.NW_BARE_URL, token: process.env.NW_BARE_TOKEN },`),
        env: { NW_BARE_URL: sim.url, NW_BARE_TOKEN: sim.token },
      },
    ),
  ]);
});

test.afterAll(async () => {
  await model?.close();
  await sim?.close();
});

const trajectory = (r: InlineResult) =>
  JSON.parse(attachmentText(r.attachments.find((a) => a.name === 'nestwright-trajectory')!));

test('the functions are offered beside the UI actions and the model uses one: two model requests, no taps', () => {
  const r = fast.result('act');
  expect(r.status, plain(r.error)).toBe('passed');
  const t = trajectory(r);
  const ai = t.steps.find((s: any) => s.ai).ai;
  expect(ai.calls.map((c: any) => c.tool)).toEqual(['fn_createNote', 'done']);
  expect(ai.usage.requests).toBe(2);
  const fn = t.steps.find((s: any) => s.source === 'function');
  expect(fn).toMatchObject({ function: { id: 'createNote', by: 'ai', params: { title: 'Buy milk' } } });
  expect(t.steps.some((s: any) => s.api === 'locator.tap')).toBe(false);
  // The first request of this run's step (the other run, on a device without AppFunctions, types "Buy bread").
  const first = model.requests.find((q) => q.view.texts().some((x) => x.includes('Buy milk')))!.body;
  expect(first.tools.map((x: any) => x.name)).toEqual(
    expect.arrayContaining(['tap', 'type_text', 'done', 'fn_createNote', 'fn_findNotes', 'fn_deleteNote']),
  );
  const createTool = first.tools.find((x: any) => x.name === 'fn_createNote');
  expect(createTool.input_schema.properties.title.type).toBe('string');
  expect(JSON.stringify(first.system)).toContain('call it instead of working through the screens');
});

test('a parameter the app refuses goes back to the model, which repairs it', () => {
  const r = fast.result('a bad parameter goes back to the model');
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
  const r = bare.result('act');
  expect(r.status, plain(r.error)).toBe('passed');
  const ai = trajectory(r).steps.find((s: any) => s.ai).ai;
  expect(ai.calls.map((c: any) => c.tool)).toEqual(['tap', 'type_text', 'tap', 'done']);
  expect(ai.usage.requests).toBe(4);
  const bareRequests = model.requests.filter((q) => q.view.texts().some((x) => x.includes('Buy bread')));
  expect(bareRequests.length).toBe(4);
  expect(bareRequests.some((q) => offered('fn_createNote')(q.view))).toBe(false);
});

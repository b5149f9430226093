import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { attachmentText, plain, ROOT, runInline, type InlineResult } from '../framework/inline.js';
import { done, press, scripted, tap, typeInto, giveUp, type Route } from './scripted-model.js';
import { MessagesStandIn } from './stand-in.js';

/**
 * app.ai.act end to end: inline specs run by Playwright against the simulator, the SDK pointed by
 * baseURL at the Messages API stand-in. The same directory is run several times: first run (the
 * model drives, the cache is written), replay (zero requests), a UI change (one heal request),
 * and a replay that cannot be healed (the entry goes stale).
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'pw-7f3a-never-shown';
const dir = path.join(ROOT, 'test-results', 'ai-act');
let model: MessagesStandIn;

const NOTES = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
// The machine running nestwright's own tests may be busy: generous per-test and action timeouts.
test.describe.configure({ timeout: 120_000 });
test.use({ actionTimeout: 10_000 });
test('creates a note by instruction', async ({ app }) => {
  await app.ai.act('create a note titled {title}', { params: { title: 'Buy milk' } });
  await expect(app.getByText('Buy milk')).toBeVisible();
});
`;
const SHOP = `import { test, expect, secret } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk' });
// The machine running nestwright's own tests may be busy: generous per-test and action timeouts.
test.describe.configure({ timeout: 120_000 });
test.use({ actionTimeout: 10_000 });
test('signs in by instruction', async ({ app, device }, testInfo) => {
  await app.ai.act('sign in as {user} with password {password}, accepting the terms', {
    params: { user: 'ana@example.com', password: secret(process.env.SHOP_PW) },
  });
  await expect(app.getByText('Catalog', { exact: true })).toBeVisible({ timeout: 20_000 });
  const audit = await device.client.call('audit_query', { limit: 1000 });
  await testInfo.attach('audit', { body: JSON.stringify(audit), contentType: 'application/json' });
});
`;

const routes = (heal?: Route['heal']): Route[] => [
  {
    match: 'create a note titled',
    turns: [tap('New note'), typeInto('title', 'Buy milk'), tap('Save'), done('note created')],
    ...(heal ? { heal } : {}),
  },
  {
    match: 'sign in as',
    turns: [
      typeInto('email', '{user}'),
      press('back'),
      tap('I accept the terms'),
      typeInto('password', '{password}'),
      press('back'),
      tap('Log in'),
      done('signed in'),
    ],
  },
];

/** A run of both specs, or of the named ones (the later runs change only the Notes entry). */
const run = (only: string[] = []) =>
  runInline(
    { 'notes-ai.spec.ts': NOTES, 'shop-ai.spec.ts': SHOP },
    {
      dir,
      use: `ai: { baseURL: '${model.url}', apiKey: 'test-key' }`,
      env: { SHOP_PW: PASSWORD },
      args: ['--reporter=json,./reporters/allure/index.ts', ...only],
    },
  );

const trajectory = (r: InlineResult) =>
  JSON.parse(attachmentText(r.attachments.find((a) => a.name === 'nestwright-trajectory')!));
const aiSteps = (r: InlineResult) => trajectory(r).steps.filter((s: any) => s.ai);
const cacheFile = (spec: string) => path.join(dir, '__ai-cache__', `${spec}.json`);

test.beforeAll(async () => {
  await rm(dir, { recursive: true, force: true });
  model = await MessagesStandIn.start(scripted(routes()));
});
test.afterAll(async () => {
  await model?.close();
  if (!process.env.NESTWRIGHT_KEEP_INLINE) await rm(dir, { recursive: true, force: true });
});

test('first run: the model drives Notes and Shop through the tool loop; passing steps are cached', async () => {
  test.setTimeout(360_000);
  const r = await run();
  expect(r.exitCode, r.stderr + r.results.map((x) => x.error).join('\n')).toBe(0);
  const notes = aiSteps(r.result('creates a note by instruction'))[0];
  expect(notes.ai.cache).toBe('miss');
  expect(notes.ai.calls.map((c: any) => c.tool)).toEqual(['tap', 'type_text', 'tap', 'done']);
  expect(notes.ai.calls.every((c: any) => c.result === 'ok')).toBe(true);
  expect(notes.ai.usage.requests).toBe(4);
  expect(notes.ai.usage.cacheRead).toBeGreaterThan(0); // system + tools read from the prompt cache after the first request
  expect(notes.ai.costUsd).toBeGreaterThan(0);
  // Each action went through the locator path: its own step, nested, source 'ai'.
  expect(
    trajectory(r.result('creates a note by instruction')).steps.filter(
      (s: any) => s.api === 'locator.tap' && s.source === 'ai',
    ),
  ).toHaveLength(2);
  expect(model.mentioning('create a note titled').length).toBe(4);

  const shop = aiSteps(r.result('signs in by instruction'))[0];
  expect(shop.ai.calls.map((c: any) => c.tool)).toEqual([
    'type_text',
    'press_key',
    'tap',
    'type_text',
    'press_key',
    'tap',
    'done',
  ]);

  // Every request: the system prompt and tools marked for prompt caching; the instruction apart from the screen.
  for (const q of model.requests) {
    expect(q.body.system.at(-1).cache_control).toEqual({ type: 'ephemeral' });
    expect(q.body.tools.at(-1).cache_control).toEqual({ type: 'ephemeral' });
    // The UI actions, then the app's declared functions (Notes and Shop declare some: docs/functions.md).
    expect(q.body.tools.map((t: any) => t.name).filter((n: string) => !n.startsWith('fn_'))).toEqual([
      'tap',
      'long_press',
      'type_text',
      'scroll',
      'press_key',
      'done',
      'give_up',
    ]);
    expect(q.body.model).toBe('claude-opus-5-5');
  }
  const notesCache = JSON.parse(await readFile(cacheFile('notes-ai.spec.ts'), 'utf8'));
  const entry = Object.values(notesCache.entries)[0] as any;
  expect(entry).toMatchObject({
    instruction: 'create a note titled {title}',
    package: 'com.nestwright.notes',
    status: 'ok',
    screen: 'com.nestwright.notes/.MainActivity',
  });
  // The typed text is stored by parameter name, not value.
  expect(entry.steps).toEqual([
    { action: 'tap', selector: 'id=new_note', node: expect.stringContaining('"New note"') },
    { action: 'type_text', selector: 'id=title', node: expect.any(String), text: '{title}' },
    { action: 'tap', selector: expect.stringMatching(/save/i), node: expect.stringContaining('Save') },
  ]);
});

test('the Allure report shows AI steps with their figures, and the test total as labels', async () => {
  const { readdir } = await import('node:fs/promises');
  const dirR = path.join(dir, 'allure-results');
  const results = await Promise.all(
    (await readdir(dirR))
      .filter((f) => f.endsWith('-result.json'))
      .map(async (f) => JSON.parse(await readFile(path.join(dirR, f), 'utf8'))),
  );
  const r = results.find((x) => x.name === 'creates a note by instruction');
  const labels = Object.fromEntries(r.labels.map((l: any) => [l.name, l.value]));
  expect(labels['ai.requests']).toBe('4');
  expect(Number(labels['ai.tokens'])).toBeGreaterThan(0);
  expect(Number(labels['ai.cost_usd'])).toBeGreaterThan(0);
  expect(r.descriptionHtml).toContain('AI steps: 1 (0 from the cache), 4 model requests');
  const step = r.steps.find((x: any) => x.name === 'AI act: create a note titled {title}');
  const params = Object.fromEntries(step.parameters.map((p: any) => [p.name, p.value]));
  expect(params).toMatchObject({
    source: 'ai',
    cache: 'miss',
    'model requests': '4',
    model: 'claude-opus-5-5',
    summary: 'note created',
  });
  expect(step.steps.map((x: any) => x.name)).toContain('Tap id=new_note');
  expect(step.attachments.map((a: any) => a.name)).toContain('ai step');
});

test('a secret is typed by the framework and is absent from prompts, cache, trajectory, report and audit', async () => {
  const requests = JSON.stringify(model.requests.map((q) => q.body));
  expect(requests).toContain('{password}');
  expect(requests).not.toContain(PASSWORD);
  const shopCache = await readFile(cacheFile('shop-ai.spec.ts'), 'utf8');
  expect(shopCache).toContain('{password}');
  expect(shopCache).toContain('{user}');
  const { readdir } = await import('node:fs/promises');
  const files = await readdir(path.join(dir, 'allure-results'));
  expect(files.length).toBeGreaterThan(0);
  for (const f of files)
    expect(await readFile(path.join(dir, 'allure-results', f), 'latin1'), f).not.toContain(PASSWORD);
  for (const f of await readdir(path.join(dir, '__ai-cache__')))
    expect(await readFile(path.join(dir, '__ai-cache__', f), 'utf8')).not.toContain(PASSWORD);
});

test('replay: the cached steps run through the locators with zero model requests', async () => {
  test.setTimeout(360_000);
  model.requests.length = 0;
  const before = await readFile(cacheFile('notes-ai.spec.ts'), 'utf8');
  const r = await run();
  expect(r.exitCode, r.stderr + r.results.map((x) => x.error).join('\n')).toBe(0);
  expect(model.requests).toHaveLength(0);
  for (const t of ['creates a note by instruction', 'signs in by instruction']) {
    const s = aiSteps(r.result(t))[0];
    expect(s.ai.cache).toBe('hit');
    expect(s.ai.usage.requests).toBe(0);
    expect(s.ai.calls.every((c: any) => c.source === 'cache' && c.result === 'ok')).toBe(true);
  }
  // Secrets on replay: the raw JSON report (all attachments, the audit included) never has the value.
  expect(JSON.stringify(r.raw)).not.toContain(PASSWORD);
  expect(attachmentText(r.result('signs in by instruction').attachments.find((a) => a.name === 'audit')!)).toContain(
    'ui_set_text',
  );
  expect(await readFile(cacheFile('notes-ai.spec.ts'), 'utf8')).toBe(before);
});

test('a UI change: the step that no longer resolves is healed by one model call and the entry rewritten', async () => {
  test.setTimeout(360_000);
  // As if the cache had been recorded on a build whose button had another resource id.
  const file = cacheFile('notes-ai.spec.ts');
  await writeFile(file, (await readFile(file, 'utf8')).replace('"id=new_note"', '"id=add_note"'));
  model.requests.length = 0;
  model.script = scripted(routes(tap('New note')));
  const r = await run(['notes-ai.spec.ts']);
  expect(r.exitCode, r.stderr + r.results.map((x) => x.error).join('\n')).toBe(0);
  expect(model.requests).toHaveLength(1);
  const s = aiSteps(r.result('creates a note by instruction'))[0];
  expect(s.ai.cache).toBe('healed');
  expect(s.ai.calls.map((c: any) => `${c.source}:${c.tool}:${c.result}`)).toEqual([
    'cache:tap:failed',
    'model:tap:ok',
    'cache:type_text:ok',
    'cache:tap:ok',
  ]);
  expect(await readFile(file, 'utf8')).toContain('"id=new_note"');
});

test('a replay that cannot be healed marks the entry stale; a failed test writes nothing else', async () => {
  test.setTimeout(360_000);
  const file = cacheFile('notes-ai.spec.ts');
  await writeFile(file, (await readFile(file, 'utf8')).replace('"id=new_note"', '"id=add_note"'));
  model.script = scripted([
    {
      match: 'create a note titled',
      heal: giveUp('no such button'),
      turns: [giveUp('cannot find a way to create notes')],
    },
  ]);
  const r = await run(['notes-ai.spec.ts']);
  expect(r.results.map((x) => x.title)).toEqual(['creates a note by instruction']);
  expect(r.result('creates a note by instruction').status).toBe('failed');
  expect(plain(r.result('creates a note by instruction').error)).toContain('[AI_GAVE_UP]');
  const entry = Object.values(JSON.parse(await readFile(file, 'utf8')).entries)[0] as any;
  expect(entry.status).toBe('stale');
  expect(entry.staleReason).toMatch(/replay failed/);
  expect(entry.steps[0].selector).toBe('id=add_note');
});

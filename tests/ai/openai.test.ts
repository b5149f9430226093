import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { OpenAiCompatibleAdapter } from '../../device-runtime/protocol/agent/openai.js';
import { withAiErrors } from '../../framework/ai/anthropic.js';
import { AiError } from '../../framework/ai/errors.js';
import { resolveAiOptions } from '../../framework/ai/options.js';
import { ACT_TOOLS, VERDICT_TOOL } from '../../framework/ai/tools.js';
import { fingerprintOf, heal, modelArbiter } from '../../framework/heal/index.js';
import { attachmentText, ROOT, runInline, type InlineRun } from '../framework/inline.js';
import { sharedBatch } from '../framework/shared-batch.js';
import { btn, field, screen, toolbar } from '../heal/corpus/dsl.js';
import { ChatCompletionsStandIn, type ChatScript } from './chat-stand-in.js';
import { exampleModel } from './example-model.js';
import { scripted, tap, typeInto, done, verdictOn } from './scripted-model.js';

/**
 * The openai-compatible provider (Chat Completions with tools) against a local stand-in on
 * loopback: the adapter's wire format, streaming, usage, retries and malformed tool arguments;
 * then the example AI specs, verdicts and the heal arbiter run through it (the specs in one
 * child run).
 */
let api: ChatCompletionsStandIn;
test.beforeAll(async () => (api = await ChatCompletionsStandIn.start()));
test.afterAll(async () => api?.close());
test.beforeEach(() => {
  api.requests.length = 0;
  api.faults.length = 0;
});

const adapter = (o: { stream?: boolean; apiKey?: string; maxRetries?: number } = {}) =>
  new OpenAiCompatibleAdapter({
    baseURL: api.url,
    apiKey: 'apiKey' in o ? o.apiKey : 'k',
    maxRetries: o.maxRetries ?? 2,
    timeoutMs: 10_000,
    stream: o.stream ?? false,
  });
const verdictRequest = {
  model: 'local-model',
  system: 'S'.repeat(400),
  tools: [VERDICT_TOOL],
  toolChoice: { type: 'tool' as const, name: 'verdict' },
  messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hello' }] }],
  maxTokens: 100,
};
const PRICES = `prices: { 'local-model': { input: 0.5, output: 1.5 } }`;

test('JSON and SSE give the same tool call and usage; tools, tool_choice, key and prefix caching on the wire', async () => {
  api.script = () => ({
    kind: 'tool',
    name: 'verdict',
    input: { pass: true, evidence_node_ids: ['n_1'], reason: 'ok' },
    text: 'thinking',
  });
  const json = await adapter().complete(verdictRequest);
  const sse = await adapter({ stream: true }).complete(verdictRequest);
  for (const r of [json, sse]) {
    expect(r.toolCalls).toEqual([
      {
        id: expect.stringMatching(/^call_/),
        name: 'verdict',
        input: { pass: true, evidence_node_ids: ['n_1'], reason: 'ok' },
      },
    ]);
    expect(r.content[0]).toEqual({ type: 'text', text: 'thinking' });
    expect(r.stopReason).toBe('tool_calls');
    expect(r.usage.requests).toBe(1);
    expect(r.usage.output).toBeGreaterThan(0);
  }
  // The second request has the same system + tools prefix: the server reports it cached.
  expect(json.usage.cacheRead).toBe(0);
  expect(sse.usage.cacheRead).toBeGreaterThan(100);
  expect(sse.usage.input + sse.usage.cacheRead).toBe(json.usage.input);
  const [first, second] = api.requests.map((r) => r.chat);
  expect(api.requests[0]!.headers.authorization).toBe('Bearer k');
  expect(first.tool_choice).toEqual({ type: 'function', function: { name: 'verdict' } });
  expect(first.tools[0]).toMatchObject({
    type: 'function',
    function: { name: 'verdict', parameters: { type: 'object' } },
  });
  expect(first.messages[0]).toEqual({ role: 'system', content: 'S'.repeat(400) });
  expect(first.stream).toBe(false);
  expect(second).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  // No key: no Authorization header at all (a local server needs none).
  await adapter({ apiKey: undefined }).complete(verdictRequest);
  expect(api.requests[2]!.headers.authorization).toBeUndefined();
});

test('tool results go back as role "tool" messages; act tools are offered with tool_choice "required"', async () => {
  api.script = () => ({ kind: 'tool', name: 'done', input: { summary: 'ok' } });
  await adapter().complete({
    ...verdictRequest,
    tools: ACT_TOOLS,
    toolChoice: { type: 'any' },
    messages: [
      { role: 'user', content: [{ type: 'text', text: '<instruction>\nx\n</instruction>' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'tap', input: { node_id: 'n_1' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'call_1', isError: true, content: [{ type: 'text', text: 'refused: no' }] },
        ],
      },
    ],
  });
  const chat = api.requests[0]!.chat;
  expect(chat.tool_choice).toBe('required');
  expect(chat.parallel_tool_calls).toBe(false);
  expect(chat.messages.slice(2)).toEqual([
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'tap', arguments: '{"node_id":"n_1"}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'error: refused: no' },
  ]);
});

test('tool arguments that are not JSON come back as inputError with the raw text, in JSON and SSE', async () => {
  api.script = () => ({ kind: 'raw-args', name: 'tap', arguments: '{"node_id": "n_1"' });
  for (const stream of [false, true]) {
    const r = await adapter({ stream }).complete(verdictRequest);
    expect(r.toolCalls[0]).toMatchObject({
      name: 'tap',
      input: '{"node_id": "n_1"',
      inputError: expect.stringMatching(/JSON/),
    });
  }
});

test('429 with retry-after is waited out; 500 is retried; a 500 with no retries left fails with AI_MODEL_ERROR and its status', async () => {
  api.script = () => ({
    kind: 'tool',
    name: 'verdict',
    input: { pass: true, evidence_node_ids: ['n_1'], reason: 'ok' },
  });
  api.faults.push({ status: 429, retryAfter: 1 });
  const t0 = Date.now();
  const r = await adapter().complete(verdictRequest);
  expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  expect(r.usage.requests).toBe(2);
  api.faults.push({ status: 500 });
  expect((await adapter({ stream: true }).complete(verdictRequest)).usage.requests).toBe(2);
  api.faults.push({ status: 500 }, { status: 500 });
  const e = await withAiErrors(adapter({ maxRetries: 1 }))
    .complete(verdictRequest)
    .catch((x: unknown) => x);
  expect(e).toBeInstanceOf(AiError);
  expect(e).toMatchObject({ code: 'AI_MODEL_ERROR', status: 500, requests: 2 });
  expect((e as Error).message).toContain('answered 500 after 2 request(s)');
});

test('use.ai: openai-compatible needs a model id and its price from config', () => {
  expect(() => resolveAiOptions({ provider: 'openai-compatible', baseURL: api.url })).toThrow(/use\.ai\.model/);
  expect(() => resolveAiOptions({ provider: 'openai-compatible', model: 'local-model' })).toThrow(
    /use\.ai\.prices\['local-model'\]/,
  );
  const o = resolveAiOptions({
    provider: 'openai-compatible',
    model: 'local-model',
    prices: { 'local-model': { input: 0.5, output: 1.5 } },
  });
  expect(o.models).toEqual({
    act: 'local-model',
    assert: 'local-model',
    extract: 'local-model',
    waitFor: 'local-model',
  });
});

test('the heal arbiter through the openai-compatible adapter', async () => {
  const before = screen('.Edit', [toolbar('Edit'), field('Title', 'title'), btn('Save', 'save', { key: 'save' })]);
  const fp = fingerprintOf(before.observation, before.keys.save!);
  const close = screen('.Edit', [
    toolbar('Edit'),
    field('Title', 'title'),
    btn('Save note', 'save_note'),
    btn('Save and close', 'save_close'),
  ]);
  api.script = (req) => {
    const line = req.view
      .texts()
      .join('\n')
      .split('\n')
      .find((l) => l.includes('"Save and close"'))!;
    return { kind: 'tool', name: 'choose', input: { node_id: line.split(' ')[0], reason: 'it saves, as Save did' } };
  };
  const arbiter = modelArbiter({ adapter: withAiErrors(adapter({ stream: true })), model: 'local-model' });
  const r = await heal({ selector: 'id=save', fingerprint: fp, observation: close.observation, model: arbiter });
  expect(r).toMatchObject({ status: 'healed', by: 'model', selector: 'id=save_close' });
  expect(api.requests[0]!.chat.tools.map((t: any) => t.function.name)).toEqual(['choose', 'none']);
});

// Its model (a stand-in of its own, streaming) named by the file's test.use.
const NOTES_REPAIR = (url: string) => `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
test.describe.configure({ timeout: 120_000 });
test.use({ actionTimeout: 10_000, ai: { provider: 'openai-compatible', baseURL: '${url}', model: 'local-model', ${PRICES}, cache: 'off', stream: true } });
test('a malformed call is repaired, then a verdict', async ({ app }) => {
  await app.ai.act('create a note titled {title}', { params: { title: 'Buy milk' } });
  await app.ai.assert('the note "Buy milk" is in the list');
  await expect(app.ai.assert('MISSING the note "Pay rent" is in the list')).rejects.toThrow('AI_ASSERTION_FAILED');
});
`;

/** What a stand-in was sent, as far as the tests read it. */
type Sent = { model: string; turn: number; instruction: string; lastResult: unknown };
const sent = (s: ChatCompletionsStandIn): Sent[] =>
  s.requests.map((q) => ({
    model: q.chat.model,
    turn: q.view.turn,
    instruction: q.view.instruction,
    lastResult: q.view.lastResult(),
  }));

/**
 * One child run for the two tests below, each file with a stand-in of its own (so each script
 * and each request log is one test's): the repair spec and the example AI specs.
 */
test.describe('child runs through the openai-compatible provider', () => {
  test.describe.configure({ mode: 'default' });

  let run: InlineRun;
  let repairSent: Sent[];
  let examplesSent: Sent[];

  test.beforeAll(async () => {
    test.setTimeout(400_000);
    ({ run, repairSent, examplesSent } = await sharedBatch('openai', async () => {
      const repair = await ChatCompletionsStandIn.start();
      const examples = await ChatCompletionsStandIn.start();
      try {
        repair.script = scripted([
          {
            match: 'create a note titled',
            turns: [
              () => ({ kind: 'raw-args', name: 'tap', arguments: '{"node_id": n_1' }) as never,
              tap('New note'),
              typeInto('title', 'Buy milk'),
              tap('Save'),
              done('created'),
            ],
          },
          { match: 'MISSING', answer: verdictOn('Pay rent') },
          { match: 'Buy milk', answer: verdictOn('Buy milk') },
        ]) as ChatScript;
        examples.script = exampleModel() as ChatScript;
        const files = Object.fromEntries(
          await Promise.all(
            ['notes-ai.spec.ts', 'shop-ai.spec.ts'].map(async (f) => [
              f,
              await readFile(path.join(ROOT, 'specs', f), 'utf8'),
            ]),
          ),
        );
        const run = await runInline(
          { ...files, 'repair.spec.ts': NOTES_REPAIR(repair.url) },
          {
            use: `actionTimeout: 10_000, ai: { provider: 'openai-compatible', baseURL: '${examples.url}', model: 'local-model', ${PRICES}, cache: 'off' }`,
            config: 'timeout: 180_000,',
          },
        );
        return { run, repairSent: sent(repair), examplesSent: sent(examples) };
      } finally {
        await repair.close();
        await examples.close();
      }
    }));
  });

  test('act repairs a malformed tool call in the next turn; verdicts pass and fail, through openai-compatible', () => {
    const res = run.result('a malformed call is repaired, then a verdict');
    expect(res.status, res.error + run.stderr).toBe('passed');
    const steps = JSON.parse(
      attachmentText(res.attachments.find((a) => a.name === 'nestwright-trajectory')!),
    ).steps.filter((s: any) => s.ai);
    expect(steps.map((s: any) => s.ai.verb)).toEqual(['act', 'assert', 'assert']);
    const act = steps[0].ai;
    expect(act.model).toBe('local-model');
    expect(act.calls[0]).toMatchObject({ tool: 'tap', result: 'refused', message: expect.stringMatching(/not JSON/) });
    expect(act.calls.slice(1).map((c: any) => c.tool)).toEqual(['tap', 'type_text', 'tap', 'done']);
    expect(act.costUsd).toBeGreaterThan(0);
    // The repair turn told the model what was wrong with its arguments.
    const repair = repairSent.find((q) => q.turn === 1 && q.instruction.includes('create a note'))!;
    expect(repair.lastResult).toMatchObject({
      isError: true,
      text: expect.stringMatching(/arguments are not JSON/),
    });
    expect(steps[1].ai.verdict).toMatchObject({ pass: true, grounded: true });
  });

  test('the example AI specs pass with the model behind the openai-compatible provider', () => {
    const examples = run.results.filter((x) => x.title !== 'a malformed call is repaired, then a verdict');
    expect(
      examples.map((x) => [x.title, x.status]),
      examples.map((x) => x.error).join('\n') + run.stderr,
    ).toEqual([
      ['creates and deletes a note, by instruction', 'passed'],
      ['signs in and adds a product to the cart, by instruction', 'passed'],
    ]);
    expect(examplesSent.length).toBeGreaterThanOrEqual(10);
    expect(new Set(examplesSent.map((q) => q.model))).toEqual(new Set(['local-model']));
  });
});

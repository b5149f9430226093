import { test, expect } from '@playwright/test';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import yaml from 'yaml';
import { AnthropicAdapter } from '../../framework/ai/anthropic.js';
import type { ContentBlock, ModelMessage, ToolSpec } from '../../framework/ai/adapter.js';
import { MessagesStandIn } from '../ai/stand-in.js';
import { initAgentsCommand } from '../../cli/commands/init-agents.js';
import { childEnv } from '../inline-run.js';
import { makeProject, nestwrightBin, NOTES_APK, ROOT } from './helpers.js';

/**
 * The test agents' loop with no model: a scripted agent follows each definition `init-agents`
 * wrote for Claude Code, over MCP with the SDK's stock client, on the server its `.mcp.json`
 * starts. Each phase may call only the tools its definition lists; the decisions a model would
 * make are written here. Planner → generator → run on the Shop app; then the healer on a red
 * suite: Notes updated to 2.0 (a locator moved: heal → green) and the Shop's empty-coupon crash
 * (the app is broken: fixme). Tool calls and result sizes are counted per phase.
 */
test.describe.configure({ timeout: 900_000 });

const SHOP = 'fixtures/apks/shop.apk';
const notesSpec = (apk: string) => `import { test, expect } from 'nestwright';

test.use({ apk: ${JSON.stringify(apk)} });

test('opens the editor for a new note', async ({ app }) => {
  await app.getByText('New note').tap();
  await expect(app).toHaveActivity('.EditNoteActivity');
});
`;

const PLAN = `# Shop: cart and catalog

The Shop app: sign-in, a paged catalog loaded from a server, a cart with a coupon field, checkout.

## Test scenarios

### 1. Add a product to the cart

**Start:** .CatalogActivity. **Conditions:** none.

**Steps:**
1. Add "Smart Speaker 1" to the cart
2. Open the cart

**Expected:**
- The cart badge shows 1 after step 1
- The cart lists "Smart Speaker 1 x1"

### 2. The catalog offline

**Start:** .CatalogActivity. **Conditions:** offline.

**Expected:**
- The catalog says "You're offline"

### 3. Apply an empty coupon

**Start:** .CartActivity. **Conditions:** none.

**Steps:**
1. Tap Apply with the coupon field empty

**Expected:**
- The total is still shown. Found while planning: the app crashes instead.
`;

/** A run of several tests on a loaded machine takes minutes: no timing in this test's verdict. */
const SLOW = { timeout: 600_000 };

interface Phase {
  calls: number;
  /** Characters of tool results the agent read (its context grows by these). */
  chars: number;
  byTool: Record<string, number>;
  /** The stand-in's token estimates (4 characters a token), summed over the phase's requests. */
  tokens: { input: number; cacheWrite: number; cacheRead: number; output: number; requests: number };
}

/** What each agent runs on: its definition (instructions, tools) and the model adapter. */
interface Setup {
  client: Client;
  api: MessagesStandIn;
  adapter: AnthropicAdapter;
  definition: (name: string) => Promise<{ instructions: string; tools: Set<string> }>;
  specs: ToolSpec[];
}

/**
 * One agent. Each call is a model turn: the framework's model adapter (AnthropicAdapter, the
 * Messages API) sends the definition's instructions as the system prompt, its tools and the
 * conversation so far to the local stand-in, which answers with the call this test decided; the
 * call goes to the server over MCP and its result back into the conversation, as a coding agent's
 * loop does. Only the tools the definition lists can be called.
 */
class ScriptedAgent {
  readonly phase: Phase = {
    calls: 0,
    chars: 0,
    byTool: {},
    tokens: { input: 0, cacheWrite: 0, cacheRead: 0, output: 0, requests: 0 },
  };
  private readonly messages: ModelMessage[];
  private constructor(
    readonly name: string,
    private readonly setup: Setup,
    private readonly system: string,
    private readonly allowed: Set<string>,
    task: string,
  ) {
    this.messages = [{ role: 'user', content: [{ type: 'text', text: task }] }];
  }

  static async start(setup: Setup, name: string, task: string): Promise<ScriptedAgent> {
    const d = await setup.definition(name);
    return new ScriptedAgent(name, setup, d.instructions, d.tools, task);
  }

  private async call(tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
    if (!this.allowed.has(tool)) throw new Error(`${this.name} has no tool ${tool} in its definition`);
    this.setup.api.script = () => ({ kind: 'tool', name: tool, input: args });
    const res = await this.setup.adapter.complete({
      model: 'claude-sonnet-5-5',
      system: this.system,
      tools: this.setup.specs.filter((t) => this.allowed.has(t.name)),
      toolChoice: { type: 'any' },
      messages: this.messages,
      maxTokens: 2048,
    });
    const t = this.phase.tokens;
    t.input += res.usage.input;
    t.cacheWrite += res.usage.cacheWrite;
    t.cacheRead += res.usage.cacheRead;
    t.output += res.usage.output;
    t.requests += res.usage.requests;
    const use = res.toolCalls[0]!;
    expect(use.name).toBe(tool);
    this.messages.push({ role: 'assistant', content: res.content });
    this.phase.calls++;
    this.phase.byTool[tool] = (this.phase.byTool[tool] ?? 0) + 1;
    const r = (await this.setup.client.callTool(
      { name: use.name, arguments: use.input as Record<string, unknown> },
      undefined,
      SLOW,
    )) as CallToolResult;
    this.phase.chars += r.content.reduce((n, c) => n + (c.type === 'text' ? c.text.length : 0), 0);
    const content = r.content.flatMap(
      (c): Array<{ type: 'text'; text: string } | { type: 'image'; pngBase64: string }> =>
        c.type === 'text'
          ? [{ type: 'text', text: c.text }]
          : c.type === 'image'
            ? [{ type: 'image', pngBase64: c.data }]
            : [],
    );
    const result: ContentBlock = {
      type: 'tool_result',
      toolUseId: use.id,
      content,
      ...(r.isError ? { isError: true } : {}),
    };
    this.messages.push({ role: 'user', content: [result] });
    return r;
  }
  async ok(tool: string, args: Record<string, unknown> = {}): Promise<any> {
    const r = await this.call(tool, args);
    if (r.isError) throw new Error(`${tool} failed: ${(r.content[0] as { text: string }).text}`);
    return r.structuredContent;
  }
  async fails(tool: string, args: Record<string, unknown>): Promise<{ code: string; message: string }> {
    const r = await this.call(tool, args);
    if (!r.isError) throw new Error(`${tool} succeeded: ${JSON.stringify(r.structuredContent)}`);
    return JSON.parse((r.content[0] as { text: string }).text).error;
  }
}

/** Tool calls and tokens (input, cached or not, plus output) since the last call of the returned function. */
function meter(agent: ScriptedAgent): () => { calls: number; tokens: number } {
  const total = () => {
    const t = agent.phase.tokens;
    return { calls: agent.phase.calls, tokens: t.input + t.cacheWrite + t.cacheRead + t.output };
  };
  let mark = total();
  return () => {
    const now = total();
    const delta = { calls: now.calls - mark.calls, tokens: now.tokens - mark.tokens };
    mark = now;
    return delta;
  };
}

test('planner → generator → green on the Shop; healer: Notes 2.0 healed, the empty-coupon crash marked fixme', async () => {
  const project = await makeProject({ 'specs/notes.spec.ts': notesSpec(NOTES_APK) });
  await mkdir(path.join(project.dir, 'fixtures/apks'), { recursive: true });
  await copyFile(path.join(ROOT, 'fixtures/apks/shop.apk'), path.join(project.dir, SHOP));
  const read = (p: string) => readFile(path.join(project.dir, p), 'utf8');

  // The definitions, as a user gets them.
  const io = { out: () => {}, err: (t: string) => void process.stderr.write(t), cwd: project.dir };
  expect(await initAgentsCommand(['--loop=claude', '--app', SHOP], io)).toBe(0);
  const definition = async (name: string) => {
    const [, front, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(await read(`.claude/agents/${name}.md`))!;
    const tools = (yaml.parse(front!).tools as string).split(', ');
    return {
      instructions: body!.trim(),
      tools: new Set(tools.filter((t) => t.startsWith('mcp__nestwright__')).map((t) => t.slice(17))),
    };
  };
  // The server, as Claude Code starts it from .mcp.json (`npx nestwright` is this checkout's bin).
  const server = JSON.parse(await read('.mcp.json')).mcpServers.nestwright as { command: string; args: string[] };
  expect(server).toEqual({ command: 'npx', args: ['nestwright', 'mcp'] });
  const client = new Client({ name: 'scripted-agent', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [await nestwrightBin(), ...server.args.slice(1)],
      cwd: project.dir,
      env: childEnv(),
      stderr: 'pipe',
    }),
  );
  const api = await MessagesStandIn.start();
  const adapter = new AnthropicAdapter({
    apiKey: 'test-key',
    baseURL: api.url,
    maxRetries: 0,
    timeoutMs: 30_000,
    stream: false,
  });
  const specs: ToolSpec[] = (await client.listTools()).tools.map((t) => ({
    name: t.name,
    description: t.description ?? '',
    inputSchema: t.inputSchema as Record<string, unknown>,
  }));
  const setup: Setup = { client, api, adapter, definition, specs };
  const figures: Record<string, Phase> = {};
  try {
    // Before the loop: the Notes suite was green on Notes 1.0 (its heal fingerprints recorded).
    const before = (
      await client.callTool({ name: 'run_tests', arguments: { files: ['specs/notes.spec.ts'] } }, undefined, SLOW)
    ).structuredContent as { passed: number };
    expect(before.passed).toBe(1);

    // ── Planner: read the seed, map the app, explore, save the plan. ──
    const planner = await ScriptedAgent.start(
      setup,
      'nestwright-test-planner',
      `Plan tests for the cart and the catalog of the Shop app.\n\nspecs/seed.spec.ts:\n${await read('specs/seed.spec.ts')}`,
    );
    expect(await read('specs/seed.spec.ts')).toContain(`test.use({ apk: "${SHOP}" });`);
    let s = (await planner.ok('open_app', { app: SHOP })).session;
    const map = await planner.ok('app_map', { session: s });
    expect(map.activities.map((a: { name: string }) => a.name)).toEqual(
      expect.arrayContaining(['.CatalogActivity', '.CartActivity']),
    );
    await planner.ok('act', { session: s, action: 'launch', value: '.CatalogActivity' });
    // The catalog loads from a slow server; the tap waits for the row, as a spec's would.
    const addSpeaker =
      "getById('product_row').filter({ hasText: 'Smart Speaker 1' }).getByRole('button', { name: 'Add to cart' })";
    const added = await planner.ok('act', { session: s, action: 'tap', selector: addSpeaker, timeout_ms: 20_000 });
    expect(added.screen).toContain('desc="Cart, 1 items"');
    const cart = await planner.ok('act', { session: s, action: 'tap', selector: "getByDesc('Cart, 1 items')" });
    expect(cart.screen).toContain('"Smart Speaker 1 x1"');
    // The edge: Apply with the coupon field empty. The app crashes (the planner notes it as a bug).
    const crash = await planner.fails('act', {
      session: s,
      action: 'tap',
      selector: "getByRole('button', { name: 'Apply' })",
    });
    expect(crash.code).toBe('APP_CRASHED');
    await planner.ok('close_app', { session: s });
    s = (await planner.ok('open_app', { app: SHOP })).session;
    await planner.ok('set_conditions', { session: s, offline: true });
    await planner.ok('act', { session: s, action: 'launch', value: '.CatalogActivity' });
    const offline = await planner.ok('observe', { session: s });
    expect(offline.screen).toContain("You're offline");
    await planner.ok('close_app', { session: s });
    expect(await planner.ok('save_plan', { name: 'shop', content: PLAN })).toMatchObject({ scenarios: 3 });
    figures.planner = planner.phase;

    // ── Generator: each scenario on a fresh instance, performed, asserted, written. ──
    const generator = await ScriptedAgent.start(
      setup,
      'nestwright-test-generator',
      `Generate specs for specs/plans/shop.md.\n\n${await read('specs/plans/shop.md')}`,
    );
    /** Tool calls and tokens (input, cached or not, plus output) of each generated test. */
    const perTest: Record<string, { calls: number; tokens: number }> = {};
    const header = { plan: 'specs/plans/shop.md', seed: 'specs/seed.spec.ts' };
    const written = meter(generator);

    s = (await generator.ok('open_app', { app: SHOP })).session;
    await generator.ok('act', {
      session: s,
      action: 'launch',
      value: '.CatalogActivity',
      intent: 'Start at the catalog',
    });
    await generator.ok('act', {
      session: s,
      action: 'tap',
      selector: addSpeaker,
      timeout_ms: 20_000,
      intent: 'Add "Smart Speaker 1" to the cart',
    });
    await generator.ok('assert', {
      session: s,
      kind: 'text',
      selector: 'id=cart_badge',
      value: '1',
      intent: 'The cart badge shows 1',
    });
    await generator.ok('act', {
      session: s,
      action: 'tap',
      selector: "getByDesc('Cart, 1 items')",
      intent: 'Open the cart',
    });
    await generator.ok('assert', {
      session: s,
      kind: 'visible',
      selector: "getByText('Smart Speaker 1 x1')",
      intent: 'The cart lists "Smart Speaker 1 x1"',
    });
    await generator.ok('generate_spec', {
      session: s,
      path: 'specs/shop/cart.spec.ts',
      title: 'adds a product to the cart',
      ...header,
    });
    await generator.ok('close_app', { session: s });
    perTest.cart = written();

    s = (await generator.ok('open_app', { app: SHOP })).session;
    await generator.ok('set_conditions', { session: s, offline: true });
    await generator.ok('act', {
      session: s,
      action: 'launch',
      value: '.CatalogActivity',
      intent: 'Start at the catalog',
    });
    await generator.ok('assert', {
      session: s,
      kind: 'visible',
      selector: 'getByText("You\'re offline")',
      timeout_ms: 20_000,
      intent: 'The catalog says "You\'re offline"',
    });
    await generator.ok('generate_spec', {
      session: s,
      path: 'specs/shop/offline.spec.ts',
      title: 'says the catalog is offline',
      ...header,
    });
    await generator.ok('close_app', { session: s });
    perTest.offline = written();

    s = (await generator.ok('open_app', { app: SHOP })).session;
    await generator.ok('act', { session: s, action: 'launch', value: '.CartActivity', intent: 'Start at the cart' });
    const applied = await generator.fails('act', {
      session: s,
      action: 'tap',
      selector: "getByRole('button', { name: 'Apply' })",
      intent: 'Tap Apply with the coupon field empty',
    });
    expect(applied.code).toBe('APP_CRASHED');
    // The plan expects the total; the app crashed: the check stays, for the healer.
    const kept = await generator.fails('assert', {
      session: s,
      kind: 'visible',
      selector: "getById('total')",
      keep_if_failed: true,
      intent: 'The total is still shown',
    });
    expect(['ASSERTION_FAILED', 'APP_CRASHED']).toContain(kept.code);
    await generator.ok('generate_spec', {
      session: s,
      path: 'specs/shop/coupon.spec.ts',
      title: 'applies an empty coupon',
      ...header,
    });
    await generator.ok('close_app', { session: s });
    perTest.coupon = written();

    const generated = await generator.ok('run_tests', { files: ['specs/shop'] });
    expect(generated).toMatchObject({ passed: 2, failed: 1 });
    expect(generated.failures[0].title).toContain('applies an empty coupon');
    figures.generator = generator.phase;

    // ── The app update: Notes 2.0 renamed "New note". The suite is red. ──
    await writeFile(
      path.join(project.dir, 'specs/notes.spec.ts'),
      notesSpec(path.join(ROOT, 'fixtures/apks/notes-v2.apk')),
    );

    // ── Healer: run, read each failure, prefer nestwright's proposals, fixme what the app breaks. ──
    const healer = await ScriptedAgent.start(
      setup,
      'nestwright-test-healer',
      'Run all the tests and fix the failing ones.',
    );
    const healed0 = meter(healer);
    const red = await healer.ok('run_tests', {});
    expect(red).toMatchObject({ failed: 2 });
    const proposals = (await healer.ok('heal_proposals', {})).proposals as Array<any>;
    const perHeal: Record<string, { calls: number; tokens: number }> = { 'run, proposals': healed0() };
    const healed = meter(healer);
    for (const f of red.failures) {
      const failure = await healer.ok('get_failure', { trajectory_id: f.trajectory_id });
      const mine = proposals.filter((p) => p.spec === f.file && p.test === f.title.split(' › ').pop());
      const crashed =
        failure.error.code === 'APP_CRASHED' || failure.logcat_tail.some((l: string) => l.includes('FATAL EXCEPTION'));
      if (mine.length && !crashed) {
        // A locator moved: nestwright's ranked proposal, with a clear margin over the next candidate.
        expect(mine.map((p) => [p.selector, p.proposed])).toEqual([["text='New note'", 'text=Create note']]);
        const edit = await healer.ok('apply_heal', { ids: mine.filter((p) => p.margin >= 0.1).map((p) => p.id) });
        expect(edit.not_applied).toEqual([]);
      } else {
        // The app crashes: the test is right. Mark it fixme with what happens; its check stays.
        expect(crashed).toBe(true);
        const exception =
          failure.logcat_tail.map((l: string) => /\b[\w.]+Exception\b.*/.exec(l)?.[0]).find(Boolean) ??
          failure.error.message;
        await healer.ok('fixme', {
          file: f.file,
          title: f.title.split(' › ').pop(),
          reason: `tapping Apply with an empty coupon crashes the app: ${exception}`,
        });
      }
      perHeal[f.file] = healed();
    }
    const green = await healer.ok('run_tests', {});
    expect(green).toMatchObject({ failed: 0, skipped: 1, passed: 4 });
    perHeal['run again'] = healed();
    figures.healer = healer.phase;

    // What the loop wrote.
    expect(await read('specs/notes.spec.ts')).toContain("app.getByText('Create note').tap()");
    const coupon = await read('specs/shop/coupon.spec.ts');
    expect(coupon).toMatch(
      /\/\/ FIXME: the app is broken here: tapping Apply with an empty coupon crashes the app: .*StringIndexOutOfBoundsException/,
    );
    expect(coupon).toContain("test.fixme('applies an empty coupon'");
    expect(coupon).toContain("await expect(app.getById('total')).toBeVisible();");
    expect(await read('specs/shop/cart.spec.ts')).toContain("await expect(app.getById('cart_badge')).toHaveText('1');");

    const out = {
      figures,
      perTest,
      perHeal,
      files: Object.fromEntries(
        await Promise.all(
          [
            'specs/plans/shop.md',
            'specs/shop/cart.spec.ts',
            'specs/shop/offline.spec.ts',
            'specs/shop/coupon.spec.ts',
            'specs/notes.spec.ts',
          ].map(async (f) => [f, await read(f)]),
        ),
      ),
    };
    await test
      .info()
      .attach('agents-loop.json', { body: JSON.stringify(out, null, 2), contentType: 'application/json' });
    if (process.env.NESTWRIGHT_AGENTS_LOOP_OUT)
      await writeFile(process.env.NESTWRIGHT_AGENTS_LOOP_OUT, JSON.stringify(out, null, 2));
  } finally {
    await api.close();
    await client.close();
    await project.remove();
  }
});

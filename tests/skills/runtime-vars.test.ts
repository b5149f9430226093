import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { test, expect } from '@playwright/test';
import { startSimServer, type RunningSim } from '../../device-runtime/sim/server.js';
import { plain, ROOT, runInline, type InlineRun } from '../framework/inline.js';

/**
 * Runtime variables in skills, on both sides of the protocol: `script` steps (code and env) in
 * the sandbox Maestro flows use, `${expression}` references, `true` checks (assert and when),
 * `copy_text` into `${maestro.copiedText}`, and `hide_keyboard` (a back only when the keyboard is
 * up), `open_link`, `stop_app` and `screenshot`. The same skill file is replayed by an inline spec on the simulator and by `skill_run`
 * over MCP; a script that throws fails its step with the script's message.
 */
test.describe.configure({ mode: 'default' });

const SKILL = `name: notes.runtime_vars
app: com.nestwright.notes
params:
  prefix: { type: string, default: Buy }
steps:
  - script: |
      output.title = \`\${prefix} \${['milk', 'eggs'].join(' and ')}\`;
  - script: { code: "output.n = Number(count) * 2", env: { count: "21" } }
  - assert: { true: "\${output.n === 42}" }
  - tap: text=New note
  - fill: { target: id=title, value: "\${output.title}" }
  - hide_keyboard: true
  - tap: role=button[name="Save"]
  - copy_text: id=note_title
  - assert: { true: "\${maestro.copiedText === output.title}" }
  - when: { true: "\${output.n > 100}" }
    tap: text=Never there
  - hide_keyboard: true
  - assert: { visible: 'text="\${maestro.copiedText}"' }
`;
const THROWS = `name: notes.throws
app: com.nestwright.notes
steps:
  - script: "throw new Error('no test data for ' + 'notes')"
  - tap: text=New note
`;
const LINK = `name: shop.deep_link
app: com.nestwright.shop
steps:
  - open_link: nwshop://product/42
  - assert: { activity: .ProductActivity }
  - stop_app: true
  - launch: true
  - assert: { hidden: id=add_to_cart }
  - screenshot: home
`;
const LINK_TITLES = [
  'shop.deep_link 1/6: Open nwshop://product/42',
  'shop.deep_link 2/6: Assert activity .ProductActivity',
  'shop.deep_link 3/6: Stop the app',
  'shop.deep_link 5/6: Assert hidden id=add_to_cart',
  'shop.deep_link 6/6: Screenshot home',
];
const TITLES = [
  'runtime_vars 2/12: Run script output.n = Number(count) * 2',
  'runtime_vars 3/12: Assert true "true"',
  'runtime_vars 5/12: Fill id=title with "Buy milk and eggs"',
  'runtime_vars 6/12: Hide the keyboard',
  'runtime_vars 8/12: Copy the text of id=note_title',
  'runtime_vars 12/12: Assert visible text="Buy milk and eggs"',
];

test.describe('replayed by a spec on the simulator', () => {
  let run: InlineRun;
  test.beforeAll(async () => {
    test.setTimeout(300_000);
    run = await runInline(
      {
        'skills/vars.yaml': SKILL,
        'skills/throws.yaml': THROWS,
        'skills/link.yaml': LINK,
        'link.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk' });
test('open_link and stop_app', async ({ app }) => {
  const r = await app.runSkill('skills/link.yaml');
  expect(r.ok, r.error?.message).toBe(true);
});
`,
        'vars.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
test('runtime variables', async ({ app }) => {
  const r = await app.runSkill('skills/vars.yaml');
  console.log('RESULT ' + JSON.stringify(r.steps.map((s) => s.status)) + ' ' + (r.error?.message ?? ''));
  expect(r.ok).toBe(true);
});
test('a script that throws', async ({ app }) => {
  await expect(app).toPassSkill('skills/throws.yaml');
});
`,
      },
      { workers: 1 },
    );
  });

  test('script, expressions, true checks, copy_text and hide_keyboard replay as test steps', () => {
    const r = run.result('runtime variables');
    expect(r.status, r.error).toBe('passed');
    expect(run.raw && JSON.stringify(run.raw)).toContain(
      `RESULT [${[...Array(9).fill('passed'), 'skipped', 'passed', 'passed'].map((s) => `\\"${s}\\"`).join(',')}]`,
    );
    const steps = r.steps.map((s) => s.trim());
    for (const t of TITLES.map((x) => x.replace(/^runtime_vars/, 'notes.runtime_vars'))) expect(steps).toContain(t);
  });

  test('open_link opens a deep link; stop_app stops the app, and launch starts it again', () => {
    const r = run.result('open_link and stop_app');
    expect(r.status, r.error).toBe('passed');
    const steps = r.steps.map((s) => s.trim());
    for (const t of LINK_TITLES) expect(steps).toContain(t);
    expect(r.attachments.map((a) => a.name)).toContain('home.png');
  });

  test('a script that throws fails its step with the script error', () => {
    const r = run.result('a script that throws');
    expect(r.status).toBe('failed');
    expect(plain(r.error)).toContain('failed at step 1');
    expect(plain(r.error)).toContain('Error: no test data for notes');
  });
});

test.describe('replayed by skill_run on the device', () => {
  let sim: RunningSim;
  let client: Client;
  let space: string;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any };

  test.beforeAll(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nw-vars-'));
    writeFileSync(path.join(dir, 'vars.yaml'), SKILL);
    writeFileSync(path.join(dir, 'throws.yaml'), THROWS);
    writeFileSync(path.join(dir, 'link.yaml'), LINK);
    sim = await startSimServer({ skills: dir });
    client = new Client({ name: 'vars-test', version: '0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(sim.url), {
        requestInit: { headers: { Authorization: `Bearer ${sim.token}` } },
      }),
    );
    space = (await call('space_create', { name: 'vars' })).structuredContent.space_id;
    await call('session_acquire', { space_id: space, mode: 'EXCLUSIVE' });
    for (const apk of ['notes.apk', 'shop.apk'])
      await call('space_install_apk', { space_id: space, apk_paths: [path.join(ROOT, 'fixtures/apks', apk)] });
  });

  test.afterAll(async () => {
    await client?.close();
    await sim?.close();
  });

  test('the same skill passes with the same step titles', async () => {
    const r = await call('skill_run', { space_id: space, skill: 'notes.runtime_vars', params: {} });
    expect(r.isError, JSON.stringify(r)).toBeFalsy();
    const out = r.structuredContent;
    expect(out, JSON.stringify(out.evidence)).toMatchObject({ ok: true, failed_step: null });
    const titles = out.evidence.map((e: { status: string; title: string }) => `${e.status} ${e.title}`);
    for (const t of TITLES) expect(titles).toContain(`passed notes.${t}`);
    expect(titles).toContain('skipped notes.runtime_vars 10/12: Tap text=Never there');
    expect(out.evidence[7].node).toMatchObject({ text: 'Buy milk and eggs' });
  });

  test('open_link and stop_app on the device', async () => {
    const out = (await call('skill_run', { space_id: space, skill: 'shop.deep_link', params: {} })).structuredContent;
    expect(out, JSON.stringify(out.evidence)).toMatchObject({ ok: true, failed_step: null });
    const titles = out.evidence.map((e: { status: string; title: string }) => `${e.status} ${e.title}`);
    for (const t of LINK_TITLES) expect(titles).toContain(`passed ${t}`);
    expect(out.evidence[5].message).toMatch(/^screenshot home: \S+ \(\d+x\d+\)$/);
  });

  test('a script that throws fails its step with the script error', async () => {
    const out = (await call('skill_run', { space_id: space, skill: 'notes.throws', params: {} })).structuredContent;
    expect(out).toMatchObject({ ok: false, failed_step: 1 });
    expect(out.message).toContain('Error: no test data for notes');
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { test, expect } from '@playwright/test';
import { startSimServer, type RunningSim } from '../../device-runtime/sim/server.js';
import { ROOT } from '../framework/inline.js';

/**
 * What imported Maestro flows need of a device's `skill_run` (the other side of the protocol
 * from the framework's replay, which tests/skills/maestro.test.ts runs): a `run` step with
 * `times` (a `${…}` too) and `while` (looked at again before each turn), a swipe across the
 * screen (no target), and a selector relation (`below=`). In process: the simulator's MCP server
 * on 127.0.0.1.
 */

const LOOPS = `name: notes.loops
app: com.nestwright.notes
steps:
  - script: "output.n = 0; output.count = 5"
  - run: { skill: turn.yaml, times: "\${output.count}", while: { true: "\${output.n < 3}" } }
  - assert: { true: "\${output.n === 3}" }
  - run: { skill: turn.yaml, times: 2 }
  - assert: { true: "\${output.n === 5}" }
  - run: { skill: turn.yaml, while: { hidden: "text=Nowhere" }, times: 0 }
  - assert: { true: "\${output.n === 5}" }
  - swipe: { direction: up }
  - tap: 'id=new_note >> below="id=toolbar_title"'
  - assert: { visible: id=title }
`;
const AI = `name: notes.ai
app: com.nestwright.notes
steps:
  - ai_assert: The list is empty
`;
const TURN = `name: notes.turn
app: com.nestwright.notes
steps:
  - script: "output.n = output.n + 1"
`;

let sim: RunningSim;
let client: Client;
let space: string;
let dir: string;
const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any };

test.beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nw-loops-'));
  writeFileSync(path.join(dir, 'loops.yaml'), LOOPS);
  writeFileSync(path.join(dir, 'turn.yaml'), TURN);
  writeFileSync(path.join(dir, 'ai.yaml'), AI);
  sim = await startSimServer({ skills: dir });
  client = new Client({ name: 'loops-test', version: '0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(sim.url), {
      requestInit: { headers: { Authorization: `Bearer ${sim.token}` } },
    }),
  );
  space = (await call('space_create', { name: 'loops' })).structuredContent.space_id;
  await call('session_acquire', { space_id: space, mode: 'EXCLUSIVE' });
  await call('space_install_apk', { space_id: space, apk_paths: [path.join(ROOT, 'fixtures/apks/notes.apk')] });
});

test.afterAll(async () => {
  await client?.close();
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('skill_run: run steps loop with times and while, a swipe needs no target, selectors relate nodes', async () => {
  const r = await call('skill_run', { space_id: space, skill: 'notes.loops', params: {} });
  expect(r.isError, JSON.stringify(r)).toBeFalsy();
  const out = r.structuredContent;
  expect(out, JSON.stringify(out.evidence, null, 1)).toMatchObject({ ok: true, failed_step: null });
  const titles = out.evidence.map((e: { status: string; title: string }) => `${e.status} ${e.title}`);
  expect(titles).toContain('passed notes.loops 2/10: Run skill turn.yaml 5 times while true "${output.n < 3}"');
  expect(titles).toContain('passed notes.loops 8/10: Swipe up on the screen');
  expect(titles).toContain('passed notes.loops 9/10: Tap id=new_note >> below="id=toolbar_title"');
  // Three turns of the first loop, two of the second, none of the third.
  expect(titles.filter((t: string) => t.includes('notes.turn 1/1'))).toHaveLength(5);
});

test('skill_run: an ai_assert step fails NOT_SUPPORTED on a device, which runs no model', async () => {
  const out = (await call('skill_run', { space_id: space, skill: 'notes.ai', params: {} })).structuredContent;
  expect(out).toMatchObject({ ok: false, failed_step: 1 });
  expect(out.message).toContain('NOT_SUPPORTED: an ai_assert step needs a model');
});

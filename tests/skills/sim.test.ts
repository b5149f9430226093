import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { test, expect } from '@playwright/test';
import { startSimServer, type RunningSim } from '../../device-runtime/sim/server.js';
import { ROOT } from '../framework/inline.js';

/**
 * skill_list / skill_run over MCP, with the MCP SDK's stock client against the simulator over
 * real HTTP: the skills of the runtime's skill directory, served to a space that has their app.
 */
test.describe.configure({ mode: 'default' });

let sim: RunningSim;
let client: Client;
let space: string;

async function call(
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError?: boolean; structuredContent?: any }> {
  return (await client.callTool({ name, arguments: args })) as never;
}

/** An error result's envelope, as a stock client reads it: the JSON of its text block. */
async function errorOf(name: string, args: Record<string, unknown>): Promise<{ code: string; message: string }> {
  const r = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: unknown;
    content: Array<{ type: string; text?: string }>;
  };
  expect(r.isError).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  return JSON.parse(r.content.find((c) => c.type === 'text')!.text!).error;
}

test.beforeAll(async () => {
  sim = await startSimServer({ skills: path.join(ROOT, 'skills') });
  client = new Client({ name: 'skills-test', version: '0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(sim.url), {
      requestInit: { headers: { Authorization: `Bearer ${sim.token}` } },
    }),
  );
  space = (await call('space_create', { name: 'skills' })).structuredContent.space_id;
  await call('session_acquire', { space_id: space, mode: 'EXCLUSIVE' });
});

test.afterAll(async () => {
  await client?.close();
  await sim?.close();
});

test('skill_list serves the skills whose app is installed in the space', async () => {
  let listed = (await call('skill_list', { space_id: space })).structuredContent.skills;
  // Settings is a system app: its skill is there from the start; the notes skill is not.
  expect(listed.map((s: { name: string }) => s.name)).toEqual(['settings.turn_on_wifi']);
  expect(listed[0]).toMatchObject({ package: 'com.android.settings', params: ['search'] });
  await call('space_install_apk', { space_id: space, apk_paths: [path.join(ROOT, 'fixtures/apks/notes.apk')] });
  listed = (await call('skill_list', { space_id: space, package: 'com.nestwright.notes' })).structuredContent.skills;
  expect(listed).toEqual([
    {
      name: 'notes.add_note',
      package: 'com.nestwright.notes',
      description: 'Add a note with a title and see it in the list',
      params: ['title'],
    },
  ]);
});

test("skill_run replays a skill in the space and answers with each step's evidence", async () => {
  const r = await call('skill_run', { space_id: space, skill: 'notes.add_note', params: { title: 'Over MCP' } });
  expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
  const out = r.structuredContent;
  expect(out).toMatchObject({ ok: true, steps: 3, failed_step: null, message: null });
  expect(out.evidence.map((e: { title: string; status: string }) => `${e.status} ${e.title}`)).toEqual([
    'passed notes.add_note 1/3: open the editor (Tap text=New note)',
    'passed notes.add_note 2/3: type the title (Fill id=title with "Over MCP")',
    'passed notes.add_note 3/3: save the note (Tap role=button[name="Save"])',
  ]);
  expect(out.evidence[2]).toMatchObject({
    selector: 'role=button[name="Save"]',
    node: { text: 'Save', role: 'button' },
  });
  expect(out.evidence[2].before).not.toBe(out.evidence[2].after);
  const obs = (await call('ui_observe', { space_id: space })).structuredContent;
  expect(obs.nodes.some((n: { text: string }) => n.text === 'Over MCP')).toBe(true);
});

test('skill_run: a post-check that does not hold fails at its step with what the screen showed; bad input is an error', async () => {
  // A search with no match: the step's post-check (the Wi-Fi row is listed) cannot hold.
  const failed = (
    await call('skill_run', { space_id: space, skill: 'settings.turn_on_wifi', params: { search: 'teleport' } })
  ).structuredContent;
  expect(failed).toMatchObject({ ok: false, failed_step: 2 });
  expect(failed.message).toContain(
    'skill settings.turn_on_wifi failed at step 2 "search for Wi-Fi": post-check failed: expected visible text="Wi-Fi"',
  );
  expect(failed.message).toContain('No results for');
  expect(failed.evidence[1]).toMatchObject({ status: 'failed' });

  const missing = await errorOf('skill_run', { space_id: space, skill: 'notes.add_note', params: {} });
  expect(missing).toMatchObject({ code: 'INVALID_ARGUMENT' });
  expect(missing.message).toContain('missing parameter "title"');
  expect(await errorOf('skill_run', { space_id: space, skill: 'nope', params: {} })).toMatchObject({
    code: 'SKILL_NOT_FOUND',
  });
  expect(
    await errorOf('skill_run', { space_id: space, skill: 'shop.sign_in', params: { email: 'a@b.c', password: 'x' } }),
  ).toMatchObject({ code: 'APP_NOT_INSTALLED' });
});

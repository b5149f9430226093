import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PNG } from 'pngjs';
import { tempDir } from '../runtime/helpers.js';
import { spawnSim, type SpawnedSim } from './spawn-sim.js';

/**
 * `npx nestwright sim` (a real child process) driven by the MCP SDK's stock `Client`, the way
 * an agent or the MCP Inspector reaches it: tools/list first, so the SDK validates every
 * structuredContent against the advertised outputSchema. Every device error must come back as
 * a readable result (isError + the envelope as text), never as an SDK validation exception.
 */
test.describe.configure({ mode: 'serial' });

let sim: SpawnedSim;
let token: string;
const clients: Client[] = [];

test.beforeAll(async () => {
  const dir = tempDir('nw-stock-');
  token = `stock-client-${createHash('sha256').update(dir).digest('hex').slice(0, 24)}`;
  writeFileSync(join(dir, 'token'), token, { mode: 0o600 });
  sim = await spawnSim(['--port', '0', '--ephemeral', '--token-file', join(dir, 'token')], { via: 'npx' });
});

test.afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await sim?.kill('SIGINT');
  expect(sim?.stdout()).toContain('nestwright sim stopped');
});

async function connect(): Promise<Client> {
  const client = new Client({ name: 'stock-client-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(sim.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  await client.listTools(); // caches each tool's outputSchema: callTool validates from here on
  clients.push(client);
  return client;
}

const call = (c: Client, name: string, args: Record<string, unknown>) =>
  c.callTool({ name, arguments: args }) as Promise<CallToolResult>;

/** The envelope of an error result, checking its MCP shape on the way. */
function envelope(r: CallToolResult): { code: string; message: string; retryable: boolean; hint: string | null } {
  expect(r.isError).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  const text = r.content.find((c) => c.type === 'text');
  expect(text, JSON.stringify(r)).toBeTruthy();
  return JSON.parse((text as { text: string }).text).error;
}

test('an unknown space is a SPACE_NOT_FOUND envelope the caller can read', async () => {
  const c = await connect();
  const e = envelope(await call(c, 'space_status', { space_id: 'sp_nosuch' }));
  expect(e).toMatchObject({ code: 'SPACE_NOT_FOUND', retryable: false });
  expect(e.message).toContain('sp_nosuch');
  expect(e.hint).toContain('space_list');
});

test('invalid arguments are INVALID_ARGUMENT, naming the argument', async () => {
  const c = await connect();
  const space = (await call(c, 'space_create', { name: 'stock' })).structuredContent as { space_id: string };
  const wrongType = envelope(await call(c, 'ui_observe', { space_id: space.space_id, max_nodes: 'all' }));
  expect(wrongType.code).toBe('INVALID_ARGUMENT');
  expect(wrongType.message).toContain('max_nodes');
  expect(envelope(await call(c, 'ui_tap', { space_id: space.space_id })).code).toBe('INVALID_ARGUMENT');
  expect(envelope(await call(c, 'no_such_tool', {})).code).toBe('UNKNOWN_TOOL');
});

test('a lease held by another session is SPACE_BUSY, retryable, naming the holder', async () => {
  const a = await connect();
  const b = await connect();
  const space = (await call(a, 'space_create', { name: 'leased' })).structuredContent as { space_id: string };
  const lease = await call(a, 'session_acquire', { space_id: space.space_id, mode: 'EXCLUSIVE' });
  expect(lease.isError).toBeFalsy();
  const busy = envelope(await call(b, 'ui_key', { space_id: space.space_id, key: 'home' }));
  expect(busy).toMatchObject({ code: 'SPACE_BUSY', retryable: true });
  expect(envelope(await call(b, 'session_acquire', { space_id: space.space_id, mode: 'EXCLUSIVE' })).code).toBe(
    'SPACE_BUSY',
  );
});

test('ui_screenshot is a PNG image block beside small structured metadata', async () => {
  const c = await connect();
  const space = (await call(c, 'space_create', { name: 'shots' })).structuredContent as { space_id: string };
  await call(c, 'session_acquire', { space_id: space.space_id });
  expect(
    (await call(c, 'space_launch', { space_id: space.space_id, package: 'com.android.settings' })).isError,
  ).toBeFalsy();

  const r = await call(c, 'ui_screenshot', { space_id: space.space_id, scale: 0.5 });
  expect(r.isError).toBeFalsy();
  const meta = r.structuredContent as { mime: string; width: number; height: number; sha256: string; data?: string };
  expect(meta).toMatchObject({ mime: 'image/png', width: 540, height: 1200 });
  expect(meta.data, 'the base64 travels once, as the image block').toBeUndefined();
  const text = r.content.find((x) => x.type === 'text') as { text: string };
  expect(text.text.length).toBeLessThan(1_000);
  const image = r.content.find((x) => x.type === 'image') as { data: string; mimeType: string };
  expect(image.mimeType).toBe('image/png');
  const bytes = Buffer.from(image.data, 'base64');
  const png = PNG.sync.read(bytes);
  expect([png.width, png.height]).toEqual([540, 1200]);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(meta.sha256);

  // ui_observe with include_screenshot: the tree as structured content, the named PNG as an image.
  const o = await call(c, 'ui_observe', { space_id: space.space_id, include_screenshot: true });
  const obs = o.structuredContent as { package: string; nodes: unknown[]; screenshot: string };
  expect(obs.package).toBe('com.android.settings');
  expect(obs.nodes.length).toBeGreaterThan(0);
  const shot = o.content.find((x) => x.type === 'image') as { data: string; mimeType: string };
  expect(shot.mimeType).toBe('image/png');
  const full = Buffer.from(shot.data, 'base64');
  expect(`sha256:${createHash('sha256').update(full).digest('hex')}`).toBe(obs.screenshot);
  expect(PNG.sync.read(full).width).toBe(1080);
  // …and none without it.
  const plain = await call(c, 'ui_observe', { space_id: space.space_id });
  expect(plain.content.filter((x) => x.type === 'image')).toHaveLength(0);
});

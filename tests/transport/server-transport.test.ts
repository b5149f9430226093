import { test, expect } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { startMcpHttpHost, type McpHttpHost } from '../../device-runtime/mcp-http/host.js';

/**
 * The host's server transport (device-runtime/mcp-http/server-transport.ts) on loopback, read at
 * the HTTP level: a quick answer is one JSON body; a notification before the answer, or an
 * answer slower than a second, makes it an SSE stream; the SDK's stock client reads both; bad
 * requests get the SDK transport's statuses and JSON-RPC codes.
 */
let host: McpHttpHost;

test.beforeAll(async () => {
  host = await startMcpHttpHost(
    { noAuth: true },
    {
      name: 'transport test',
      newServer: () => {
        const server = new McpServer({ name: 'transport-test', version: '1.0.0' });
        server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
          content: [{ type: 'text', text: String(a + b) }],
        }));
        server.registerTool('progress', {}, async (extra) => {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: extra._meta?.progressToken ?? 'p', progress: 1, total: 2 },
          });
          return { content: [{ type: 'text', text: 'done' }] };
        });
        server.registerTool('slow', {}, async () => {
          await new Promise((r) => setTimeout(r, 1300));
          return { content: [{ type: 'text', text: 'late' }] };
        });
        return server.server;
      },
    },
  );
});

test.afterAll(async () => host.close());

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function session(): Promise<string> {
  const res = await fetch(host.url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  expect(res.status).toBe(200);
  const sid = res.headers.get('mcp-session-id')!;
  expect(sid).toBeTruthy();
  await res.text();
  const ack = await fetch(host.url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': sid },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(ack.status).toBe(202);
  return sid;
}

const call = (sid: string, id: number, name: string, args: object = {}, headers: Record<string, string> = {}) =>
  fetch(host.url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': sid, ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args, _meta: { progressToken: `t${id}` } },
    }),
  });

test('a quick answer is one JSON body with its length; a batch answers as an array', async () => {
  const sid = await session();
  const res = await call(sid, 1, 'add', { a: 2, b: 3 });
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
  expect(res.headers.get('mcp-session-id')).toBe(sid);
  expect(await res.json()).toMatchObject({ id: 1, result: { content: [{ text: '5' }] } });
  const batch = await fetch(host.url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': sid },
    body: JSON.stringify(
      [1, 2].map((n) => ({
        jsonrpc: '2.0',
        id: 10 + n,
        method: 'tools/call',
        params: { name: 'add', arguments: { a: n, b: n } },
      })),
    ),
  });
  const answers = (await batch.json()) as Array<{ id: number; result: { content: Array<{ text: string }> } }>;
  expect(answers.map((a) => [a.id, a.result.content[0]!.text]).sort()).toEqual([
    [11, '2'],
    [12, '4'],
  ]);
});

test('a notification before the answer, or a slow answer, turns the answer into an SSE stream', async () => {
  const sid = await session();
  const progress = await call(sid, 2, 'progress');
  expect(progress.headers.get('content-type')).toBe('text/event-stream');
  const events = (await progress.text())
    .split('\n\n')
    .filter(Boolean)
    .map((e) => JSON.parse(e.split('data: ')[1]!));
  expect(events.map((e) => e.method ?? e.id)).toEqual(['notifications/progress', 2]);
  const slow = await call(sid, 3, 'slow');
  expect(slow.headers.get('content-type')).toBe('text/event-stream');
  expect(await slow.text()).toContain('"late"');
});

test("the SDK's stock client reads both forms, progress included", async () => {
  const client = new Client({ name: 'stock', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(host.url)));
  const seen: number[] = [];
  expect(await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).toMatchObject({ content: [{ text: '2' }] });
  expect(
    await client.callTool({ name: 'progress', arguments: {} }, undefined, { onprogress: (p) => seen.push(p.progress) }),
  ).toMatchObject({ content: [{ text: 'done' }] });
  expect(seen).toEqual([1]);
  await client.close();
});

test("bad requests get the SDK transport's statuses and codes; DELETE ends the session", async () => {
  const sid = await session();
  const error = async (res: Response) => ({
    status: res.status,
    code: ((await res.json()) as { error: { code: number } }).error.code,
  });
  expect(await error(await call(sid, 4, 'add', {}, { accept: 'application/json' }))).toEqual({
    status: 406,
    code: -32000,
  });
  expect(await error(await call(sid, 5, 'add', {}, { 'content-type': 'text/plain' }))).toEqual({
    status: 415,
    code: -32000,
  });
  expect(await error(await call(sid, 6, 'add', {}, { 'mcp-protocol-version': '1999-01-01' }))).toEqual({
    status: 400,
    code: -32000,
  });
  const notRpc = await fetch(host.url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': sid },
    body: JSON.stringify({ hello: 'world' }),
  });
  expect(await error(notRpc)).toEqual({ status: 400, code: -32700 });
  const again = await fetch(host.url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': sid },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  expect(await error(again)).toEqual({ status: 400, code: -32600 });
  const del = await fetch(host.url, { method: 'DELETE', headers: { 'mcp-session-id': sid } });
  expect(del.status).toBe(200);
  expect((await call(sid, 8, 'add', { a: 1, b: 1 })).status).toBe(404);
});

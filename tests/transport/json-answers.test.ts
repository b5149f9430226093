import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect } from '@playwright/test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { McpToolTransport } from '../../device-runtime/client/index.js';

/**
 * nestwright's Streamable HTTP client against another server that answers with JSON, not SSE:
 * the SDK's own server transport in JSON mode,
 * stateful, on loopback. The calls, the session header and ending the session must all work.
 */
let http: HttpServer;
let url: string;
const deleted: string[] = [];

test.beforeAll(async () => {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      if (req.method === 'DELETE') deleted.push(sid);
      return void (await transports.get(sid)!.handleRequest(req, res, body));
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => `json-${transports.size + 1}`,
      enableJsonResponse: true,
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    const server = new McpServer({ name: 'json-answers', version: '1.0.0' });
    server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    }));
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
  // A listener's promise is not awaited by the server: a failure ends the response instead of going unseen.
  http = createServer((req, res) => void handle(req, res).catch((e: unknown) => res.destroy(e as Error)));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

test.afterAll(async () => {
  http.closeAllConnections();
  await new Promise((r) => http.close(r));
});

test('calls answered as JSON, in a session, ended with DELETE', async () => {
  const t = await McpToolTransport.http(url, '');
  expect(t.sessionId).toBe('json-1');
  const answers = await Promise.all([1, 2, 3].map((n) => t.callTool('add', { a: n, b: 10 })));
  expect(answers.map((a) => (a.structuredContent as { sum: number }).sum)).toEqual([11, 12, 13]);
  const bad = await t.callTool('add', { a: 'x', b: 1 });
  expect(bad.isError).toBe(true);
  await t.close();
  expect(deleted).toEqual(['json-1']);
});

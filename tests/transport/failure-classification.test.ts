import { test, expect } from '@playwright/test';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  classifyTransportFailure,
  ConnectionLostError,
  DeviceClient,
  DeviceError,
  McpToolTransport,
} from '../../device-runtime/client/index.js';
import { connectDevice } from '../../device-runtime/providers/index.js';
import { startSimServer, type RunningSim } from '../../device-runtime/sim/server.js';

/**
 * Transport failures are classified by type and code (the SDK's error classes, Node's and
 * undici's `code` on the cause chain, an abort's DOMException name), never by message text:
 * each case here is made by a real server on loopback, except the table, which pins the rule
 * itself — a message that merely *says* ECONNREFUSED is not a disconnect.
 */

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`)),
  );
const shut = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
const failure = <T>(p: Promise<T>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as DeviceError,
  );

test('the classification table: types and codes decide, message text does not', () => {
  const kind = (e: unknown) => classifyTransportFailure(e).kind;
  const withCause = (cause: unknown) => new TypeError('fetch failed', { cause });
  const sysError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code });
  expect(kind(new StreamableHTTPError(401, 'x'))).toBe('unauthorized');
  expect(kind(new StreamableHTTPError(403, 'x'))).toBe('unauthorized');
  expect(kind(new UnauthorizedError())).toBe('unauthorized');
  expect(kind(new StreamableHTTPError(404, 'x'))).toBe('session-gone');
  expect(kind(new StreamableHTTPError(500, 'x'))).toBe('protocol');
  expect(kind(new McpError(ErrorCode.ConnectionClosed, 'x'))).toBe('disconnected');
  expect(kind(new McpError(ErrorCode.RequestTimeout, 'x'))).toBe('disconnected');
  expect(kind(new McpError(ErrorCode.InvalidParams, 'x'))).toBe('protocol');
  expect(kind(withCause(sysError('ECONNREFUSED')))).toBe('disconnected');
  expect(kind(withCause(new AggregateError([sysError('ECONNREFUSED'), sysError('ECONNREFUSED')], 'x')))).toBe(
    'disconnected',
  );
  expect(
    kind(
      new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }),
    ),
  ).toBe('disconnected');
  expect(kind(new DOMException('This operation was aborted', 'AbortError'))).toBe('disconnected');
  expect(kind(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))).toBe('disconnected');
  expect(kind(new ConnectionLostError('gone'))).toBe('disconnected');
  // Words are not evidence.
  expect(kind(new Error('fetch failed: ECONNREFUSED, Connection closed, timeout, 401 Unauthorized'))).toBe('protocol');
  expect(kind('ECONNRESET')).toBe('protocol');
});

test.describe('against real servers on loopback', () => {
  let sim: RunningSim;
  test.beforeAll(async () => {
    sim = await startSimServer({});
  });
  test.afterAll(async () => {
    await sim?.close();
  });

  test("a wrong token: connectDevice fails with UNAUTHORIZED (the SDK's StreamableHTTPError 401)", async () => {
    const e = await failure(connectDevice({ provider: 'nestspace', url: sim.url, token: 'not-the-token' }));
    expect(e).toBeInstanceOf(DeviceError);
    expect(e.code).toBe('UNAUTHORIZED');
    expect(e.message).toMatch(/^connectDevice: UNAUTHORIZED: cannot connect to/);
    expect(e.hint).toContain('use.deviceOptions.token');
    expect((e.cause as StreamableHTTPError).code).toBe(401);
  });

  test('a closed port: connectDevice fails with DEVICE_DISCONNECTED (ECONNREFUSED on the cause)', async () => {
    const server = createServer();
    const url = await listen(server);
    await shut(server);
    const e = await failure(connectDevice({ provider: 'nestspace', url, token: 't' }));
    expect(e.code).toBe('DEVICE_DISCONNECTED');
    expect(classifyTransportFailure(e.cause).evidence).toBe('ECONNREFUSED');
  });

  /** A proxy in front of the simulator that does `mode` to tools/call requests and passes the rest. */
  async function proxy(mode: {
    current: 'pass' | 'drop-before-answer' | 'drop-mid-answer' | 'end-without-answer' | '401' | '404';
  }) {
    const target = new URL(sim.url);
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const isCall = body.length > 0 && (JSON.parse(body.toString()) as { method?: string }).method === 'tools/call';
        if (isCall && mode.current === 'drop-before-answer') return void req.socket.destroy();
        if (isCall && mode.current === 'drop-mid-answer') {
          res.writeHead(200, {
            'content-type': 'text/event-stream',
            'mcp-session-id': String(req.headers['mcp-session-id']),
          });
          res.write(': the answer is coming\n\n');
          setTimeout(() => req.socket.destroy(), 50);
          return;
        }
        if (isCall && mode.current === 'end-without-answer') {
          // A well-formed stream that ends with no answer in it (a runtime that lost the call).
          res.writeHead(200, {
            'content-type': 'text/event-stream',
            'mcp-session-id': String(req.headers['mcp-session-id']),
          });
          return void res.end(': the answer is coming\n\n');
        }
        if (isCall && (mode.current === '401' || mode.current === '404')) {
          res.writeHead(Number(mode.current), { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'no' }, id: null }));
        }
        const up = request(
          {
            host: target.hostname,
            port: target.port,
            path: req.url,
            method: req.method,
            headers: { ...req.headers, host: target.host },
            agent: false,
          },
          (answer) => {
            res.writeHead(answer.statusCode!, answer.headers);
            answer.pipe(res);
          },
        );
        up.on('error', () => res.destroy());
        up.end(body);
      });
    });
    return { server, url: await listen(server) };
  }

  for (const [mode, code, evidence] of [
    ['drop-before-answer', 'DEVICE_DISCONNECTED', 'ECONNRESET'],
    ['drop-mid-answer', 'DEVICE_DISCONNECTED', 'ECONNRESET'],
    ['end-without-answer', 'DEVICE_DISCONNECTED', 'connection lost'],
    ['404', 'DEVICE_DISCONNECTED', 'HTTP 404'],
    ['401', 'UNAUTHORIZED', 'HTTP 401'],
  ] as const) {
    test(`a call answered by "${mode}" fails with ${code}`, async () => {
      const state = { current: 'pass' as typeof mode | 'pass' };
      const { server, url } = await proxy(state);
      const client = new DeviceClient(await McpToolTransport.http(url, sim.token));
      try {
        expect((await client.call('space_list', {})).spaces).toBeDefined();
        state.current = mode;
        const e = await failure(client.call('space_list', {}));
        expect(e).toBeInstanceOf(DeviceError);
        expect(e.code).toBe(code);
        expect(e.message).toMatch(new RegExp(`^space_list: ${code}: `));
        expect(classifyTransportFailure(e.cause).evidence).toBe(evidence);
      } finally {
        await client.close();
        await shut(server);
      }
    });
  }

  test('a call after the connection was closed fails with DEVICE_DISCONNECTED, not the SDK\'s untyped "Not connected"', async () => {
    const client = new DeviceClient(await McpToolTransport.http(sim.url, sim.token));
    await client.close();
    const e = await failure(client.call('space_list', {}));
    expect(e.code).toBe('DEVICE_DISCONNECTED');
    expect(e.cause).toBeInstanceOf(ConnectionLostError);
  });
});

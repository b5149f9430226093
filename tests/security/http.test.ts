import { test, expect } from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startMcpHttpHost } from '../../device-runtime/mcp-http/host.js';
import { startSimServer } from '../../device-runtime/sim/server.js';
import { createAgentServer } from '../../cli/mcp/server.js';
import { AgentState } from '../../cli/mcp/state.js';
import { bearer, raw, type RawResponse } from '../transport/helpers.js';
import { idleSockets, rawExchange, streamBody, tally } from './http-probes.js';

/**
 * The doors of the MCP HTTP host (device-runtime/mcp-http/host.ts: `nestwright sim`,
 * `nestwright mcp --http`, the companion's worker endpoint), attacked for real on 127.0.0.1:
 * a sandboxed frame's `Origin: null`, idle sockets that would starve the token holder, and
 * bodies over the limit that must get their 413 rather than a reset.
 */

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '0' } },
};

test('Origin: null (a sandboxed frame) is refused on the preflight and the POST; no allow-origin: null is sent', async () => {
  // `nestwright mcp --http --no-auth` in process: the agent's tools, write_spec among them.
  const root = await mkdtemp(path.join(tmpdir(), 'nw-origin-'));
  const state = new AgentState({ root });
  const host = await startMcpHttpHost(
    { noAuth: true },
    { name: 'nestwright mcp', newServer: (sessionId) => createAgentServer(state, sessionId) },
  );
  const seen: RawResponse[] = [];
  const send = async (opts: Parameters<typeof raw>[1]) => {
    const r = await raw(host.url, opts);
    seen.push(r);
    return r;
  };
  try {
    // What a page in <iframe sandbox="allow-scripts"> does: a preflight, then the POSTs.
    const preflight = await send({
      method: 'OPTIONS',
      headers: {
        origin: 'null',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
      body: '',
    });
    expect(preflight.status).toBe(403);
    const init = await send({ headers: { origin: 'null' }, body: JSON.stringify(INIT) });
    expect(init.status).toBe(403);
    expect(init.body).toContain('Origin null');
    const sid = init.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      await send({
        headers: { origin: 'null', 'mcp-session-id': sid },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'write_spec', arguments: { path: 'specs/pwned.spec.ts', content: '// from a web page\n' } },
        }),
      });
    }
    expect(existsSync(path.join(root, 'specs/pwned.spec.ts'))).toBe(false);
    // Other origins that are not ours: the preflight is refused too, never answered with CORS.
    for (const origin of ['http://evil.example.com', 'file://', 'data:text/html,x']) {
      const r = await send({
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
        body: '',
      });
      expect(r.status, origin).toBe(403);
    }
    for (const r of seen) expect(r.headers['access-control-allow-origin']).toBeUndefined();
    // The MCP Inspector's origin still gets its preflight and its answer.
    const inspector = await send({
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
      body: '',
    });
    expect(inspector.status).toBe(204);
    expect(inspector.headers['access-control-allow-origin']).toBe('http://localhost:6274');
    expect((await send({ headers: { origin: 'http://localhost:6274' } })).status).toBe(200);
  } finally {
    await host.close();
    await rm(root, { recursive: true, force: true });
  }
});

test('130 idle sockets without a token neither lock the token holder out nor outlive the header deadline', async () => {
  const sim = await startSimServer({ headersTimeoutMs: 1_000 });
  const idle = await idleSockets(sim.url, 130);
  try {
    // The default budget is 128 connections: these 130 sent nothing, so they are not the holder's.
    const holder = await raw(sim.url, { headers: bearer(sim) });
    expect(holder.status).toBe(200);
    await expect.poll(() => idle.filter((s) => !s.closed).length, { timeout: 20_000 }).toBe(0);
    // And once they are gone, the token holder is served as before.
    expect((await raw(sim.url, { headers: bearer(sim) })).status).toBe(200);
  } finally {
    for (const s of idle) s.socket.destroy();
    await sim.close();
  }
});

test('a body sent in full before the answer is read gets its 413 every time, not a reset (limit lowered to 256 KiB)', async () => {
  const sim = await startSimServer({ maxBodyBytes: 256 * 1024 });
  try {
    const declared: string[] = [];
    const chunked: string[] = [];
    for (let i = 0; i < 30; i++) declared.push(await streamBody(sim.url, bearer(sim), 4 * 1024 * 1024));
    for (let i = 0; i < 30; i++)
      chunked.push(await streamBody(sim.url, bearer(sim), 4 * 1024 * 1024, { chunked: true }));
    expect({ declared: tally(declared), chunked: tally(chunked) }).toEqual({
      declared: { '413': 30 },
      chunked: { '413': 30 },
    });
    // The server is still there for a request within the limit.
    expect((await raw(sim.url, { headers: bearer(sim) })).status).toBe(200);
  } finally {
    await sim.close();
  }
});

test('a body over the real 40 MB limit, sent in full before the answer is read, gets its 413 every time', async () => {
  const sim = await startSimServer();
  try {
    const outcomes: string[] = [];
    for (let i = 0; i < 30; i++) outcomes.push(await streamBody(sim.url, bearer(sim), 41 * 1024 * 1024));
    expect(tally(outcomes)).toEqual({ '413': 30 });
  } finally {
    await sim.close();
  }
});

test('Expect: 100-continue is answered 413 (or 401) without a 100 when the body would be refused', async () => {
  const sim = await startSimServer();
  try {
    const { host } = new URL(sim.url);
    const head = (headers: string) =>
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nExpect: 100-continue\r\n${headers}\r\n`;
    const oversize = await rawExchange(
      sim.url,
      head(`Authorization: Bearer ${sim.token}\r\nContent-Length: ${40 * 1024 * 1024 + 1}\r\n`),
    );
    expect(oversize).toMatch(/^HTTP\/1\.1 413 /);
    expect(oversize).not.toContain('100 Continue');
    const stranger = await rawExchange(sim.url, head(`Content-Length: 1000\r\n`));
    expect(stranger).toMatch(/^HTTP\/1\.1 401 /);
    expect(stranger).not.toContain('100 Continue');

    // Within the limit and with the token, the client is told to go on, and is answered.
    const body = JSON.stringify(INIT);
    const u = new URL(sim.url);
    const result = await new Promise<{ continued: boolean; status: number }>((resolve, reject) => {
      let continued = false;
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: '/mcp',
          method: 'POST',
          agent: false,
          headers: {
            ...bearer(sim),
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'content-length': String(Buffer.byteLength(body)),
            expect: '100-continue',
          },
        },
        (res) => {
          res.resume();
          resolve({ continued, status: res.statusCode! });
        },
      );
      req.on('continue', () => {
        continued = true;
        req.end(body);
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(result).toEqual({ continued: true, status: 200 });
  } finally {
    await sim.close();
  }
});

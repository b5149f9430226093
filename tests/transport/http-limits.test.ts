import { test, expect } from '@playwright/test';
import { request } from 'node:http';
import { startSimServer } from '../../device-runtime/sim/server.js';
import { bearer, connect, raw } from './helpers.js';

test('401 without or with a wrong token, before the body is read', async () => {
  const sim = await startSimServer();
  try {
    expect((await raw(sim.url)).status).toBe(401);
    const wrong = await raw(sim.url, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer');
    // Content-Length promises a body that never comes: the answer must not wait for it.
    expect((await raw(sim.url, { headers: { 'content-length': '1000' }, body: null })).status).toBe(401);
    expect((await raw(sim.url, { headers: bearer(sim) })).status).toBe(200);
  } finally {
    await sim.close();
  }
});

test('403 for a Host or Origin outside the allow-list (DNS rebinding); loopback names and --allow-host pass', async () => {
  const sim = await startSimServer({ allowHosts: ['devbox.local'] });
  try {
    const port = new URL(sim.url).port;
    expect((await raw(sim.url, { headers: { ...bearer(sim), host: `evil.example.com:${port}` } })).status).toBe(403);
    expect((await raw(sim.url, { headers: { ...bearer(sim), origin: 'http://evil.example.com' } })).status).toBe(403);
    const ok = await raw(sim.url, {
      headers: { ...bearer(sim), host: `localhost:${port}`, origin: 'http://localhost:6274' },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('http://localhost:6274');
    expect((await raw(sim.url, { headers: { ...bearer(sim), host: `[::1]:${port}` } })).status).toBe(200);
    expect((await raw(sim.url, { headers: { ...bearer(sim), host: `devbox.local:${port}` } })).status).toBe(200);
    // CORS preflight for the MCP Inspector: no token needed, allowed origins only.
    const pre = await raw(sim.url, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:6274' }, body: '' });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-headers']).toContain('mcp-session-id');
    expect(
      (await raw(sim.url, { method: 'OPTIONS', headers: { origin: 'http://evil.example.com' }, body: '' })).status,
    ).toBe(403);
    // The check comes before auth: a rebinding page learns nothing about the token.
    expect((await raw(sim.url, { headers: { host: 'evil.example.com' } })).status).toBe(403);
  } finally {
    await sim.close();
  }
});

test('404 for another path and for an unknown session', async () => {
  const sim = await startSimServer();
  try {
    expect((await raw(sim.url, { path: '/other', headers: bearer(sim) })).status).toBe(404);
    const unknown = await raw(sim.url, { headers: { ...bearer(sim), 'mcp-session-id': 'no-such-session' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('initialize a new one');
  } finally {
    await sim.close();
  }
});

test('413 from Content-Length before reading (40 MB limit) and while streaming a body without one', async () => {
  const sim = await startSimServer();
  try {
    const big = await raw(sim.url, {
      headers: { ...bearer(sim), 'content-length': String(40 * 1024 * 1024 + 1) },
      body: null,
    });
    expect(big.status).toBe(413);
  } finally {
    await sim.close();
  }
  const small = await startSimServer({ maxBodyBytes: 64 * 1024 });
  try {
    const u = new URL(small.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: '/mcp',
          method: 'POST',
          headers: { ...bearer(small), 'transfer-encoding': 'chunked', 'content-type': 'application/json' },
          agent: false,
        },
        (res) => {
          resolve(res.statusCode!);
          req.destroy();
        },
      );
      req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 1024 * 1024 && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
      };
      pump();
    });
    expect(status).toBe(413);
  } finally {
    await small.close();
  }
});

test('405 for GET: the runtime offers no standalone SSE stream', async () => {
  const sim = await startSimServer();
  try {
    const r = await raw(sim.url, { method: 'GET', headers: bearer(sim), body: '' });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('POST, DELETE');
  } finally {
    await sim.close();
  }
});

test('431 for headers over 64 KB', async () => {
  const sim = await startSimServer();
  try {
    expect((await raw(sim.url, { headers: { ...bearer(sim), 'x-big': 'a'.repeat(70 * 1024) } })).status).toBe(431);
  } finally {
    await sim.close();
  }
});

test('429 beyond the concurrent request limit, with Retry-After', async () => {
  const sim = await startSimServer({ maxConcurrent: 2 });
  const held: Array<ReturnType<typeof request>> = [];
  try {
    const u = new URL(sim.url);
    // Two authorized requests whose bodies never arrive stay in flight.
    for (let i = 0; i < 2; i++) {
      const req = request({
        host: u.hostname,
        port: u.port,
        path: '/mcp',
        method: 'POST',
        headers: { ...bearer(sim), 'content-length': '100' },
        agent: false,
      });
      req.on('error', () => {});
      req.flushHeaders();
      held.push(req);
    }
    await expect
      .poll(async () => (await raw(sim.url, { headers: bearer(sim) }).catch(() => ({ status: 0 }))).status)
      .toBe(429);
    const r = await raw(sim.url, { headers: bearer(sim) });
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('1');
  } finally {
    for (const h of held) h.destroy();
    await sim.close();
  }
});

test('429 beyond the open connection limit', async () => {
  const sim = await startSimServer({ maxConcurrent: 2, maxConnections: 2 });
  const held: Array<ReturnType<typeof request>> = [];
  try {
    const u = new URL(sim.url);
    for (let i = 0; i < 2; i++) {
      const req = request({
        host: u.hostname,
        port: u.port,
        path: '/mcp',
        method: 'POST',
        headers: { ...bearer(sim), 'content-length': '100' },
        agent: false,
      });
      req.on('error', () => {});
      req.flushHeaders();
      held.push(req);
    }
    await expect
      .poll(async () => (await raw(sim.url, { headers: bearer(sim) }).catch(() => ({ status: 0 }))).status)
      .toBe(429);
  } finally {
    for (const h of held) h.destroy();
    await sim.close();
  }
});

test('an idle session is reclaimed and its lease released; DELETE releases at once', async () => {
  const sim = await startSimServer({ sessionIdleMs: 200 });
  try {
    const idle = await connect(sim);
    const { space_id } = await idle.call('space_create', {});
    await idle.call('session_acquire', { space_id });
    expect(sim.runtime.leases.exclusiveHolder(space_id)?.session_id).toBe(idle.sessionId);
    await expect.poll(() => sim.sessionCount(), { timeout: 10_000 }).toBe(0);
    expect(sim.runtime.leases.exclusiveHolder(space_id)).toBeUndefined();
    expect(sim.runtime.audit.query({ space_id, kind: 'lease', limit: 10 }).entries.map((e) => e.tool)).toEqual([
      'lease.acquire',
      'lease.session_end',
    ]);
    const gone = await idle.call('space_list', {}).catch((e: unknown) => e);
    expect(gone).toMatchObject({ code: 'DEVICE_DISCONNECTED' });
    expect((gone as Error).message).toContain('no longer knows this session');

    const other = await connect(sim);
    await other.call('session_acquire', { space_id });
    await other.close();
    expect(sim.runtime.leases.exclusiveHolder(space_id)).toBeUndefined();
  } finally {
    await sim.close();
  }
});

test('LAN mode needs an explicit token and refuses --no-auth', async () => {
  await expect(startSimServer({ lan: true })).rejects.toThrow(/--lan needs an explicit token/);
  await expect(startSimServer({ lan: true, token: 't'.repeat(32), noAuth: true })).rejects.toThrow(/--no-auth/);
});

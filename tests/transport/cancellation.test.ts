/**
 * Waiting tools stop when their caller cancels (MCP `notifications/cancelled`, sent by the SDK's
 * client when its AbortSignal fires) or disconnects (the HTTP connection of the call drops), over
 * real HTTP, and free what they held: no lease handed to a caller that left, no wait left polling.
 * The runtime's `call` is wrapped to record how each call ended; the guards are hang guards.
 */
import { test, expect } from '@playwright/test';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startSimServer, type RunningSim } from '../../device-runtime/sim/server.js';
import { NOTES, apk } from '../runtime/helpers.js';

type Ended = { name: string; code: string | null };

function spy(sim: RunningSim): { ended: Ended[]; until: (name: string, count?: number) => Promise<Ended> } {
  const ended: Ended[] = [];
  const waiters: Array<() => void> = [];
  const rt = sim.runtime;
  const original = rt.call.bind(rt);
  rt.call = (async (name: string, args: unknown, ctx: Parameters<typeof original>[2]) => {
    const out = await original(name, args, ctx);
    ended.push({ name, code: out.ok ? null : out.error.code });
    for (const w of waiters.splice(0)) w();
    return out;
  }) as typeof rt.call;
  const until = async (name: string, count = 1): Promise<Ended> => {
    const guard = Date.now() + 30_000; // hang guard, not a speed assertion
    for (;;) {
      const hits = ended.filter((e) => e.name === name);
      if (hits.length >= count) return hits[count - 1]!;
      if (Date.now() > guard) throw new Error(`${name} never ended: the wait was not stopped`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 200);
      });
    }
  };
  return { ended, until };
}

async function mcpClient(sim: RunningSim): Promise<Client> {
  const client = new Client({ name: 'cancel-test', version: '0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(sim.url), {
      requestInit: { headers: { authorization: `Bearer ${sim.token}` } },
    }),
  );
  return client;
}
const call = (c: Client, name: string, args: Record<string, unknown>, signal?: AbortSignal) =>
  c.callTool({ name, arguments: args }, undefined, { signal, timeout: 3_600_000 });
const json = (r: Awaited<ReturnType<typeof call>>) =>
  JSON.parse((r.content as Array<{ text: string }>)[0]!.text) as Record<string, unknown>;

/** Posts one tools/call on an existing session and drops the connection once the server has it. */
function postThenDisconnect(
  sim: RunningSim,
  sessionId: string,
  name: string,
  args: Record<string, unknown>,
): Promise<void> {
  const u = new URL(sim.url);
  return new Promise((resolve) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${sim.token}`,
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-06-18',
        },
      },
      (res) => {
        // The response stream is open (SSE): the call is running. Hang up.
        res.once('data', () => undefined);
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 300);
      },
    );
    req.on('error', () => resolve());
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name, arguments: args } }));
  });
}

test.describe('waiting tools stop on cancel and on disconnect, over HTTP', () => {
  let sim: RunningSim;
  test.beforeEach(async () => {
    sim = await startSimServer({ port: 0 });
  });
  test.afterEach(async () => {
    await sim.close();
  });

  async function spaceWithApp(c: Client): Promise<string> {
    const { space_id } = json(await call(c, 'space_create', {})) as { space_id: string };
    await call(c, 'session_acquire', { space_id });
    await call(c, 'space_install_apk', { space_id, apk_paths: [apk('notes.apk')] });
    await call(c, 'space_launch', { space_id, package: NOTES });
    return space_id;
  }

  test('ui_wait_for: cancelled by the client SDK (notifications/cancelled) ends with CANCELLED', async () => {
    const { until } = spy(sim);
    const c = await mcpClient(sim);
    const space_id = await spaceWithApp(c);
    const ac = new AbortController();
    const pending = call(c, 'ui_wait_for', { space_id, text: 'never shown', timeout_ms: 600_000 }, ac.signal).catch(
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 500));
    ac.abort('the test gave up');
    expect(await pending).toBeInstanceOf(Error);
    expect(await until('ui_wait_for')).toEqual({ name: 'ui_wait_for', code: 'CANCELLED' });
    await c.close();
  });

  test('ui_wait_for: the caller disconnecting stops the wait', async () => {
    const { until } = spy(sim);
    const c = await mcpClient(sim);
    const space_id = await spaceWithApp(c);
    const sid = (c.transport as StreamableHTTPClientTransport).sessionId!;
    await postThenDisconnect(sim, sid, 'ui_wait_for', { space_id, text: 'never shown', timeout_ms: 600_000 });
    expect(await until('ui_wait_for')).toEqual({ name: 'ui_wait_for', code: 'CANCELLED' });
    // The session itself lives on and answers.
    expect((await call(c, 'space_status', { space_id })).isError).toBeFalsy();
    await c.close();
  });

  test('session_acquire with a wait: cancel or disconnect leaves the queue, and the lease goes to the next waiter', async () => {
    const { until, ended } = spy(sim);
    const holder = await mcpClient(sim);
    const { space_id } = json(await call(holder, 'space_create', {})) as { space_id: string };
    await call(holder, 'session_acquire', { space_id });
    const quitter = await mcpClient(sim);
    const dropper = await mcpClient(sim);
    const patient = await mcpClient(sim);

    const ac = new AbortController();
    const cancelled = call(quitter, 'session_acquire', { space_id, wait_ms: 600_000 }, ac.signal).catch(
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 300));
    await postThenDisconnect(sim, (dropper.transport as StreamableHTTPClientTransport).sessionId!, 'session_acquire', {
      space_id,
      wait_ms: 600_000,
    });
    const waiting = call(patient, 'session_acquire', { space_id, wait_ms: 600_000 });
    await new Promise((r) => setTimeout(r, 300));
    ac.abort();
    await cancelled;
    await until('session_acquire', 3); // the holder's own, then the two that gave up
    expect(ended.filter((e) => e.name === 'session_acquire' && e.code === 'CANCELLED')).toHaveLength(2);
    expect(sim.runtime.leases.waiting(space_id)).toBe(1); // only the patient one

    await call(holder, 'session_release', { space_id });
    const got = json(await waiting);
    expect(got).toMatchObject({ space_id, mode: 'EXCLUSIVE' });
    for (const c of [holder, quitter, dropper, patient]) await c.close();
  });

  test('approval_wait: cancelled, it returns early instead of holding the call for its timeout', async () => {
    const { until } = spy(sim);
    const c = await mcpClient(sim);
    const { space_id } = json(await call(c, 'space_create', {})) as { space_id: string };
    const { approval_id } = json(
      await call(c, 'approval_request', { space_id, tool: 'space_uninstall', reason: 'cleanup' }),
    ) as { approval_id: string };
    const sid = (c.transport as StreamableHTTPClientTransport).sessionId!;
    await postThenDisconnect(sim, sid, 'approval_wait', { approval_id, timeout_ms: 600_000 });
    expect((await until('approval_wait')).name).toBe('approval_wait');
    await c.close();
  });
});

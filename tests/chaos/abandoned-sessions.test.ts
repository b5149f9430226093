/**
 * Chaos: a client opens 1,000 MCP sessions over HTTP (initialize; every tenth also sends
 * initialized and calls a tool) and never closes one. The simulator runs in a process of its own
 * (sim-with-heap.ts) with sessions reclaimed after 8 s idle. Checked: once they are reclaimed the
 * session count is back to where it was, and the heap after full GCs is within ±10% of the
 * heap before the flood (measured the same way, after a warm-up that loads what a first session
 * loads); at the peak the heap is well above that, so the measure does see sessions. The figures
 * go to the annotation `memory`. Heap after GC, not RSS: V8 keeps pages it freed, so RSS does not
 * come down on cue (it is reported, not checked).
 */
import { test, expect } from '@playwright/test';
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../runtime/helpers.js';

/** NESTWRIGHT_ABANDONED_SESSIONS sets how many (default 1,000; the soak runs more). */
const SESSIONS = Number(process.env.NESTWRIGHT_ABANDONED_SESSIONS ?? 1000);
test.describe.configure({ timeout: 120_000 + SESSIONS * 150 });
const IDLE_MS = 8_000;

interface Measure {
  heapUsed: number;
  rss: number;
  external: number;
  sessions: number;
}

function ask(child: ChildProcess): Promise<Measure> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as Measure));
    child.send('measure');
  });
}

/** The median of three measures: one GC can land while a timer still holds something. */
async function measure(child: ChildProcess): Promise<Measure> {
  const m = [await ask(child), await ask(child), await ask(child)].sort((a, b) => a.heapUsed - b.heapUsed);
  return m[1]!;
}

async function untilNoSessions(child: ChildProcess, boundMs: number): Promise<Measure> {
  const end = Date.now() + boundMs;
  for (;;) {
    const m = await ask(child);
    if (m.sessions === 0 || Date.now() > end) return m;
    await new Promise((r) => setTimeout(r, 500));
  }
}

const MB = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

test(`${SESSIONS} abandoned MCP sessions: reclaimed when idle, session count and heap back to baseline (±10%)`, async () => {
  const child = fork(path.join(ROOT, 'tests/chaos/sim-with-heap.ts'), [String(IDLE_MS)], {
    cwd: ROOT,
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const { url, token } = await new Promise<{ url: string; token: string }>((resolve) =>
      child.once('message', (m) => resolve(m as never)),
    );
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    };
    const post = async (body: unknown, sid?: string): Promise<Response> => {
      const res = await fetch(url, {
        method: 'POST',
        headers: sid ? { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' } : headers,
        body: JSON.stringify(body),
      });
      await res.text();
      expect(res.status, `POST ${JSON.stringify(body).slice(0, 60)}`).toBeLessThan(300);
      return res;
    };
    /** One abandoned session: opened, used, never deleted. */
    const open = async (i: number) => {
      const init = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: `abandoner-${i}`, version: '0' },
        },
      });
      const sid = init.headers.get('mcp-session-id')!;
      expect(sid).toBeTruthy();
      // Every tenth goes on as a client does before it wanders off; the rest stop at initialize.
      if (i % 10 === 0) {
        await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sid);
        await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'space_list', arguments: {} } }, sid);
      }
    };
    const flood = async (n: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < n) await open(next++);
        }),
      );
    };

    // Warm-up: what the first sessions load (modules, compiled code) is not a leak.
    await flood(40);
    expect((await untilNoSessions(child, 60_000)).sessions).toBe(0);
    const base = await measure(child);

    const t0 = Date.now();
    await flood(SESSIONS);
    const openedInMs = Date.now() - t0;
    const peak = await measure(child);
    const after = await untilNoSessions(child, IDLE_MS * 4 + 60_000);
    expect(after.sessions).toBe(0);
    const end = await measure(child);

    const ratio = end.heapUsed / base.heapUsed;
    const line = `${SESSIONS} sessions opened in ${openedInMs} ms; heap after GC: before ${MB(base.heapUsed)}, peak ${MB(peak.heapUsed)} with ${peak.sessions} open, after reclaim ${MB(end.heapUsed)} (${((ratio - 1) * 100).toFixed(1)}%); RSS ${MB(base.rss)} → ${MB(peak.rss)} → ${MB(end.rss)}`;
    test.info().annotations.push({ type: 'memory', description: line });
    console.log(`abandoned sessions: ${line}`);
    // The measure sees sessions: with most of them open at once the heap is well above baseline.
    if (peak.sessions >= SESSIONS / 2) expect(peak.heapUsed).toBeGreaterThan(base.heapUsed * 1.2);
    expect(ratio).toBeGreaterThan(0.9);
    expect(ratio).toBeLessThan(1.1);
  } finally {
    child.send('stop');
    await new Promise((r) => {
      child.once('exit', r);
      setTimeout(() => {
        child.kill('SIGKILL');
        r(null);
      }, 5_000);
    });
  }
});

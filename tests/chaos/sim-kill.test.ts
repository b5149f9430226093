/**
 * Chaos: `nestwright sim` SIGKILLed (1) while several clients have calls in flight — every call
 * fails with DEVICE_DISCONNECTED, later calls too, and a simulator restarted on the same state
 * dir has the spaces back — and (2) again and again while it is writing state.json — the file
 * always parses and a restarted simulator loads it. The time from the kill to each failure is
 * reported (annotation `notice-ms`); the bounds here are hang guards, not speed assertions.
 *
 * NESTWRIGHT_CHAOS_KILLS sets how many kill-during-write rounds (default 4; soak runs more).
 */
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeviceClient, DeviceError, McpToolTransport } from '../../device-runtime/client/index.js';
import { NOTES, apk, tempDir } from '../runtime/helpers.js';
import { spawnSim } from '../transport/spawn-sim.js';

test.describe.configure({ timeout: 240_000 });
const KILLS = Number(process.env.NESTWRIGHT_CHAOS_KILLS ?? 4);

async function client(url: string, dir: string): Promise<DeviceClient> {
  return new DeviceClient(await McpToolTransport.http(url, readFileSync(join(dir, 'token'), 'utf8').trim()));
}

test('SIGKILL with calls in flight: all fail with DEVICE_DISCONNECTED, a restarted simulator has the spaces back', async () => {
  const dir = tempDir('nw-chaos-');
  const sim = await spawnSim(['--port', '0', '--state-dir', dir]);
  const clients: DeviceClient[] = [];
  const spaces: string[] = [];
  try {
    for (let w = 0; w < 3; w++) {
      const c = await client(sim.url, dir);
      clients.push(c);
      const { space_id } = await c.call('space_create', { name: `worker-${w}` });
      await c.call('session_acquire', { space_id });
      await c.call('space_install_apk', { space_id, apk_paths: [apk('notes.apk')] });
      await c.call('space_launch', { space_id, package: NOTES });
      spaces.push(space_id);
    }
    await new Promise((r) => setTimeout(r, 300)); // past the 100 ms write coalescing: state is on disk
    // "Running tests": each worker waits on its screen.
    let killedAt = 0;
    const inFlight = clients.map((c, i) =>
      c.call('ui_wait_for', { space_id: spaces[i]!, text: 'never shown', timeout_ms: 600_000 }).then(
        () => ({ error: null as unknown, at: Date.now() }),
        (error: unknown) => ({ error, at: Date.now() }),
      ),
    );
    await new Promise((r) => setTimeout(r, 500));
    killedAt = Date.now();
    await sim.kill('SIGKILL');
    const guard = new Promise<'hung'>((r) => setTimeout(() => r('hung'), 30_000));
    const results = await Promise.race([Promise.all(inFlight), guard]);
    expect(results).not.toBe('hung');
    const notice = (results as Array<{ error: unknown; at: number }>).map((r) => r.at - killedAt);
    const line = `killed device noticed after ${notice.join(', ')} ms (max ${Math.max(...notice)})`;
    test.info().annotations.push({ type: 'notice-ms', description: line });
    console.log(`chaos: ${line}`);
    for (const r of results as Array<{ error: unknown }>) {
      expect(r.error).toBeInstanceOf(DeviceError);
      expect((r.error as DeviceError).code).toBe('DEVICE_DISCONNECTED');
      expect((r.error as DeviceError).message).toMatch(/^ui_wait_for: DEVICE_DISCONNECTED/);
    }
    // Whatever the run does next fails the same clear way, at once.
    const next = await clients[0]!.call('space_list', {}).catch((e: unknown) => e);
    expect((next as DeviceError).code).toBe('DEVICE_DISCONNECTED');

    const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as {
      version: number;
      spaces: Array<{ id?: string; name: string }>;
    };
    expect(state.version).toBe(1);
    const again = await spawnSim(['--port', '0', '--state-dir', dir]);
    try {
      const c = await client(again.url, dir);
      const listed = (await c.call('space_list', {})).spaces;
      expect(listed.map((s) => s.name).sort()).toEqual(['worker-0', 'worker-1', 'worker-2']);
      const apps = await c.call('space_list_apps', { space_id: spaces[0]! });
      expect(apps.apps.map((a) => a.package)).toContain(NOTES);
      await c.close();
    } finally {
      await again.kill('SIGKILL');
    }
  } finally {
    await sim.kill('SIGKILL');
  }
});

test(`SIGKILL during state writes, ${KILLS} times: state.json always parses and loads, no temp file survives a restart`, async () => {
  const dir = tempDir('nw-chaos-write-');
  const created = new Set<string>(['(none)']);
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < KILLS; round++) {
    const sim = await spawnSim(['--port', '0', '--state-dir', dir]);
    const c = await client(sim.url, dir);
    // Many spaces make each write bigger; a stream of changes keeps writes going.
    let stop = false;
    const churn = (async () => {
      for (let i = 0; !stop; i++) {
        const name = `r${round}-s${i}`;
        created.add(name);
        await c.call('space_create', { name }).catch(() => {
          stop = true;
        });
      }
    })();
    await new Promise((r) => setTimeout(r, 300 + Math.floor(next() * 900)));
    await sim.kill('SIGKILL');
    stop = true;
    await churn;
    const raw = readFileSync(join(dir, 'state.json'), 'utf8');
    const state = JSON.parse(raw) as { version: number; spaces: Array<{ name: string }> };
    expect(state.version).toBe(1);
    for (const s of state.spaces) expect(created.has(s.name), `unknown space ${s.name} in state.json`).toBe(true);
  }
  const again = await spawnSim(['--port', '0', '--state-dir', dir]);
  try {
    const c = await client(again.url, dir);
    const onDisk = (JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { spaces: unknown[] }).spaces.length;
    expect((await c.call('space_list', {})).spaces.length).toBe(onDisk);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  } finally {
    await again.kill('SIGKILL');
  }
});

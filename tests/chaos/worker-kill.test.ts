/**
 * Chaos: a Playwright worker SIGKILLed in the middle of a test, on a device shared by two
 * workers (`nestwright sim` with one process slot, sessions reclaimed after 5 s idle). The dead
 * worker leaves its space leased and its app in the only slot; nobody will ever release them.
 * Checked: its MCP session is reclaimed when idle, which releases the lease (audit:
 * `lease.session_end` for its space), the slot then goes to the others (its instance is
 * evicted), every other test passes — in the surviving worker and in the one Playwright starts
 * in its place — and the killed test is reported as such.
 */
import { test, expect } from '@playwright/test';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DeviceClient, McpToolTransport } from '../../device-runtime/client/index.js';
import { tempDir } from '../runtime/helpers.js';
import { spawnSim } from '../transport/spawn-sim.js';
import { runInline } from '../framework/inline.js';
import { Space } from '../../framework/core/space.js';

test.describe.configure({ timeout: 240_000 });

const KILLED = `import { test } from 'nestwright';
import { writeFileSync } from 'node:fs';
test.use({ apk: 'fixtures/apks/notes.apk' });
test('the worker dies in the middle of this test', async ({ app, space }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('half-written');
  writeFileSync(process.env.KILLED_SPACE_FILE, space.id);
  process.kill(process.pid, 'SIGKILL');
});
`;

const OTHERS = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
for (const n of [1, 2, 3, 4]) {
  test('note ' + n, async ({ app }) => {
    await app.getByText('New note').tap();
    await app.getById('title').fill('Note ' + n);
    await app.getByRole('button', { name: 'Save' }).tap();
    await expect(app.getByText('Note ' + n)).toBeVisible();
  });
}
`;

test('a worker killed mid-test: its lease is reclaimed with its idle session, the slot freed, the other workers pass', async () => {
  const stateDir = tempDir('nw-worker-kill-');
  const killedSpaceFile = path.join(stateDir, 'killed-space');
  const sim = await spawnSim(['--port', '0', '--state-dir', stateDir, '--slots', '1', '--session-idle-ms', '5000']);
  try {
    const token = readFileSync(path.join(stateDir, 'token'), 'utf8').trim();
    const run = await runInline(
      { 'a-killed.spec.ts': KILLED, 'b-others.spec.ts': OTHERS },
      {
        workers: 2,
        use: `deviceOptions: { provider: 'sim', url: process.env.NW_URL, token: process.env.NW_TOKEN }, actionTimeout: 10_000`,
        config: 'timeout: 120_000,',
        env: { NW_URL: sim.url, NW_TOKEN: token, KILLED_SPACE_FILE: killedSpaceFile },
      },
    );
    const report = `${run.stderr}\n${run.results.map((r) => `${r.title}: ${r.status}\n${r.error}`).join('\n')}`;
    const killed = run.result('the worker dies in the middle of this test');
    expect(killed.status, report).toBe('failed');
    expect(killed.error).toMatch(/worker process exited unexpectedly.*SIGKILL/i);
    for (const n of [1, 2, 3, 4]) expect(run.result(`note ${n}`).status, report).toBe('passed');
    expect(run.exitCode).toBe(1);

    const killedSpace = readFileSync(killedSpaceFile, 'utf8').trim();
    const c = new DeviceClient(await McpToolTransport.http(sim.url, token));
    // The dead worker's lease ends with its session, reclaimed 5 s after its last call — whether
    // the other tests ran before the kill or after it (the run may end before the reclaim).
    const leases = async () =>
      (await c.call('audit_query', { kind: 'lease', space_id: killedSpace, limit: 100 })).entries.map((e) => e.tool);
    await expect
      .poll(leases, { timeout: 30_000, message: "the dead worker's lease ends with its idle session" })
      .toContain('lease.session_end');
    expect(await leases()).toContain('lease.acquire');
    expect(await leases()).not.toContain('lease.release');
    expect((await c.call('session_status', { space_id: killedSpace })).leases).toEqual([]);
    // The surviving workers cleaned up after themselves: only the dead worker's space is left.
    expect((await c.call('space_list', {})).spaces.map((s) => s.space_id)).toEqual([killedSpace]);
    // Its app held the only slot: a newcomer gets it (the dead one is evicted, by the other
    // workers if they needed it after the kill, else now).
    const mine = await Space.create(c, 'after-the-kill');
    const app = await mine.launch(path.resolve('fixtures/apks/notes.apk'));
    expect((await c.call('space_status', { space_id: killedSpace })).running).toEqual([]);
    const log = (await c.call('sys_logcat', { space_id: killedSpace, max_lines: 1000 })).lines
      .map((l) => JSON.stringify(l))
      .join('\n');
    expect(log).toMatch(/evicted from slot :c1/);
    await app.close();
    await mine.delete();
    await c.close();
  } finally {
    await sim.kill('SIGKILL');
    rmSync(stateDir, { recursive: true, force: true });
  }
});

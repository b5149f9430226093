import { test, expect } from '@playwright/test';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DeviceClient, DeviceError, McpToolTransport } from '../../device-runtime/client/index.js';
import { NOTES, apk, tempDir } from '../runtime/helpers.js';
import { spawnSim } from './spawn-sim.js';

test.describe.configure({ timeout: 120_000 });

test('the simulator killed mid-call: the client fails fast with DEVICE_DISCONNECTED', async () => {
  const dir = tempDir();
  const sim = await spawnSim(['--port', '0', '--state-dir', dir]);
  try {
    const token = readFileSync(join(dir, 'token'), 'utf8').trim();
    const client = new DeviceClient(await McpToolTransport.http(sim.url, token));
    const { space_id } = await client.call('space_create', {});
    await client.call('session_acquire', { space_id });
    await client.call('space_install_apk', { space_id, apk_paths: [apk('notes.apk')] });
    await client.call('space_launch', { space_id, package: NOTES });
    const pending = client.call('ui_wait_for', { space_id, text: 'text that never appears', timeout_ms: 600_000 });
    const outcome = pending.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await sim.kill('SIGKILL');
    // A hang guard, not a speed assertion: without fail-fast this would wait 10 minutes.
    const e = await Promise.race([outcome, new Promise((r) => setTimeout(() => r('hung'), 20_000))]);
    expect(e).toBeInstanceOf(DeviceError);
    expect((e as DeviceError).code).toBe('DEVICE_DISCONNECTED');
    expect((e as DeviceError).message).toMatch(/^ui_wait_for: DEVICE_DISCONNECTED/);
    const next = await client.call('space_list', {}).catch((x: unknown) => x);
    expect((next as DeviceError).code).toBe('DEVICE_DISCONNECTED');
  } finally {
    await sim.kill('SIGKILL');
  }
});

test('nestwright sim keeps its token in a 0600 file it never prints, closes cleanly on SIGINT, and finds its spaces again', async () => {
  const dir = tempDir();
  const sim = await spawnSim(['--port', '0', '--state-dir', dir]);
  const token = readFileSync(join(dir, 'token'), 'utf8').trim();
  expect(statSync(join(dir, 'token')).mode & 0o777).toBe(0o600);
  expect(sim.stdout()).toContain(`token: in ${join(dir, 'token')}`);
  expect(sim.stdout()).not.toContain(token);
  const client = new DeviceClient(await McpToolTransport.http(sim.url, token));
  await client.call('space_create', { name: 'survives' });
  await client.close();
  expect(await sim.kill('SIGINT')).toBe(0);
  expect(sim.stdout()).toContain('nestwright sim stopped');
  const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { spaces: Array<{ name: string }> };
  expect(state.spaces.map((s) => s.name)).toEqual(['survives']);

  // Started again on the same state dir: same token, same spaces.
  const again = await spawnSim(['--port', '0', '--state-dir', dir]);
  try {
    const c2 = new DeviceClient(await McpToolTransport.http(again.url, token));
    expect((await c2.call('space_list', {})).spaces.map((s) => s.name)).toEqual(['survives']);
    await c2.close();
  } finally {
    await again.kill('SIGINT');
  }
});

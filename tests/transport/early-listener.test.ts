import { expect, test } from '@playwright/test';
import { connect } from 'node:net';
import { startEmbeddedDeviceEarly } from '../../device-runtime/providers/index.js';
import { listenEarly } from '../../device-runtime/mcp-http/early-listener.js';
import { wakeEmbeddedDevice } from '../../device-runtime/providers/run-wide.js';

/**
 * The run's simulator starts on a port that already listens and loads when the first connection
 * comes: a worker that connects before it serves waits and is answered; one whose simulator never
 * comes is closed, not left hanging; a run nobody connects to never loads it.
 */
test('a request sent before the simulator serves starts it, waits on the early port and is answered; the token is checked', async () => {
  const sim = await startEmbeddedDeviceEarly();
  const early = fetch(sim.url.replace('/mcp', '/nothing-here'), { headers: { authorization: `Bearer ${sim.token}` } });
  expect((await early).status).toBe(404);
  const device = await sim.start();
  try {
    expect(device.url).toBe(sim.url);
    expect(device.token).toBe(sim.token);
    const refused = await fetch(sim.url, { method: 'POST', headers: { authorization: 'Bearer wrong' }, body: '{}' });
    expect(refused.status).toBe(401);
  } finally {
    await sim.close();
  }
});

test('a worker that wakes the simulator (a connection it hangs up) starts it; one never woken just stops listening', async () => {
  const woken = await startEmbeddedDeviceEarly();
  const idle = await startEmbeddedDeviceEarly();
  const env = { url: process.env.NESTWRIGHT_SIM_URL, worker: process.env.TEST_WORKER_INDEX };
  try {
    process.env.NESTWRIGHT_SIM_URL = woken.url;
    wakeEmbeddedDevice();
    // The runner's listener hears the connection and starts the simulator: it then serves.
    await expect
      .poll(async () => (await fetch(woken.url, { method: 'POST', body: '{}' }).catch(() => null))?.status ?? 0)
      .toBe(401);
  } finally {
    process.env.NESTWRIGHT_SIM_URL = env.url;
    if (env.url === undefined) delete process.env.NESTWRIGHT_SIM_URL;
    await woken.close();
    await idle.close();
  }
  // Closed without a connection: its port no longer listens.
  const refused = await new Promise<string>((resolve) => {
    const s = connect(Number(new URL(idle.url).port), '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve('connected')));
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
  expect(refused).toBe('ECONNREFUSED');
});

test('connections that waited are closed when no server takes the port', async () => {
  const listener = await listenEarly();
  const socket = connect(listener.port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  await listener.close();
  await closed;
  expect(socket.destroyed).toBe(true);
});

test('the first connection calls onFirstConnection once, before it waits', async () => {
  let calls = 0;
  const listener = await listenEarly('127.0.0.1', () => void calls++);
  const sockets = [connect(listener.port, '127.0.0.1'), connect(listener.port, '127.0.0.1')];
  await Promise.all(sockets.map((s) => new Promise((resolve) => s.once('connect', resolve))));
  await expect.poll(() => calls).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(calls).toBe(1);
  await listener.close();
  for (const s of sockets) s.destroy();
});

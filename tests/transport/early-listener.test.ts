import { expect, test } from '@playwright/test';
import { connect } from 'node:net';
import { startEmbeddedDeviceEarly } from '../../device-runtime/providers/index.js';
import { listenEarly } from '../../device-runtime/mcp-http/early-listener.js';

/**
 * The run's simulator starts on a port that already listens: a worker that connects before it
 * serves waits and is answered; one whose simulator never comes is closed, not left hanging.
 */
test('a request sent before the simulator serves waits on the early port and is answered; the token is checked', async () => {
  const sim = await startEmbeddedDeviceEarly();
  const early = fetch(sim.url.replace('/mcp', '/nothing-here'), { headers: { authorization: `Bearer ${sim.token}` } });
  const device = await sim.ready;
  try {
    expect(device.url).toBe(sim.url);
    expect(device.token).toBe(sim.token);
    expect((await early).status).toBe(404);
    const refused = await fetch(sim.url, { method: 'POST', headers: { authorization: 'Bearer wrong' }, body: '{}' });
    expect(refused.status).toBe(401);
  } finally {
    await device.close();
  }
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

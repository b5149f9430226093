import { test, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { WebSocket } from 'ws';
import { startCompanionServer, type RunningCompanion } from '../../device-runtime/providers/companion/server.js';
import { FakeCompanion } from '../companion/fake-companion.js';

/**
 * The companion endpoint phones dial into (device-runtime/providers/companion/hub.ts) is meant
 * to be reached from the network, so strangers reach it too: before a connection has
 * authenticated it may send only what an auth message needs, and it has a deadline.
 */
const KEY = 'dc_test_key_0123456789';

async function serve(opts: Partial<Parameters<typeof startCompanionServer>[0]> = {}) {
  const log: string[] = [];
  const companion = await startCompanionServer({
    listen: { host: '127.0.0.1', port: 0 },
    keys: [KEY],
    log: (l) => log.push(l),
    ...opts,
  });
  return { companion, log };
}

/** A TCP connection that completes the WebSocket handshake and then reads everything and answers nothing. */
async function mute(companion: RunningCompanion): Promise<{ socket: Socket; closed: boolean }> {
  const u = new URL(companion.phonesUrl);
  const entry = { socket: connect(Number(u.port), u.hostname), closed: false };
  entry.socket.on('error', () => {});
  entry.socket.on('close', () => (entry.closed = true));
  entry.socket.write(
    `GET ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  const [first] = (await once(entry.socket, 'data')) as [Buffer];
  expect(first.toString('latin1')).toMatch(/^HTTP\/1\.1 101 /);
  return entry;
}

test("a stranger's 24 MiB nested first frame is refused unparsed with 1009; the connected phone keeps its heartbeat", async () => {
  const { companion, log } = await serve({ heartbeatMs: 250, heartbeatTimeoutMs: 3_000 });
  const phone = new FakeCompanion({ url: companion.phonesUrl, key: KEY, name: 'the tester’s phone' });
  let stranger: WebSocket | undefined;
  try {
    const id = await phone.connect();
    let phoneClosed = false;
    let pings = 0;
    phone.socket!.on('close', () => (phoneClosed = true));
    phone.socket!.on('ping', () => pings++);

    const s = (stranger = new WebSocket(companion.phonesUrl));
    s.on('error', () => {});
    const closed = new Promise<number>((resolve) => s.once('close', (code: number) => resolve(code)));
    await once(s, 'open');
    // 12 Mi opening brackets, then as many closing: JSON.parse builds 12 Mi nested arrays from it.
    const half = 12 * 1024 * 1024;
    s.send('['.repeat(half) + ']'.repeat(half));
    expect(await closed).toBe(1009);

    // The phone kept answering pings the whole time, and still does: it was never dropped.
    const before = pings;
    await expect.poll(() => pings, { timeout: 15_000 }).toBeGreaterThan(before + 3);
    expect(phoneClosed).toBe(false);
    expect(companion.hub.phones.get(id)?.online).toBe(true);
    // The frame was never parsed (a parsed one is logged as a message that does not parse).
    expect(log.join('\n')).not.toMatch(/does not parse|not JSON/);
    expect(log.join('\n')).toMatch(/refused: more than \d+ bytes before authenticating/);
  } finally {
    stranger?.terminate();
    await phone.close();
    await companion.close();
  }
});

test('a stranger that never authenticates is closed at the deadline, however it behaves', async () => {
  // The heartbeat would drop a silent socket too, but not before a minute here: the deadline must do it.
  const { companion, log } = await serve({ authTimeoutMs: 500, heartbeatMs: 1_000, heartbeatTimeoutMs: 60_000 });
  const u = new URL(companion.phonesUrl);
  const lurker = { socket: connect(Number(u.port), u.hostname), closed: false };
  lurker.socket.on('error', () => {});
  lurker.socket.on('close', () => (lurker.closed = true));
  lurker.socket.resume(); // reading, so that it sees the server close it
  const silent = new WebSocket(companion.phonesUrl);
  try {
    // A WebSocket client that says nothing: told why, and closed.
    const told: string[] = [];
    silent.on('message', (d) => told.push(d.toString()));
    const silentClosed = new Promise<number>((resolve) => silent.once('close', (code: number) => resolve(code)));
    // A socket that completed the handshake but never answers the closing handshake either.
    const deaf = await mute(companion);
    expect(await silentClosed).toBe(4001);
    expect(told.join()).toContain('no auth message within the time allowed');
    // The deaf one and one that never even sent its upgrade request are closed too.
    await expect.poll(() => [deaf.closed, lurker.closed], { timeout: 15_000 }).toEqual([true, true]);
    expect(log.join('\n')).not.toContain(KEY);
  } finally {
    silent.terminate();
    lurker.socket.destroy();
    await companion.close();
  }
});

test('an auth message within the limit still authenticates, and a phone may send large answers after it', async () => {
  const { companion } = await serve();
  const phone = new FakeCompanion({ url: companion.phonesUrl, key: KEY, name: 'x'.repeat(900) });
  try {
    const id = await phone.connect();
    expect(id).toMatch(/^phone-/);
    // After authenticating, a screen of 4 MiB (a screenshot fallback) is taken, not refused.
    phone.sendRaw(JSON.stringify({ type: 'screen', requestId: 'none', elements: [], screenshot: 'A'.repeat(4 << 20) }));
    phone.sendRaw(JSON.stringify({ type: 'heartbeat', batteryLevel: 42 }));
    await expect.poll(() => companion.hub.phones.get(id)?.battery.level).toBe(42);
    expect(companion.hub.phones.get(id)?.online).toBe(true);
  } finally {
    await phone.close();
    await companion.close();
  }
});

import { expect, test } from '@playwright/test';
import path from 'node:path';
import { DeviceClient, DeviceError, McpToolTransport } from '../../device-runtime/client/index.js';
import { startCompanionServer, type RunningCompanion } from '../../device-runtime/providers/companion/server.js';
import { connectDevice, startCompanion } from '../../device-runtime/providers/index.js';
import { DeviceOptionsSchema } from '../../device-runtime/providers/options.js';
import { companionDevicesCommand } from '../../cli/commands/devices-companion.js';
import { FakeCompanion } from './fake-companion.js';

/**
 * The companion provider against a fake phone on loopback: the hub phones dial in to, the device
 * protocol served from it over MCP (the stock client), and what the design asks of the link.
 */
const APKS = path.resolve(import.meta.dirname, '../../fixtures/apks');
const KEY = 'dc_test_key_0123456789';

async function setUp(
  opts: Partial<ConstructorParameters<typeof FakeCompanion>[0]> = {},
  server: object = {},
  start: typeof startCompanionServer = startCompanionServer,
) {
  const log: string[] = [];
  const companion = await start({
    listen: { host: '127.0.0.1', port: 0 },
    keys: [KEY, 'dc_other_key_abcdef'],
    requestTimeoutMs: 1_500,
    phoneWaitMs: 5_000,
    log: (l) => log.push(l),
    ...server,
  });
  const phone = await new FakeCompanion({
    url: companion.phonesUrl,
    key: KEY,
    apks: [`${APKS}/notes.apk`],
    canClear: true,
    ...opts,
  }).start();
  const client = new DeviceClient(await McpToolTransport.http(companion.url, companion.token));
  const space = (await client.call('space_create', {})).space_id;
  await client.call('session_acquire', { space_id: space });
  return { companion, phone, client, space, log };
}

async function tearDown(s: { companion: RunningCompanion; phone: FakeCompanion; client: DeviceClient }) {
  await s.client.close().catch(() => {});
  await s.phone.close();
  await s.companion.close();
}

test('a phone that dials in is observed and driven through the device protocol', async () => {
  const s = await setUp();
  try {
    await s.client.call('space_launch', { space_id: s.space, package: 'com.nestwright.notes' });
    const obs = await s.client.call('ui_observe', { space_id: s.space });
    expect(obs.package).toBe('com.nestwright.notes');
    const button = obs.nodes.find((n) => n.text === 'New note')!;
    expect(button).toMatchObject({ role: 'button', clickable: true, class: 'android.widget.Button' });
    // The icon button's string is its description (the companion sends one string per element).
    expect(obs.nodes.find((n) => n.desc === 'More options')).toMatchObject({ text: null });
    await s.client.call('ui_tap', { space_id: s.space, node_id: button.id, snapshot_id: obs.snapshot_id });
    const editor = await s.client.call('ui_observe', { space_id: s.space });
    const title = editor.nodes.find((n) => n.res_id?.endsWith(':id/title'))!;
    expect(title.editable).toBe(true);
    await s.client.call('ui_set_text', {
      space_id: s.space,
      node_id: title.id,
      snapshot_id: editor.snapshot_id,
      text: 'Milk',
    });
    const typed = await s.client.call('ui_observe', { space_id: s.space });
    expect(typed.nodes.find((n) => n.res_id?.endsWith(':id/title'))?.text).toBe('Milk');
    expect(s.phone.received.map((m) => m.type)).toEqual(
      expect.arrayContaining(['auth_ok', 'clear_data', 'launch', 'get_screen', 'tap', 'type']),
    );
    // Keys never reach the log.
    expect(s.log.join('\n')).not.toContain(KEY);
  } finally {
    await tearDown(s);
  }
});

test('a wrong key gets auth_error and the connection closed; the right one, auth_ok with the same id on reconnect', async () => {
  const s = await setUp();
  try {
    const intruder = new FakeCompanion({ url: s.companion.phonesUrl, key: 'dc_wrong_key_000000' });
    const answer = await intruder.connect();
    expect(answer).toBe('auth_error: refused: unknown key');
    await expect.poll(() => intruder.socket?.readyState).toBe(3);
    intruder.rt.close();
    const id = s.phone.deviceId;
    s.phone.drop();
    expect(await s.phone.dial()).toBe(id);
  } finally {
    await tearDown(s);
  }
});

test('a phone that drops fails the call in flight with DEVICE_DISCONNECTED within 2 s, and is taken up again when it reconnects', async () => {
  const s = await setUp({}, { requestTimeoutMs: 10_000 });
  try {
    await s.client.call('space_launch', { space_id: s.space, package: 'com.nestwright.notes' });
    s.phone.edges.silent = true;
    const started = Date.now();
    const inFlight = s.client.call('ui_observe', { space_id: s.space }).catch((e: unknown) => e);
    setTimeout(() => s.phone.drop(), 200);
    const err = await inFlight;
    expect(err).toBeInstanceOf(DeviceError);
    expect((err as DeviceError).code).toBe('DEVICE_DISCONNECTED');
    expect(Date.now() - started).toBeLessThan(2_000);
    s.phone.edges.silent = false;
    await s.phone.dial();
    expect((await s.client.call('ui_observe', { space_id: s.space })).package).toBe('com.nestwright.notes');
  } finally {
    await tearDown(s);
  }
});

test('a phone that stays silent is dropped by the heartbeat: the call fails with DEVICE_DISCONNECTED', async () => {
  const s = await setUp({}, { requestTimeoutMs: 10_000, heartbeatMs: 200, heartbeatTimeoutMs: 800 });
  try {
    // A phone whose network vanished: no close, no pong, no answer.
    s.phone.edges.silent = true;
    s.phone.socket!.pause();
    const started = Date.now();
    const err = await s.client.call('ui_observe', { space_id: s.space }).catch((e: unknown) => e);
    expect((err as DeviceError).code).toBe('DEVICE_DISCONNECTED');
    expect(Date.now() - started).toBeLessThan(2_000);
  } finally {
    await tearDown(s);
  }
});

test('use.deviceOptions.heartbeatTimeoutMs sets when a silent phone is dropped; by default 2 s of silence is survived', async () => {
  const options = (extra: object) => (o: Parameters<typeof startCompanionServer>[0]) => {
    const parsed = DeviceOptionsSchema.parse({ provider: 'companion', ...o, log: undefined, ...extra });
    return startCompanion(parsed as Extract<typeof parsed, { provider: 'companion' }>, o.log);
  };
  const silence = async (s: Awaited<ReturnType<typeof setUp>>, ms: number) => {
    s.phone.edges.silent = true;
    s.phone.socket!.pause();
    await new Promise((r) => setTimeout(r, ms));
    s.phone.edges.silent = false;
    s.phone.socket!.resume();
  };
  const byDefault = await setUp({}, { requestTimeoutMs: 10_000 }, options({}));
  try {
    await silence(byDefault, 2_000);
    expect((await byDefault.client.call('ui_observe', { space_id: byDefault.space })).nodes).toBeDefined();
    expect(byDefault.log.join('\n')).not.toMatch(/dropped|disconnected/i);
  } finally {
    await tearDown(byDefault);
  }
  const short = await setUp({}, { requestTimeoutMs: 10_000 }, options({ heartbeatTimeoutMs: 800 }));
  try {
    short.phone.edges.silent = true;
    short.phone.socket!.pause();
    const err = await short.client.call('ui_observe', { space_id: short.space }).catch((e: unknown) => e);
    expect((err as DeviceError).code).toBe('DEVICE_DISCONNECTED');
  } finally {
    await tearDown(short);
  }
  expect(
    DeviceOptionsSchema.safeParse({ provider: 'companion', heartbeatTimeoutMs: 100 }).error?.issues[0]?.path,
  ).toEqual(['heartbeatTimeoutMs']);
});

test('an answer that never comes times out naming the request; slow answers within the limit are fine', async () => {
  const s = await setUp();
  try {
    s.phone.edges.slowMs = 400;
    expect((await s.client.call('ui_observe', { space_id: s.space })).nodes).toBeDefined();
    s.phone.edges.slowMs = 0;
    s.phone.edges.silent = true;
    const err = (await s.client.call('ui_observe', { space_id: s.space }).catch((e: unknown) => e)) as DeviceError;
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toMatch(/did not answer get_screen \(request [0-9a-f-]{36}\) within 1500 ms/);
  } finally {
    await tearDown(s);
  }
});

test('edges: a null tree during a transition, a secure window, a malformed message', async () => {
  const s = await setUp({ dialect: 'design', edges: { nullTrees: 1 } }, { dialect: 'design' });
  try {
    await s.client.call('space_launch', { space_id: s.space, package: 'com.nestwright.notes' });
    expect(await s.client.call('ui_observe', { space_id: s.space })).toMatchObject({ nodes: [], tree_missing: true });
    expect((await s.client.call('ui_observe', { space_id: s.space })).tree_missing).toBeUndefined();
    // The design's `execute` form carried the launch.
    expect(s.phone.received.some((m) => m.type === 'execute')).toBe(true);
    const shot = await s.client.call('ui_screenshot', { space_id: s.space, scale: 0.5 });
    expect([shot.mime, shot.width]).toEqual(['image/png', 360]);
    s.phone.edges.secure = true;
    const secure = (await s.client
      .call('ui_screenshot', { space_id: s.space })
      .catch((e: unknown) => e)) as DeviceError;
    expect(secure.code).toBe('CHANNEL_UNAVAILABLE');
    expect(secure.message).toContain('secure (FLAG_SECURE)');
    s.phone.sendRaw('{"type":"screen","requestId":');
    s.phone.sendRaw('{"type":"result","success":true}');
    await expect
      .poll(() => s.log.some((l) => l.includes('a "result" message that does not parse: requestId')))
      .toBe(true);
    // The connection stays: one bad frame is not a dead phone.
    expect((await s.client.call('ui_observe', { space_id: s.space })).package).toBe('com.nestwright.notes');
  } finally {
    await tearDown(s);
  }
});

test('the published app: no get_screenshot, no clear_data; both are found out once and said so', async () => {
  const s = await setUp({ canClear: false });
  try {
    await s.client.call('space_launch', { space_id: s.space, package: 'com.nestwright.notes' });
    const err = (await s.client.call('ui_screenshot', { space_id: s.space }).catch((e: unknown) => e)) as DeviceError;
    expect(err.code).toBe('NOT_SUPPORTED');
    expect(err.message).toContain('does not answer get_screenshot');
    const noDice = (await s.client
      .call('space_stop', { space_id: s.space, package: 'com.nestwright.notes', clear_data: true })
      .catch((e: unknown) => e)) as DeviceError;
    expect(noDice.code).toBe('NOT_SUPPORTED');
    const inner = (await s.client
      .call('space_launch', { space_id: s.space, package: 'com.nestwright.notes', activity: '.EditorActivity' })
      .catch((e: unknown) => e)) as DeviceError;
    expect(inner.code).toBe('NOT_SUPPORTED');
    expect(inner.message).toContain('launcher activity only, not .EditorActivity');
    const logcat = (await s.client
      .call('sys_logcat', { space_id: s.space } as never)
      .catch((e: unknown) => e)) as DeviceError;
    expect(logcat.code).toBe('NOT_SUPPORTED');
  } finally {
    await tearDown(s);
  }
});

test('a phone that refuses clear_data (unsupported) is remembered as one that cannot clear, as a silent one is: launches go on', async () => {
  const s = await setUp({ canClear: 'refuses' });
  try {
    const first = await s.client.call('space_launch', { space_id: s.space, package: 'com.nestwright.notes' });
    expect(first.cold_start).toBe(true);
    await s.client.call('space_stop', { space_id: s.space, package: 'com.nestwright.notes', remove_instance: true });
    await s.client.call('space_launch', { space_id: s.space, package: 'com.nestwright.notes' });
    expect((await s.client.call('ui_observe', { space_id: s.space })).package).toBe('com.nestwright.notes');
    // Asked once, then remembered for the phone: the second launch does not ask again.
    expect(s.phone.received.filter((m) => m.type === 'clear_data')).toHaveLength(1);
    const noDice = (await s.client
      .call('space_stop', { space_id: s.space, package: 'com.nestwright.notes', clear_data: true })
      .catch((e: unknown) => e)) as DeviceError;
    expect(noDice.code).toBe('NOT_SUPPORTED');
  } finally {
    await tearDown(s);
  }
});

test('nestwright devices --companion lists the phones that dial in while it waits; bad flags are usage errors', async () => {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  process.env.NESTWRIGHT_COMPANION_KEYS = KEY;
  try {
    const listing = companionDevicesCommand(
      ['--companion', '--host', '127.0.0.1', '--port', String(port), '--wait', '3'],
      io,
    );
    const phone = new FakeCompanion({ url: `ws://127.0.0.1:${port}/ws/device`, key: KEY, name: 'Desk phone' });
    await phone.dial(3_000);
    expect(await listing).toBe(0);
    await phone.close();
    expect(out.join('')).toMatch(
      /^ID\s+NAME\s+MODEL\s+ANDROID\s+SCREEN\s+BATTERY\nphone-1\s+Desk phone\s+nestwright Pixel Sim\s+15\s+1080x2400\s+80%\n$/,
    );
    expect(err.join('')).toContain(`Waiting 3 s for phones at ws://127.0.0.1:${port}/ws/device`);
    expect(await companionDevicesCommand(['--companion', '--port', 'eighty'], io)).toBe(2);
    expect(err.join('')).toContain('--port takes 0–65535');
  } finally {
    delete process.env.NESTWRIGHT_COMPANION_KEYS;
  }
});

test('bad options: no keys, a short key', async () => {
  const noKeys = (await connectDevice({ provider: 'companion', listen: { port: 0 } }).catch(
    (e: unknown) => e,
  )) as DeviceError;
  expect(noKeys.code).toBe('INVALID_ARGUMENT');
  expect(noKeys.message).toContain('no keys: a phone could never authenticate');
  expect(noKeys.hint).toContain('NESTWRIGHT_COMPANION_KEYS');
  const short = (await connectDevice({ provider: 'companion', keys: ['abc'] }).catch((e: unknown) => e)) as DeviceError;
  expect(short.code).toBe('INVALID_ARGUMENT');
  expect(short.message).toContain('a companion key has at least 8 characters');
});

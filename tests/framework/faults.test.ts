import { test, expect } from '@playwright/test';
import { startSimServer } from '../../device-runtime/sim/server.js';
import { attachmentText, plain, runInline, type InlineRun } from './inline.js';
import { sharedBatch } from './shared-batch.js';

/**
 * What ends a test at once instead of waiting for a timeout: the app crashing (APP_CRASHED),
 * the device going away (DEVICE_DISCONNECTED). And what waits instead of failing: more workers
 * than the device has process slots (NO_PROCESS_SLOT is retried until a slot frees), and the
 * hostile fault profile. One child run of three workers for all: the three files of the slot test
 * sort first, so each starts on a worker of its own against a one-slot simulator of this file's,
 * and the hostile file has a hostile simulator of its own (test.use({ deviceOptions })).
 */
test.describe.configure({ mode: 'default' });

// A TCP proxy in front of the simulator that the spec can cut, the way a USB cable comes out.
const PROXY = `import net from 'node:net';
export async function startProxy(target: string) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => (client.destroy(), upstream.destroy());
    client.on('error', drop);
    upstream.on('error', drop);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  server.unref();
  const address = server.address() as net.AddressInfo;
  return {
    url: target.replace(/\\/\\/[^/]+/, '//127.0.0.1:' + address.port),
    cut() {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}
`;

// Three files (a, b, c: first in the run's order) of two tests each, on a device with one process slot.
const SLOTS = (n: number) => `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', deviceOptions: { provider: 'sim', url: process.env.NW_SLOTS_URL, token: process.env.NW_SLOTS_TOKEN } });
for (let i = 0; i < 2; i++) {
  test('worker file ${n} test ' + i, async ({ app }) => {
    await app.getByText('New note').tap();
    await app.getById('title').fill('Note ${n}.' + i);
    await app.getByRole('button', { name: 'Save' }).tap();
    await expect(app.getByText('Note ${n}.' + i)).toBeVisible();
  });
}
`;

// The hostile profile, four times over (as --repeat-each=4 would), on a simulator of its own.
const HOSTILE = `import { test, expect, devices } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', deviceOptions: devices.sim({ faults: 'hostile', seed: 7 }), actionTimeout: 10_000 });
for (let i = 0; i < 4; i++) {
  test('create, edit, delete ' + i, async ({ app }) => {
    await app.getByText('New note').tap();
    await app.getById('title').fill('Tea');
    await app.getByRole('button', { name: 'Save' }).tap();
    await app.getByText('Tea', { exact: true }).tap();
    await app.getById('title').fill('Green tea');
    await app.getByRole('button', { name: 'Save' }).tap();
    await app.getByText('Green tea').longPress();
    await app.getByText('Delete', { exact: true }).tap();
    await app.getByRole('button', { name: 'Delete' }).tap();
    await expect(app.getByText('No notes yet')).toBeVisible();
  });
}
`;

let run: InlineRun;

test.beforeAll(async () => {
  test.setTimeout(400_000);
  ({ run } = await sharedBatch('faults', async () => {
    const slots = await startSimServer({ slots: 1 });
    try {
      const run = await runInline(
        {
          'a.spec.ts': SLOTS(1),
          'b.spec.ts': SLOTS(2),
          'c.spec.ts': SLOTS(3),
          'hostile.spec.ts': HOSTILE,
          'crash.spec.ts': `import { test, expect, AppCrashedError } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk' });
// First the tests that pass or are declared failing, all in one worker: a test failing
// unexpectedly makes Playwright start another. The crash reports checked on the last two are
// kept only for a test that fails unexpectedly.
test('the crash, caught', async ({ app }) => {
  await app.launch({ activity: '.CartActivity' });
  const error = await app.getByRole('button', { name: 'Apply' }).tap().catch((e) => e);
  expect(error).toBeInstanceOf(AppCrashedError);
  expect(error.crashReason).toContain('CouponParser.parse');
  expect(error.logcat.some((l: string) => l.includes('FATAL EXCEPTION'))).toBe(true);
  expect(error.code).toBe('APP_CRASHED');
  // A test that checks a crash on purpose says so; otherwise a caught crash still fails it.
  await expect(app).toHaveCrashed();
});
test.fail('an assertion on a crashed app fails with the crash too', async ({ app }) => {
  await app.launch({ activity: '.CartActivity' });
  await app.getByRole('button', { name: 'Apply' }).tap().catch(() => {});
  await expect(app.getByText('Total')).toBeVisible({ timeout: 20_000 });
});
test('empty coupon crashes the shop', async ({ app }) => {
  await app.launch({ activity: '.CartActivity' });
  await expect(app.getByText('Your cart is empty')).toBeVisible();
  await app.getByRole('button', { name: 'Apply' }).tap();
  await app.getByText('Checkout').tap();
});
test('the second of two instances crashes', async ({ app }) => {
  await app.launch({ activity: '.CartActivity' });
  const other = await app.newInstance();
  await other.launch({ activity: '.CartActivity' });
  await other.getByRole('button', { name: 'Apply' }).tap();
});
`,
          'proxy.ts': PROXY,
          'disconnect.spec.ts': `import { test, expect } from 'nestwright';
import { startProxy } from './proxy.js';
// Workers see the run's simulator in the environment; the runner (listing tests) does not.
const proxy = process.env.NESTWRIGHT_SIM_URL ? await startProxy(process.env.NESTWRIGHT_SIM_URL) : null;
test.use({
  apk: 'fixtures/apks/notes.apk',
  deviceOptions: { provider: 'sim', url: proxy?.url ?? 'http://127.0.0.1:9/mcp', token: process.env.NESTWRIGHT_SIM_TOKEN ?? 'none' },
  actionTimeout: 20_000,
});
test('the device goes away mid-test', async ({ app }) => {
  await expect(app.getByText('New note')).toBeVisible();
  proxy!.cut();
  await app.getByText('New note').tap();
});
`,
          'unreachable.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', deviceOptions: { provider: 'sim', url: 'http://127.0.0.1:9/mcp', token: 'x' } });
test('no device at the url', async ({ app }) => {
  await app.getByText('New note').tap();
});
`,
        },
        {
          workers: 3,
          use: 'actionTimeout: 20_000,',
          // A file to a worker: the slot test's three files start at once, as three workers of their own.
          config: 'timeout: 60_000, fullyParallel: false,',
          env: { NW_SLOTS_URL: slots.url, NW_SLOTS_TOKEN: slots.token },
        },
      );
      return { run };
    } finally {
      await slots.close();
    }
  }));
});

test('APP_CRASHED: the action fails at once with AppCrashedError naming the reason', async () => {
  const r = run.result('empty coupon crashes the shop');
  expect(r.status).toBe('failed');
  const msg = plain(r.error);
  expect(msg).toMatch(
    /AppCrashedError: locator\.tap: com\.nestwright\.shop@\S+ crashed: java\.lang\.StringIndexOutOfBoundsException: length=0; index=0/,
  );
  expect(msg).not.toContain('timeout');
  // The step that crashed is the last one: nothing after it ran.
  expect(r.steps.join('\n')).not.toContain("Tap text='Checkout'");
});

test("APP_CRASHED: the failure carries the instance's log with the stack, and the crash under the instance's name", async () => {
  const r = run.result('empty coupon crashes the shop');
  const logcat = r.attachments.find((a) => a.name.startsWith('logcat com.nestwright.shop@'));
  expect(logcat).toBeTruthy();
  const text = attachmentText(logcat!);
  expect(text).toContain('FATAL EXCEPTION');
  expect(text).toContain('com.nestwright.shop.cart.CouponParser.parse(CouponParser.kt:27)');
  const who = logcat!.name.slice('logcat '.length);
  const crash = r.attachments.find((a) => a.name === `crash ${who}`);
  expect(attachmentText(crash!)).toMatch(
    new RegExp(
      `^Crash in ${who.replace(/[.@]/g, '\\$&')}: java\\.lang\\.StringIndexOutOfBoundsException: length=0; index=0\n`,
    ),
  );
  expect(attachmentText(crash!)).toContain('CouponParser.parse(CouponParser.kt:27)');
  const traj = JSON.parse(attachmentText(r.attachments.find((a) => a.name === 'nestwright-trajectory')!));
  expect(traj.failure).toMatchObject({ logs: [logcat!.name], crashes: [`crash ${who}`] });
  const last = traj.steps[traj.steps.length - 1];
  expect(last).toMatchObject({ api: 'locator.tap', result: 'failed', selector: "role=button[name='Apply']" });
  expect(last.error.message).toContain('crashed');
});

test("with two instances, the crashed one's report is attached under its name, and each instance's log under its own", async () => {
  const r = run.result('the second of two instances crashes');
  expect(r.status).toBe('failed');
  const logs = r.attachments.filter((a) => a.name.startsWith('logcat ')).map((a) => a.name);
  expect(logs).toHaveLength(2);
  const crashes = r.attachments.filter((a) => a.name.startsWith('crash '));
  expect(crashes).toHaveLength(1);
  const crashed = crashes[0]!.name.slice('crash '.length);
  // The instance that crashed is the second one: its log has the stack, the first one's does not.
  expect(plain(r.error)).toContain(`${crashed} crashed`);
  expect(logs[1]).toBe(`logcat ${crashed}`);
  const first = r.attachments.find((a) => a.name === logs[0])!;
  expect(attachmentText(first)).not.toContain('FATAL EXCEPTION');
});

test('APP_CRASHED: the error object has crashReason and logcat for tests that expect it', async () => {
  const r = run.result('the crash, caught');
  expect(r.status, r.error).toBe('passed');
});

test('APP_CRASHED: a retrying assertion does not wait out its timeout on a crashed app', async () => {
  const r = run.result('an assertion on a crashed app fails with the crash too');
  expect(r.status).toBe('failed');
  const msg = plain(r.error);
  expect(msg).toMatch(/AppCrashedError: expect\.toBeVisible: com\.nestwright\.shop@\S+ crashed/);
  expect(msg).not.toContain('Timeout: 20000ms');
});

test('DEVICE_DISCONNECTED mid-test: the action fails at once, not after its timeout', async () => {
  const r = run.result('the device goes away mid-test');
  expect(r.status).toBe('failed');
  const msg = plain(r.error);
  expect(msg).toContain('DeviceDisconnectedError: locator.tap:');
  expect(msg).toContain('DEVICE_DISCONNECTED');
  expect(msg).not.toContain('timeout 20000ms exceeded');
});

test('DEVICE_DISCONNECTED at connect: the fixture says what to check', async () => {
  const r = run.result('no device at the url');
  expect(r.status).toBe('failed');
  const msg = plain(r.error);
  expect(msg).toContain('DEVICE_DISCONNECTED: cannot connect to http://127.0.0.1:9/mcp');
  expect(msg).toContain('Is the runtime running?');
});

test('NO_PROCESS_SLOT: more workers than slots wait for one instead of failing', () => {
  const slots = run.results.filter((r) => r.title.startsWith('worker file '));
  expect(slots).toHaveLength(6);
  for (const r of slots) expect(r.status, `${r.title}: ${r.error}`).toBe('passed');
});

test('the hostile profile (missing trees, animations, dropped input) needs no sleeps or retries in specs', () => {
  const hostile = run.results.filter((r) => r.title.startsWith('create, edit, delete '));
  expect(hostile).toHaveLength(4);
  for (const r of hostile) expect(r.status, plain(r.error)).toBe('passed');
});

import path from 'node:path';
import { test, expect } from '@playwright/test';
import { DeviceClient, McpToolTransport } from '../../device-runtime/client/index.js';
import {
  waitForActionable,
  type ActionabilityIO,
  type Observation,
  type UiNode,
} from '../../device-runtime/protocol/index.js';
import { inMemoryTransport, startSimServer } from '../../device-runtime/sim/index.js';
import { SimRuntime } from '../../device-runtime/sim/runtime.js';
import { ApiCall } from '../../framework/core/api-call.js';
import type { TestScope } from '../../framework/core/device-calls.js';
import { DeviceDisconnectedError, NestwrightError, TestEndedError, TimeoutError } from '../../framework/core/errors.js';
import { FingerprintStore } from '../../framework/heal/fingerprint-store.js';
import { Healer } from '../../framework/heal/healer.js';
import { TEST_NETWORK, TestNetwork } from '../../framework/network/index.js';
import { ROLES, type Role } from '../../framework/core/selector.js';
import { Space } from '../../framework/core/space.js';
import { Trajectory } from '../../framework/core/trajectory.js';
import { applyWorldOptions } from '../../framework/world/index.js';
import { runTest, TestContext } from '../../framework/core/running-test.js';
import { session } from '../runtime/helpers.js';
import { ROOT } from './inline.js';

/**
 * Error messages that name the fix (issue 48, item 16): what a newcomer writing specs from the
 * docs met, each checked against an in-process simulator over the in-memory MCP transport.
 */

const SHOP = path.join(ROOT, 'fixtures/apks/shop.apk');

const NODE: UiNode = {
  id: 'n',
  role: 'text',
  text: null,
  desc: null,
  bounds: [0, 0, 10, 10],
  clickable: false,
  editable: false,
  scrollable: false,
  enabled: true,
  focused: false,
  selected: false,
  parent: null,
};

async function sim(): Promise<{ space: Space; close: () => Promise<void> }> {
  const rt = new SimRuntime({});
  const client = new DeviceClient(await McpToolTransport.connect(await inMemoryTransport(rt)));
  const space = await Space.create(client, 'errors');
  return {
    space,
    close: async () => {
      await client.close();
      rt.close();
    },
  };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected an error');
    },
    (e: unknown) => e as NestwrightError,
  );

test('a missing APK is APK_NOT_FOUND, naming the path it tried and the directory a relative path is resolved from', async () => {
  const { space, close } = await sim();
  try {
    const e = await failure(space.install('fixtures/apks/nope.apk'));
    expect(e).toBeInstanceOf(NestwrightError);
    expect(e.code).toBe('APK_NOT_FOUND');
    expect(e.message).toBe(
      `space.install: no APK at fixtures/apks/nope.apk: ${path.resolve('fixtures/apks/nope.apk')} does not exist ` +
        `(a relative path is resolved from the config file's folder, ${process.cwd()}, then from the current directory). ` +
        'Set use.apk to the path of an .apk, .apks or .xapk file, relative to the config file or absolute, or to the package of an app already in the space.',
    );
    // The device's answer stays as the cause, not in the message.
    expect(e.message).not.toContain('INVALID_APK');
    expect(e.message).not.toContain('space_install_apk');
    // An absolute path is named once.
    const abs = await failure(space.install(path.join(ROOT, 'nope.apk')));
    expect(abs.code).toBe('APK_NOT_FOUND');
    expect(abs.message).toContain(`no APK at ${path.join(ROOT, 'nope.apk')}: `);
    expect(abs.message).not.toContain('relative path');
    // A file that is there but is no APK is still the device's INVALID_APK.
    const bad = await failure(space.install(path.join(ROOT, 'package.json')));
    expect(bad.code).not.toBe('APK_NOT_FOUND');
    // And a real one installs, from a relative path too.
    expect(await space.install(path.relative(process.cwd(), SHOP))).toBe('com.nestwright.shop');
  } finally {
    await close();
  }
});

test('a package that is not installed says to set use.apk, not to call space_install_apk', async () => {
  const { space, close } = await sim();
  try {
    const e = await failure(space.launch('com.example.nothere'));
    expect(e).toBeInstanceOf(NestwrightError);
    expect(e.code).toBe('APP_NOT_INSTALLED');
    expect(e.message).toBe(
      "space.launch: com.example.nothere is not installed in the space. Set use.apk to its APK path (test.use({ apk: 'fixtures/apks/notes.apk' })), or pass the path to space.launch(), so it is installed first.",
    );
    expect(e.message).not.toContain('space_install_apk');
    expect(e.message).not.toContain('space_permissions');
  } finally {
    await close();
  }
});

test('a time-zone typo names the closest zone (Europe/Berln → Europe/Berlin), not its alphabetical neighbours', async () => {
  const { space, close } = await sim();
  try {
    const app = await space.launch(SHOP);
    const ref = { space_id: space.id, package: app.package, ...(app.instance ? { instance: app.instance } : {}) };
    const e = await failure(applyWorldOptions(space.client, ref, { timezoneId: 'Europe/Berln' }));
    expect(e).toBeInstanceOf(NestwrightError);
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.message).toContain('use.timezoneId: ');
    expect(e.message).toContain('unknown time zone "Europe/Berln"');
    expect(e.message).toContain('Did you mean Europe/Berlin?');
    expect(e.message).not.toMatch(/Amsterdam|Andorra|Astrakhan/);
    // No close name: the zones of the same city, else examples.
    const city = await failure(applyWorldOptions(space.client, ref, { timezoneId: 'Germany/Berlin' }));
    expect(city.message).toContain('Did you mean Europe/Berlin?');
    const far = await failure(applyWorldOptions(space.client, ref, { timezoneId: 'Mars/Olympus_Mons' }));
    expect(far.message).toContain('Give an IANA time zone such as Europe/Berlin, Asia/Tokyo or UTC');
    expect(far.message).not.toContain('Did you mean');
  } finally {
    await close();
  }
});

test("getByRole('buton') is refused at once, naming the nearest role; roles are a closed, typed set", async () => {
  const { space, close } = await sim();
  try {
    const app = await space.launch(SHOP);
    const e = (() => {
      try {
        // @ts-expect-error roles are a union type: a misspelt one does not compile.
        app.getByRole('buton');
      } catch (x) {
        return x as NestwrightError;
      }
      throw new Error('expected getByRole to throw at once');
    })();
    expect(e).toBeInstanceOf(NestwrightError);
    expect(e.code).toBe('USAGE');
    expect(e.message).toBe(
      `getByRole: unknown role "buton"; did you mean 'button'? The roles are ${ROLES.join(', ')}.`,
    );
    // On a locator too, and a role far from every known one names none.
    expect(() => app.getById('login').getByRole('zzzzzz' as Role)).toThrow(
      'getByRole: unknown role "zzzzzz". The roles are button,',
    );
    // Every role an observation of the simulator names is one getByRole takes.
    const obs = await app.driver.observe(new ApiCall('test', 2_000, undefined));
    for (const n of obs.nodes) expect(ROLES).toContain(n.role);
    expect(await app.getByRole('button', { name: 'Log in' }).count()).toBe(1);
  } finally {
    await close();
  }
});

/** A screen with one scrollable list of `pages` pages, none holding what is searched for. */
function listScreen(pages: number) {
  let page = 0;
  let now = 0;
  const obs = (): Observation =>
    ({
      snapshot_id: `s_${page}`,
      package: 'com.example',
      activity: '.List',
      tree_missing: false,
      nodes: [
        { ...NODE, id: 'list', role: 'list', scrollable: true, bounds: [0, 0, 1080, 2000] },
        { ...NODE, id: 'row', role: 'text', text: `Row ${page}`, parent: 'list', bounds: [0, 0, 1080, 100] },
      ],
    }) as Observation;
  const io: ActionabilityIO = {
    observe: async () => ((now += 30), obs()),
    scroll: async (direction) => {
      now += 200;
      const next = Math.max(0, Math.min(pages - 1, page + (direction === 'down' ? 1 : -1)));
      const moved = next !== page;
      page = next;
      return moved;
    },
    hideKeyboard: async () => {},
    // The test's own time: the wait is as long on a loaded machine as on an idle one.
    clock: { now: () => now, sleep: async (ms) => void (now += ms) },
  };
  return io;
}

test('scrolling for a node that is not there says once that the whole list was searched, with the swipes', async () => {
  const log: string[] = [];
  const r = await waitForActionable(
    listScreen(12),
    [{ kind: 'text', text: 'Nothing like this', exact: false }],
    { timeoutMs: 30_000, enabled: false },
    log,
  );
  expect(r.status).toBe('timeout');
  expect(log[0]).toBe("waiting for text='Nothing like this'");
  const list = log.filter((l) => l.includes('list'));
  expect(list).toHaveLength(1);
  expect(list[0]).toMatch(
    /^ {2}no match in the whole list: searched it from its top to its end, \d+ swipes \(\d+ down, \d+ up\), reaching an end \d+ times$/,
  );
  expect(log.length).toBeLessThan(5);
});

test("the device's own search of a list (ui_scroll by selector) says it in one line too", async () => {
  const rt = new SimRuntime({});
  const s = session(rt, 'scroll');
  try {
    const { space_id } = await s.ok('space_create', { name: 'shop' });
    await s.ok('session_acquire', { space_id });
    await s.ok('space_install_apk', { space_id, apk_paths: [SHOP] });
    const { instance } = await s.ok('space_launch', {
      space_id,
      package: 'com.nestwright.shop',
      activity: '.CatalogActivity',
    });
    const e = await s.fail('ui_scroll', {
      space_id,
      app: { package: 'com.nestwright.shop', instance },
      selector: [{ kind: 'text', text: 'Nothing like this', exact: false }],
      wait: { timeout_ms: 6_000, enabled: false, scroll: true },
    });
    expect(e.code).toBe('TIMEOUT');
    const log = (e.details as { log: string[] }).log;
    expect(log.filter((l) => /scrolling the list|the whole list/.test(l))).toHaveLength(1);
    expect(log.length).toBeLessThan(6);
  } finally {
    rt.close();
  }
});

for (const deviceActions of ['auto', 'off'] as const) {
  test(`a locator that matches nothing names the closest node on screen and its locator, with no heal line unless healing is in use (device actions ${deviceActions})`, async () => {
    const { space, close } = await sim();
    try {
      const launch = (mode: 'suggest' | 'auto') =>
        space.launch(SHOP, new Trajectory(), {
          actionTimeout: 1_000,
          expectTimeout: 1_000,
          deviceActions,
          heal: new Healer(mode, new FingerprintStore(), ROOT, 'error messages'),
        });
      const app = await launch('suggest');
      const e = await failure(app.getByText('Log inn').tap());
      expect(e).toBeInstanceOf(TimeoutError);
      expect(e.message).toMatch(
        /^locator\.tap: timeout 1000ms exceeded\.\nClosest on screen: button "Log in" id=login \[[\d,]+\] — app\.getById\('login'\)\nCall log:/,
      );
      // Healing is on ('suggest', the default) but this spec has no fingerprints: no heal line.
      expect(e.message).not.toContain('heal:');
      expect(e.message).not.toMatch(/hint:|observe/);
      // A role's name is compared too; nothing near says nothing.
      const role = await failure(app.getByRole('button', { name: 'Log inn' }).tap());
      expect(role.message).toContain(`Closest on screen: button "Log in" id=login`);
      const far = await failure(app.getByText('Nothing like this').tap());
      expect(far.message).not.toContain('Closest on screen');
      // Asked for (auto): the heal line says why nothing was healed.
      const auto = await launch('auto');
      const healed = await failure(auto.getByText('Log inn').tap());
      expect(healed.message).toContain("heal: no fingerprint of text='Log inn'");
    } finally {
      await close();
    }
  });

  test(`fill on a node that is no field says what it is and which fields there are, without the protocol's hint (device actions ${deviceActions})`, async () => {
    const { space, close } = await sim();
    try {
      const app = await space.launch(SHOP, new Trajectory(), {
        actionTimeout: 1_000,
        expectTimeout: 1_000,
        deviceActions,
      });
      const e = await failure(app.getByText('Sign in to continue').fill('ana@example.com'));
      expect(e).toBeInstanceOf(NestwrightError);
      expect(e.code).toBe('USAGE');
      expect(e.message).toMatch(
        /^locator\.fill: text='Sign in to continue' is text "Sign in to continue" id=subtitle \[[\d,]+\], which is not a text field: fill types into an editable one \(a textbox\)\. The fields on screen:\n {4}textbox id=email \[[\d,]+\] — app\.getById\('email'\)\n {4}textbox id=password/,
      );
      expect(e.message).not.toMatch(/hint:|observe|ui_set_text|n_\d/);
    } finally {
      await close();
    }
  });
}

/** The running test's scope, as the fixture makes it: `end()` is its timeout. */
function testScope() {
  const ended = new AbortController();
  const scope = {
    signal: ended.signal,
    endReason: () => 'Test timeout of 8000ms exceeded.',
    track: <T>(work: Promise<T>) => work,
    raised: () => {},
    acknowledge: () => false,
  };
  return { scope, end: () => ended.abort() };
}

test('a test that times out waiting on a request (or a route) that never matched names the URLs the instance did request', async () => {
  const { space, close } = await sim();
  const network = new TestNetwork(undefined);
  const ctx = new TestContext(new Trajectory(), { actionTimeout: 5_000, expectTimeout: 5_000 });
  ctx.set(TEST_NETWORK, network);
  await runTest(ctx, async () => {
    try {
      const { scope, end } = testScope();
      const app = await space.launch(SHOP, new Trajectory(), { actionTimeout: 5_000, expectTimeout: 5_000, scope });
      await app.route('**/nomatch/**', (route) => route.fulfill({ body: '[]' }));
      const catalog = app.waitForResponse('**/products*', { timeout: 30_000 });
      await app.launch({ activity: '.CatalogActivity' });
      const seen = (await catalog).url();
      // The request never comes; the test's timeout ends the wait.
      const waiting = failure(app.waitForRequest('**/nomatch/**'));
      setTimeout(end, 200);
      const e = await waiting;
      expect(e).toBeInstanceOf(TimeoutError);
      expect(e.message).toContain(
        'app.waitForRequest: Test timeout of 8000ms exceeded. This step was running: Wait for request **/nomatch/**',
      );
      expect(e.message).toContain(
        "Call log:\n  - waiting for request **/nomatch/**\n    - no request matched; the instance's last requests (most recent last):\n",
      );
      expect(e.message).toContain(`    - GET ${seen}`);
      // The route that matched nothing is named when the test ends, with the same requests.
      const { failure: routes } = await network.finish({
        status: 'timedOut',
        expectedStatus: 'passed',
        outputPath: (...p: string[]) => path.join(test.info().outputPath(), ...p),
        attach: async () => {},
      });
      expect(routes?.code).toBe('TIMEOUT');
      expect(routes?.message).toContain(
        "app.route: the test timed out, and route **/nomatch/** matched no request. The instance's last requests (most recent last):\n",
      );
      expect(routes?.message).toContain(`  GET ${seen}`);
    } finally {
      await close();
    }
  });
});

/**
 * Space's public calls (install, launch, delete) go through the one call context, as an app's
 * do: each is a step of the test, a lost device is the test's fatal DEVICE_DISCONNECTED, and a
 * call once the test ended by its timeout is refused with TestEndedError, nothing sent.
 */
test.describe('space calls go through the call context', () => {
  /** A test's context as the fixtures make it: its trajectory, and a scope whose end and fatal errors the test sees. */
  function testContext() {
    const end = new AbortController();
    const raised: Array<{ code: string; api: string; who: string }> = [];
    const scope: TestScope = {
      signal: end.signal,
      endReason: () => 'Test timeout of 100ms exceeded.',
      track: (work) => work,
      raised: (e, from) => void raised.push({ code: e.code, api: e.api, who: from.who() }),
      acknowledge: () => false,
    };
    const ctx = new TestContext(new Trajectory(), { actionTimeout: 5_000, expectTimeout: 5_000, scope });
    return { ctx, end, raised };
  }

  test('space.install, space.launch and space.delete are steps of the test, named after their API', async () => {
    const { space, close } = await sim();
    const { ctx } = testContext();
    try {
      await runTest(ctx, async () => {
        expect(await space.install(SHOP)).toBe('com.nestwright.shop');
        expect(await space.install(SHOP)).toBe('com.nestwright.shop'); // known: no device call, no step
        const shop = await space.launch('com.nestwright.shop');
        const again = await shop.newInstance();
        await space.delete();
        expect(again.instance).not.toBe(shop.instance);
      });
      expect(ctx.trajectory.steps.map((s) => [s.api, s.title, s.kind, s.result])).toEqual([
        ['space.install', `Install "${SHOP}"`, 'app', 'ok'],
        ['space.launch', 'Launch "com.nestwright.shop"', 'app', 'ok'],
        ['app.newInstance', 'Launch "com.nestwright.shop"', 'app', 'ok'],
        ['space.delete', `Delete space "${space.id}"`, 'app', 'ok'],
      ]);
      expect(ctx.trajectory.steps.every((s) => (s.roundTrips ?? 0) >= 1)).toBe(true);
    } finally {
      await close();
    }
  });

  test('a device lost during space.launch is DEVICE_DISCONNECTED, raised as fatal and failing its step', async () => {
    const server = await startSimServer({ port: 0 });
    const client = new DeviceClient(await McpToolTransport.http(server.url, server.token));
    const { ctx, raised } = testContext();
    try {
      const space = await Space.create(client, 'lost');
      await runTest(ctx, async () => {
        await space.launch(SHOP); // installs, and learns the runtime's extensions
        await server.close(); // the device goes away
        const e = await failure(space.launch('com.nestwright.shop'));
        expect(e).toBeInstanceOf(DeviceDisconnectedError);
        expect(e.code).toBe('DEVICE_DISCONNECTED');
        expect(e.fatal).toBe(true);
        expect(e.message).toMatch(/^space\.launch: space_\w+: DEVICE_DISCONNECTED/);
      });
      expect(raised).toEqual([{ code: 'DEVICE_DISCONNECTED', api: 'space.launch', who: 'space lost' }]);
      const last = ctx.trajectory.steps.at(-1)!;
      expect([last.api, last.title, last.result, last.error?.code]).toEqual([
        'space.launch',
        'Launch "com.nestwright.shop"',
        'failed',
        'DEVICE_DISCONNECTED',
      ]);
    } finally {
      await client.close().catch(() => {});
      await server.close().catch(() => {});
    }
  });

  test('once the test ended, space calls are refused with TestEndedError and nothing reaches the device', async () => {
    const { space, close } = await sim();
    const { ctx, end } = testContext();
    const sent: string[] = [];
    const callTool = space.client.call.bind(space.client);
    space.client.call = ((name: string, ...rest: unknown[]) => {
      sent.push(name);
      return (callTool as (...a: unknown[]) => Promise<unknown>)(name, ...rest);
    }) as typeof space.client.call;
    try {
      // The test's body goes on after its timeout: first while the test is still current,
      await runTest(ctx, async () => {
        await space.install(SHOP);
        end.abort();
        sent.length = 0;
        expect(await failure(space.launch('com.nestwright.shop'))).toBeInstanceOf(TestEndedError);
      });
      // then after it ended, when no other test has begun.
      for (const late of [
        space.launch('com.nestwright.shop'),
        space.install(path.join(ROOT, 'fixtures/apks/chat.apk')),
        space.delete(),
      ]) {
        const e = await failure(late);
        expect(e).toBeInstanceOf(TestEndedError);
        expect(e.message).toBe('test: the test has ended (its timeout ran out); nothing more is sent to the device');
      }
      expect(sent.filter((name) => name !== 'runtime_info')).toEqual([]);
    } finally {
      await close();
    }
  });
});

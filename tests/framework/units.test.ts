import { test, expect } from '@playwright/test';
import { DeviceError } from '../../device-runtime/client/index.js';
import { toolError, type UiNode } from '../../device-runtime/protocol/index.js';
import { ApiCall } from '../../framework/core/api-call.js';
import { actuatorOf } from '../../framework/core/actuators.js';
import { AppDriver } from '../../framework/core/driver.js';
import { DeviceDisconnectedError, NestwrightError, TestEndedError } from '../../framework/core/errors.js';
import { formatSteps, fullText, parseSelector, resolveSteps } from '../../framework/core/selector.js';
import { withRetry } from '../../framework/core/space.js';
import { Trajectory } from '../../framework/core/trajectory.js';

/** In-process tests of the framework's pure parts and of how it treats device answers. */

/** A call context as a public method makes one (no test scope, a short timeout). */
const apiCall = (api: string) => new ApiCall(api, 100, undefined);

const node = (id: string, over: Partial<UiNode> = {}): UiNode => ({
  id,
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
  ...over,
});

test('parseSelector: engines, exact and regex text, role attributes, chains', () => {
  expect(parseSelector('text="Save"')).toEqual([{ kind: 'text', text: 'Save', exact: true }]);
  expect(parseSelector('Save')).toEqual([{ kind: 'text', text: 'Save', exact: false }]);
  expect(parseSelector('id=list >> role=button[name="Add"][disabled=false] >> nth=-1')).toEqual([
    { kind: 'id', id: 'list' },
    { kind: 'role', role: 'button', name: { text: 'Add', exact: true }, disabled: false },
    { kind: 'nth', index: -1 },
  ]);
  const [re] = parseSelector('desc=/cart, \\d+ items/i');
  expect(re).toMatchObject({ kind: 'desc', exact: false });
  expect(formatSteps(parseSelector('id=list >> text=Milk >> nth=0'))).toBe("id=list >> text='Milk' >> nth=0");
});

test('parseSelector: errors name the API and say what to write', () => {
  expect(() => parseSelector('css=.x')).toThrow(
    'app.locator: unknown selector engine "css=" in "css=.x"; use text=, desc=, id=, class=, role=, has-text=, nth=, a relation (below=, above=, left-of=, right-of=, child-of=, has=, has-child=) or a state (enabled=, checked=, focused=, selected=, scrollable=)',
  );
  expect(() => parseSelector('nth=first')).toThrow('app.locator: nth= takes an integer');
  expect(() => parseSelector('role=button[size=2]')).toThrow('unknown role attribute [size]');
  expect(() => parseSelector('')).toThrow('app.locator: empty selector');
});

test('resolveSteps: chained steps search inside earlier matches; filter looks at descendants', () => {
  const all = [
    node('row1', { role: 'group', clickable: true }),
    node('t1', { text: 'Milk', parent: 'row1' }),
    node('b1', { role: 'button', text: 'Add', parent: 'row1' }),
    node('row2', { role: 'group', clickable: true }),
    node('t2', { text: 'Honey', parent: 'row2' }),
    node('b2', { role: 'button', text: 'Add', parent: 'row2' }),
  ];
  expect(resolveSteps(all, parseSelector('role=button[name="Add"]')).map((n) => n.id)).toEqual(['b1', 'b2']);
  expect(
    resolveSteps(all, [
      { kind: 'role', role: 'group' },
      { kind: 'filter', hasText: { text: 'honey', exact: false } },
      { kind: 'role', role: 'button' },
    ]).map((n) => n.id),
  ).toEqual(['b2']);
  expect(
    resolveSteps(all, [
      { kind: 'role', role: 'group' },
      { kind: 'filter', hasNotText: { text: 'Milk', exact: false } },
    ]).map((n) => n.id),
  ).toEqual(['row2']);
  // hasText reads a node's full text (its own and its descendants', joined by a space), as textContent does.
  expect(
    resolveSteps(all, [
      { kind: 'role', role: 'group' },
      { kind: 'filter', hasText: { text: 'honey add', exact: false } },
    ]).map((n) => n.id),
  ).toEqual(['row2']);
  expect(fullText(all, all[0]!)).toBe('Milk Add');
  // An empty field reads as '' (whether the runtime reports its text as '', null or its hint), and so does a node with no text at all.
  const form = [
    node('f1', { role: 'textbox', editable: true, text: '', hint: 'Email' }),
    node('f2', { role: 'textbox', editable: true, text: null, hint: 'Email' }),
    node('f3', { role: 'textbox', editable: true, text: 'Email', hint: 'Email' }),
    node('f4', { role: 'textbox', editable: true, text: 'ana', hint: 'Email', desc: 'Email field' }),
    node('i1', { role: 'image' }),
  ];
  expect(form.map((n) => fullText(form, n))).toEqual(['', '', '', 'ana', '']);
  expect(resolveSteps(form, [{ kind: 'filter', hasText: { text: '', exact: false } }]).map((n) => n.id)).toEqual([
    'f1',
    'f2',
    'f3',
    'f4',
    'i1',
  ]);
  expect(resolveSteps(form, [{ kind: 'filter', hasText: { text: /^$/, exact: false } }]).map((n) => n.id)).toEqual([
    'f1',
    'f2',
    'f3',
    'i1',
  ]);
  // or/and: union in screen order, intersection.
  expect(
    resolveSteps(all, [
      { kind: 'text', text: 'Honey', exact: true },
      { kind: 'or', other: [{ kind: 'text', text: 'Milk', exact: true }] },
    ]).map((n) => n.id),
  ).toEqual(['t1', 't2']);
  expect(
    resolveSteps(all, [
      { kind: 'role', role: 'button' },
      {
        kind: 'and',
        other: [
          { kind: 'role', role: 'group' },
          { kind: 'filter', hasText: { text: 'Honey', exact: false } },
          { kind: 'role', role: 'button' },
        ],
      },
    ]).map((n) => n.id),
  ).toEqual(['b2']);
});

test('withRetry: retries only the named codes, then fails naming the API', async () => {
  let calls = 0;
  const busy = () => new DeviceError('space_launch', toolError('NO_PROCESS_SLOT', 'all 1 process slots busy'));
  await expect(
    withRetry('space.launch', ['NO_PROCESS_SLOT'], 5_000, async () => (++calls < 3 ? Promise.reject(busy()) : 'ok')),
  ).resolves.toBe('ok');
  expect(calls).toBe(3);
  await expect(withRetry('space.launch', ['NO_PROCESS_SLOT'], 150, () => Promise.reject(busy()))).rejects.toThrow(
    /^space\.launch: still NO_PROCESS_SLOT after waiting 150ms/,
  );
  const other = new DeviceError('space_launch', toolError('APP_NOT_INSTALLED', 'no such app'));
  await expect(withRetry('space.launch', ['NO_PROCESS_SLOT'], 5_000, () => Promise.reject(other))).rejects.toBe(other);
});

test('screenshots degrade gracefully on runtimes without ui_screenshot (asked once)', async () => {
  let asked = 0;
  const client = {
    async call(name: string) {
      if (name === 'ui_screenshot') {
        asked++;
        throw new DeviceError(
          'ui_screenshot',
          toolError('NOT_SUPPORTED', 'ui_screenshot is not offered by this runtime'),
        );
      }
      throw new Error(`unexpected ${name}`);
    },
  };
  const driver = new AppDriver(client as never, 'sp_1', 'com.example', null, new Trajectory(), {
    actionTimeout: 100,
    expectTimeout: 100,
    screenshot: 'every-step',
  });
  expect(await driver.screenshots.take(apiCall('app.screenshot'))).toBeNull();
  expect(await driver.screenshots.take(apiCall('app.screenshot'))).toBeNull();
  expect(asked).toBe(1);
  // A step still runs and is recorded, just without a picture.
  await driver.steps.step(apiCall('app.launch'), { kind: 'app', title: 'Launch', selector: null }, async () => {});
  expect(driver.trajectory.steps[0]).toMatchObject({ result: 'ok', screenshots: {} });
});

test('device errors become nestwright errors that name the API first', async () => {
  const client = {
    call: async () =>
      Promise.reject(
        new DeviceError(
          'ui_tap',
          toolError('SPACE_BUSY', 'space sp_1 is leased by another session', { hint: 'Wait for the lease.' }),
        ),
      ),
  };
  const driver = new AppDriver(client as never, 'sp_1', 'com.example', null, new Trajectory(), {
    actionTimeout: 100,
    expectTimeout: 100,
  });
  const e = await driver.calls
    .call(apiCall('locator.tap'), 'ui_key', { space_id: 'sp_1', key: 'back' })
    .catch((x) => x);
  expect(e).toBeInstanceOf(NestwrightError);
  expect(e.message).toBe(
    'locator.tap: ui_tap: SPACE_BUSY: space sp_1 is leased by another session\n  hint: Wait for the lease.',
  );
});

test('the one call path: round trips counted, the last screen kept, DEVICE_DISCONNECTED fatal, nothing sent once the test ended', async () => {
  const sent: string[] = [];
  const screen = { snapshot_id: 's1', package: 'com.example', activity: '.Main', nodes: [] };
  const client = {
    async call(name: string) {
      sent.push(name);
      if (name === 'ui_observe') return screen;
      if (name === 'ui_key')
        throw new DeviceError(
          'ui_key',
          toolError('DEVICE_DISCONNECTED', 'the device runtime did not answer (ECONNREFUSED)'),
        );
      throw new Error(`unexpected ${name}`);
    },
  };
  const ended = new AbortController();
  const raised: Array<{ code: string; who: string }> = [];
  const scope = {
    signal: ended.signal,
    endReason: () => 'Test timeout of 100ms exceeded.',
    track: <T>(work: Promise<T>) => work,
    raised: (e: NestwrightError, from: { who(): string }) => void raised.push({ code: e.code, who: from.who() }),
    acknowledge: () => false,
  };
  const driver = new AppDriver(client as never, 'sp_1', 'com.example', '2', new Trajectory(), {
    actionTimeout: 100,
    expectTimeout: 100,
    scope,
  });
  await driver.calls.call(apiCall('app.observe'), 'ui_observe', { space_id: 'sp_1' } as never);
  expect(driver.calls.roundTrips).toBe(1);
  expect(driver.calls.lastSeen).toBe(screen);
  const lost = await driver.calls
    .call(apiCall('app.press'), 'ui_key', { space_id: 'sp_1', key: 'back' })
    .catch((x) => x);
  expect(lost).toBeInstanceOf(DeviceDisconnectedError);
  expect(lost.message).toMatch(/^app\.press: ui_key: DEVICE_DISCONNECTED/);
  expect(raised).toEqual([{ code: 'DEVICE_DISCONNECTED', who: 'com.example@2' }]);
  ended.abort();
  await expect(
    driver.calls.call(apiCall('app.observe'), 'ui_observe', { space_id: 'sp_1' } as never),
  ).rejects.toBeInstanceOf(TestEndedError);
  expect(sent).toEqual(['ui_observe', 'ui_key']);
});

test('the actuator is chosen once per driver: device-side when runtime_info offers selector_actions and the option allows it', async () => {
  let asked = 0;
  const client = (extensions: string[] | null) => ({
    info: async () => {
      asked++;
      if (!extensions) throw new Error('runtime_info failed');
      return { extensions };
    },
  });
  const driver = (c: unknown, deviceActions?: 'auto' | 'off') =>
    new AppDriver(c as never, 'sp_1', 'com.example', null, new Trajectory(), {
      actionTimeout: 100,
      expectTimeout: 100,
      ...(deviceActions ? { deviceActions } : {}),
    });
  const onDevice = driver(client(['selector_actions']));
  expect((await actuatorOf(onDevice)).where).toBe('device');
  expect(await actuatorOf(onDevice)).toBe(await actuatorOf(onDevice));
  expect(asked).toBe(1);
  expect((await actuatorOf(driver(client(['selector_actions']), 'off'))).where).toBe('client');
  expect((await actuatorOf(driver(client(['keyboard'])))).where).toBe('client');
  expect((await actuatorOf(driver(client(null)))).where).toBe('client');
  expect((await actuatorOf(driver(client(['selector_actions'])))).waitForCount).toBeDefined();
  expect((await actuatorOf(driver(client([])))).waitForCount).toBeUndefined();
});

test('the call context: its name prefixes the errors made from it, its deadline is its timeout from when it began', async () => {
  const d = new AppDriver({} as never, 'sp_1', 'com.example', null, new Trajectory(), {
    actionTimeout: 1000,
    expectTimeout: 2000,
    timeoutScale: 3,
  });
  const made = await d.wrap('app.launch', {}, async (call) => call);
  expect(made.api).toBe('app.launch');
  expect(made.timeout).toBe(3000);
  expect(made.deadline - made.startedAt).toBe(3000);
  expect(made.at).toBeUndefined(); // captured only when healing is on
  expect((await d.wrap('expect.toBeVisible', { kind: 'expect' }, async (call) => call)).timeout).toBe(6000);
  expect((await d.wrap('locator.tap', { timeout: 10 }, async (call) => call)).timeout).toBe(30);
  const e = made.error('nothing to launch', { code: 'NOT_SUPPORTED' });
  expect(e).toBeInstanceOf(NestwrightError);
  expect(e.message).toBe('app.launch: nothing to launch');
  expect(e.api).toBe('app.launch');
  expect(e.code).toBe('NOT_SUPPORTED');
  await expect(
    d.wrap('locator.fill', {}, () => {
      throw new Error('thrown before any await');
    }),
  ).rejects.toThrow('thrown before any await');
});

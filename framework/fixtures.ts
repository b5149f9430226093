import { test as base, type TestInfo } from '@playwright/test';
import { connectDevice, startEmbeddedDevice, type DeviceOptions, type EmbeddedDevice } from '../device-runtime/providers/index.js';
import { App } from './app.js';
import type { TestScope } from './driver.js';
import { NestwrightError } from './errors.js';
import { healerFor, healStore, type HealOption } from './heal/fixture.js';
import type { FingerprintStore } from './heal/fingerprint-store.js';
import { runWithAi, type AiOptionsInput } from './ai/index.js';
import type { Device } from './device.js';
import { setTestContext, Space, type TestContext } from './space.js';
import { Trajectory, TRAJECTORY_ATTACHMENT } from './trajectory.js';

/** What `use` takes, in playwright.config.ts and in test.use(). */
export interface NestwrightUse {
  /** How to reach the device: `{ provider: 'sim' }` (default) or `{ provider: 'nestspace', url, token }`. */
  device?: DeviceOptions;
  /** The app under test: a package name already in the space, or an APK path to install. */
  app?: string;
  /** Preferred control channel; the runtime falls back when it is unavailable. */
  channel?: 'accessibility' | 'shizuku' | 'vision';
  /** Default timeout of each action, ms. 0 = the test's timeout. */
  actionTimeout?: number;
  /** Record each test's trajectory: 'on', 'retain-on-failure' or 'off'. */
  trajectory?: 'on' | 'retain-on-failure' | 'off';
  /** Screenshots in the trajectory: 'off', 'only-on-failure' or 'every-step'. */
  screenshot?: 'off' | 'only-on-failure' | 'every-step';
  /**
   * Runtime permissions granted up front to each instance of the test (`['android.permission.CAMERA']`).
   * Without it an instance starts with none, whatever an earlier test granted.
   */
  permissions?: string[];
  /**
   * Where actions wait, act and verify: 'auto' (default) on the device in one round trip when
   * the runtime offers the `selector_actions` extension, else here; 'off' always here, one tool
   * call per look. `NESTWRIGHT_DEVICE_ACTIONS=off` sets 'off' for a run.
   */
  deviceActions?: 'auto' | 'off';
  /**
   * Selector healing: 'off', 'suggest' (default: a broken locator still fails the test, and the
   * report carries the proposed fix) or 'auto' (the step runs on the healed locator and is marked
   * `healed`); `{ mode, model }` lets a model arbitrate close calls.
   */
  heal?: HealOption;
  /** AI steps (app.ai.*): model, apiKey, baseURL, maxTurns, budget, cache… — see framework/ai/options.ts. */
  ai?: AiOptionsInput;
}

/** `actionTimeout`, `screenshot`, `permissions` and `channel` are Playwright's own options, reused. */
type Options = {
  trajectory: 'on' | 'retain-on-failure' | 'off';
  deviceActions: 'auto' | 'off';
  /** test.use({ app }) lands here (see `use` below); config `use.app` sets `app` itself. */
  _appOverride: string;
  /** test.use({ screenshot }) lands here: Playwright's own `screenshot` is worker-scoped. */
  _screenshotOverride: string;
  _trajectory: Trajectory;
  _testContext: TestContext;
  heal: HealOption;
  ai: AiOptionsInput | undefined;
  _ai: void;
};
type WorkerOptions = {
  _deviceOverride: DeviceOptions | undefined;
  _healStore: FingerprintStore;
};

/** Layer 1: options, including `device` and `app` as the config sets them. */
const withOptions = base.extend<Options & { app: App }, WorkerOptions & { device: Device; space: Space }>({
  device: [{ provider: 'sim' } as Device, { option: true, scope: 'worker' }],
  _deviceOverride: [undefined, { option: true, scope: 'worker' }],
  app: ['' as unknown as App, { option: true }],
  _appOverride: ['', { option: true }],
  _screenshotOverride: ['', { option: true }],
  trajectory: ['on', { option: true }],
  deviceActions: ['auto', { option: true }],
  heal: ['suggest', { option: true }],
  _healStore: [healStore, { scope: 'worker', box: true }],
  ai: [undefined, { option: true }],
  // The test's AI context (options, usage meter, action cache); cache entries written if it passed.
  _ai: [async ({ ai }, use, testInfo) => runWithAi(ai, testInfo, use), { auto: true, box: true }],
  _trajectory: [
    async ({ trajectory }, use, testInfo) => {
      const t = new Trajectory();
      await use(t);
      const keep = trajectory === 'on' || (trajectory === 'retain-on-failure' && testInfo.status !== testInfo.expectedStatus);
      if (keep && t.steps.length > 0) {
        await testInfo.attach(TRAJECTORY_ATTACHMENT, { body: JSON.stringify(t.toJSON(), null, 2), contentType: 'application/json' });
      }
    },
    { box: true },
  ],
  _testContext: [
    async ({ _trajectory, actionTimeout, screenshot, _screenshotOverride, permissions, device, deviceActions, heal, _healStore }, use, testInfo) => {
      const healer = healerFor(heal, _healStore, testInfo);
      const mode = _screenshotOverride || (typeof screenshot === 'string' ? screenshot : (screenshot as { mode?: string } | undefined)?.mode);
      // A device slower than a phone (the simulator's hostile profile) stretches every timeout,
      // the test's too, as test.slow() does.
      const timing = device.timing;
      const scale = timing?.timeoutScale ?? 1;
      if (scale !== 1 && testInfo.timeout > 0) testInfo.setTimeout(testInfo.timeout * scale);
      const abort = new AbortController();
      const fatal: Array<{ error: NestwrightError; who: string; acknowledged: boolean }> = [];
      const inFlight = new Set<Promise<unknown>>();
      const scope: TestScope = {
        signal: abort.signal,
        endReason: () => `Test timeout of ${testInfo.timeout}ms exceeded${scale !== 1 ? ` (${Math.round(testInfo.timeout / scale)}ms × ${scale}, the device's timing "${timing?.profile}")` : ''}.`,
        raised: (error, driver) => void fatal.push({ error, who: driver.who(), acknowledged: false }),
        // An async function awaiting the work, not work.then(…): a then-reaction on the step's
        // promise ends V8's async stack trace there, and healing finds the spec line by it.
        track: async (work) => {
          inFlight.add(work);
          try {
            return await work;
          } finally {
            inFlight.delete(work);
          }
        },
        acknowledge: (who) => {
          const mine = fatal.filter((f) => f.who === who && f.error.code === 'APP_CRASHED');
          for (const f of mine) f.acknowledged = true;
          return mine.length > 0;
        },
      };
      const ctx: TestContext = {
        trajectory: _trajectory,
        options: {
          actionTimeout: actionTimeout || 5_000,
          expectTimeout: (testInfo.project as { expect?: { timeout?: number } }).expect?.timeout ?? 5_000,
          screenshot: mode === 'every-step' || mode === 'only-on-failure' ? mode : 'off',
          timeoutScale: scale,
          deviceActions: process.env.NESTWRIGHT_DEVICE_ACTIONS === 'off' ? 'off' : deviceActions,
          ...(timing ? { timingProfile: timing.profile } : {}),
          scope,
          ...(healer ? { heal: healer } : {}),
        },
        launched: [],
        permissions: permissions ?? [],
        appPackage: null,
      };
      setTestContext(ctx);
      await use(ctx);
      // Stop what the timed-out body still runs before clean-up touches the device, so the
      // report shows the timeout and the step it cut short, not clean-up's errors. The body goes
      // on after Playwright's timeout: its step only fails (naming itself) once aborted, and that
      // error reaches the report only if it comes before the test ends — so wait for it here.
      if (testInfo.status === 'timedOut' || testInfo.status === 'interrupted') {
        abort.abort();
        await settleWithin([...inFlight], STEP_END_GRACE_MS);
      }
      setTestContext(null);
      healer?.finish(testInfo);
      // Every instance the test launched (app, newInstance(), space.launch()) is stopped and wiped.
      for (const app of ctx.launched.reverse()) await app.close().catch(() => {});
      // A crash or a lost device ends the test: one that was caught and carried on from still fails it.
      const ignored = fatal.find((f) => !f.acknowledged);
      if (ignored && testInfo.status === 'passed') {
        throw new NestwrightError(
          'test',
          `${ignored.error.code} was raised (${ignored.error.message.split('\n')[0]}) and the test carried on. ` +
            `${ignored.error.code === 'APP_CRASHED' ? 'A crash ends the test: let the error end it, or, to check a crash on purpose, assert it with await expect(app).toHaveCrashed().' : 'A lost device ends the test: let the error end it.'}`,
          { code: 'CRASH_IGNORED', cause: ignored.error },
        );
      }
    },
    // Auto: a test that launches apps itself (device.newSpace(), space.launch) without the app
    // fixture still gets the test's options, trajectory and healing.
    { box: true, auto: true },
  ],
  space: [
    async ({ device }, use, workerInfo) => {
      const space = await Space.create(device.client, `worker-${workerInfo.parallelIndex}-${workerInfo.workerIndex}`);
      await use(space);
      await space.delete().catch(() => {});
    },
    { scope: 'worker', box: true },
  ],
});

/**
 * Layer 2: the same names as fixtures. `device` becomes the connected device (its options plus
 * client/newSpace), `app` a fresh instance of the app under test, launched in the worker's space
 * and wiped after the test — the way Playwright's `page` is a fresh tab.
 */
const fixtures = withOptions.extend<{ app: App }, { device: Device }>({
  device: [
    async ({ device: configured, _deviceOverride }, use) => {
      const options = (_deviceOverride ?? configured ?? { provider: 'sim' }) as DeviceOptions;
      // The run's simulator has the config's faults and slots. A file that asks for other ones
      // with test.use({ device: devices.sim({ faults: 'hostile' }) }) gets a simulator of its own
      // for its worker, rather than having them silently ignored.
      let own: EmbeddedDevice | null = null;
      if (_deviceOverride?.provider === 'sim' && !_deviceOverride.url && (_deviceOverride.faults || _deviceOverride.seed !== undefined || _deviceOverride.slots)) {
        const { faults, seed, slots } = _deviceOverride;
        own = await startEmbeddedDevice({ ...(faults ? { faults } : {}), ...(seed !== undefined ? { seed } : {}), ...(slots ? { slots } : {}) });
      }
      const conn = await connectDevice(own ? { provider: 'sim', url: own.url, token: own.token } : options);
      const extra: Space[] = [];
      const info = await conn.client.info();
      const device: Device = {
        ...options,
        timing: info?.timing ? { profile: info.timing.profile, timeoutScale: info.timing.timeout_scale } : null,
        client: conn.client,
        info: () => conn.client.info(),
        newSpace: async (name?: string) => {
          const s = await Space.create(conn.client, name ?? `extra-${extra.length}`);
          extra.push(s);
          return s;
        },
      };
      await use(device);
      for (const s of extra) await s.delete().catch(() => {});
      await conn.close();
      await own?.close();
    },
    { scope: 'worker' },
  ],

  app: async ({ app: configured, _appOverride, space, _testContext, device }, use, testInfo) => {
    const source = _appOverride || (configured as unknown as string);
    if (!source || typeof source !== 'string') {
      throw new NestwrightError('app', "set use.app in playwright.config.ts, or test.use({ app: 'fixtures/apks/notes.apk' }) — a package name or an APK path.", { code: 'USAGE' });
    }
    _testContext.appPackage = await space.ensure(source);
    const app = await space.launch(source);
    _testContext.trajectory.meta = {
      device: device.provider,
      space: space.id,
      instance: app.instance,
      package: app.package,
      ...(process.env.NESTWRIGHT_FAULTS || (device.provider === 'sim' && device.faults) ? { faultProfile: process.env.NESTWRIGHT_FAULTS || (device as { faults?: string }).faults } : {}),
      options: { app: source, actionTimeout: _testContext.options.actionTimeout, screenshot: _testContext.options.screenshot },
    };
    await use(app);
    if (testInfo.status !== testInfo.expectedStatus) await attachFailure(app, _testContext.trajectory, testInfo).catch(() => {});
  },
});

/**
 * How long clean-up waits for the timed-out body's steps to fail. They end at once when aborted
 * (tool calls and waits stop on the signal); only work that does not listen to it (a model's
 * answer to an AI step) can take longer, and is then not waited for.
 */
const STEP_END_GRACE_MS = 2_000;

/** Until every promise has settled, or `ms` pass. */
async function settleWithin(work: Array<Promise<unknown>>, ms: number): Promise<void> {
  if (work.length === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([Promise.allSettled(work), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/**
 * A failed test keeps what explains it: the instance's logcat and the full accessibility tree,
 * as attachments the trajectory names (`failure`) so reports can show them on the test.
 */
async function attachFailure(app: App, trajectory: Trajectory, testInfo: TestInfo): Promise<void> {
  const failure: { logcat?: string; tree?: string } = {};
  const lines = await app.driver.watch.logcat(500).catch(() => null);
  if (lines) {
    await testInfo.attach('logcat', { body: lines.join('\n') + '\n', contentType: 'text/plain' });
    failure.logcat = 'logcat';
  }
  const tree = await app.driver.calls.afterTest('test', 'ui_observe', { space_id: app.driver.spaceId, detail: 'full', max_nodes: 5000 }).catch(() => null);
  if (tree) {
    await testInfo.attach('full tree', { body: JSON.stringify(tree, null, 2), contentType: 'application/json' });
    failure.tree = 'full tree';
  }
  trajectory.failure = failure;
}

type NestwrightTest = typeof fixtures & {
  /** Options for this file or describe block: `test.use({ app: 'fixtures/apks/shop.apk' })`. */
  use(options: NestwrightUse): void;
};

/**
 * `test.use()` takes the same options as the config's `use`. `app` and `device` are both options
 * and fixtures, so their test.use values are routed to the option layer here; `screenshot` is
 * Playwright's worker option, routed to a test option so a describe block can set it.
 */
const originalUse = fixtures.use.bind(fixtures);
(fixtures as { use: unknown }).use = (options: NestwrightUse & Record<string, unknown>) => {
  const { app, device, screenshot, ...rest } = options;
  originalUse({
    ...rest,
    ...(app !== undefined ? { _appOverride: app } : {}),
    ...(screenshot !== undefined ? { _screenshotOverride: screenshot } : {}),
    ...(device !== undefined ? { _deviceOverride: device } : {}),
  } as never);
};

/**
 * Playwright's `test` with nestwright's fixtures: `device` (worker), `space` (worker), `app`
 * (test: a fresh instance of `use.app`, stopped and wiped after it), and `test.use()` taking
 * {@link NestwrightUse}.
 *
 * @example
 * ```ts
 * import { test, expect } from 'nestwright';
 *
 * test.use({ app: 'fixtures/apks/notes.apk' });
 *
 * test('creates a note', async ({ app }) => {
 *   await app.getByText('New note').tap();
 *   await app.getById('title').fill('Buy milk');
 *   await app.getByRole('button', { name: 'Save' }).tap();
 *   await expect(app.getByText('Buy milk')).toBeVisible();
 * });
 * ```
 */
export const test = fixtures as NestwrightTest;

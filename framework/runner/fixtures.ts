import { _baseTest, type Fixtures, type TestType, type WorkerInfo } from '@playwright/test';
import { dirname } from 'node:path';
import type { EmbeddedDevice } from '../../device-runtime/providers/run-wide.js';
import type { App } from '../core/app.js';
import type { TestScope } from '../core/driver.js';
import { NestwrightError } from '../core/errors.js';
import type { FingerprintStore } from '../heal/fingerprint-store.js';
import type { Device } from '../core/device.js';
import type { Space } from '../core/space.js';
import type { TestContext } from '../core/running-test.js';
import type { Trajectory } from '../core/trajectory.js';
import { TRAJECTORY_ATTACHMENT } from '../core/trajectory-attachment.js';
import { deviceLogsFixtures, videoFixtures } from './features.js';
import { loadRuntime } from '../runtime-load.js';
import {
  fixtureNames,
  renamedOption,
  trajectoryScreenshots,
  type FeatureOption,
  type NestwrightTestOptions,
  type NestwrightWorkerOptions,
} from './use-options.js';

export type {
  NestwrightOptions,
  NestwrightUse,
  NestwrightTestOptions,
  NestwrightWorkerOptions,
} from './use-options.js';

type TestOptions = Omit<NestwrightTestOptions, FeatureOption> & {
  /**
   * `use.app`, the old name of `apk`: declared only so a config that still sets it gets an error
   * naming `apk` rather than Playwright's "cannot be overridden". The `app` fixture replaces it
   * (typed as the fixture, so the fixture's override below is typed; never set, it is undefined).
   */
  app: App | undefined;
  _trajectory: Trajectory;
  _failures: void;
  _options: void;
};
type WorkerOptions = Omit<NestwrightWorkerOptions, FeatureOption> & {
  /** `use.device`, the old name of `deviceOptions`, kept for its error as `app` is above. */
  device: Device | undefined;
  _healStore: FingerprintStore;
};

/**
 * The root: Playwright's bare test type (`_baseTest`, exported by `@playwright/test` and typed in
 * its `test.d.ts`), the one its own `test` extends with the browser fixtures. Those include two
 * automatic per-test fixtures (trace recording, context configuration) that run for every test
 * even when it opens no browser, a share of each test's time that `npm run bench suite` measures.
 * A test that needs a browser or `request` alongside the
 * app merges them in: `mergeTests(test, browserTest)`.
 */
const base = _baseTest;

/** The folder relative APK paths are resolved from: the config file's, as for every path of a Playwright config. */
const apkBase = (workerInfo: WorkerInfo): string | undefined =>
  workerInfo.config.configFile ? dirname(workerInfo.config.configFile) : undefined;

/**
 * Layer 1: options. `actionTimeout`, `screenshot`, `permissions` and `channel` have the names and
 * defaults of Playwright's options (its `test`, with them, is not the root); the rest are
 * nestwright's (see {@link NestwrightUse} for what each does). `box: 'self'`: an option is a value,
 * and its teardown step (one per option per test otherwise, each a message to the runner) would
 * report nothing.
 */
const optionFixtures: Fixtures<TestOptions, WorkerOptions> = {
  deviceOptions: [{ provider: 'sim' }, { option: true, scope: 'worker', box: 'self' }],
  screenshot: ['off', { option: true, scope: 'worker', box: 'self' }],
  actionTimeout: [0, { option: true, box: 'self' }],
  permissions: [undefined, { option: true, box: 'self' }],
  channel: [undefined, { option: true, scope: 'worker', box: 'self' }],
  device: [undefined, { option: true, scope: 'worker', box: 'self' }],
  apk: [undefined, { option: true, box: 'self' }],
  app: [undefined, { option: true, box: 'self' }],
  trajectory: ['on', { option: true, box: 'self' }],
  deviceActions: ['auto', { option: true, box: 'self' }],
  heal: ['suggest', { option: true, box: 'self' }],
  // The app's world, with Playwright's names: each instance the test launches starts with them.
  geolocation: [undefined, { option: true, box: 'self' }],
  locale: [undefined, { option: true, box: 'self' }],
  timezoneId: [undefined, { option: true, box: 'self' }],
  colorScheme: [undefined, { option: true, box: 'self' }],
  recordHar: [undefined, { option: true, box: 'self' }],
  _healStore: [
    async ({}, use, workerInfo) => (await loadRuntime()).healStore({}, use, workerInfo),
    { scope: 'worker', box: true },
  ],
  ai: [undefined, { option: true, box: 'self' }],
  skills: [undefined, { option: true, box: 'self' }],
  // Whose a failure is (framework/failure/): first, so it is torn down last and sees every error.
  _failures: [
    async ({ _trajectory }, use, testInfo) => (await loadRuntime()).runWithFailures(_trajectory, use, testInfo),
    { auto: true, box: 'self' },
  ],
  // A mistyped key or value of the test's options fails the test before anything reads it (the
  // config's were checked by the global setup; these may come from test.use()). First: auto
  // fixtures are set up in the order they are declared.
  _options: [
    async ({ trajectory, deviceActions, colorScheme, heal, ai, skills }, use) => {
      (await loadRuntime()).checkOptions({ trajectory, deviceActions, colorScheme, heal, ai, skills });
      await use();
    },
    { auto: true, box: 'self' },
  ],
  // The per-test plumbing (_trajectory, _testContext, _ai, _skills) is `box: 'self'`: no step of its own,
  // which `box: true` still makes (hidden in reports, but begun, ended and sent to the runner
  // twice per test each: six steps per test, with their stacks, for nothing shown).
  _trajectory: [
    async ({ trajectory }, use, testInfo) => {
      const t = new (await loadRuntime()).Trajectory();
      await use(t);
      const keep =
        trajectory === 'on' || (trajectory === 'retain-on-failure' && testInfo.status !== testInfo.expectedStatus);
      if (keep && t.steps.length > 0) {
        // Pushed rather than testInfo.attach(): the same attachment for the reporters, without
        // the test's output directory that attach() creates (and Playwright then removes) or
        // an "Attach" step, on every passing test.
        testInfo.attachments.push({
          name: TRAJECTORY_ATTACHMENT,
          body: Buffer.from(JSON.stringify(t.toJSON(), null, 2)),
          contentType: 'application/json',
        });
      }
    },
    { box: 'self' },
  ],
};

/**
 * Layer 2: the fixtures built from the options, the way Playwright's `page` is built from
 * `baseURL` and the browser options. `device` is the connected device (its options plus
 * client/newSpace), `space` the worker's space, `app` a fresh instance of `apk` launched in it
 * and wiped after the test — the way `page` is a fresh tab.
 */
const appFixtures: Fixtures<
  { app: App; _testContext: TestContext; _ai: void; _skills: void },
  { device: Device; space: Space },
  TestOptions,
  WorkerOptions
> = {
  device: [
    async ({ deviceOptions, channel, device: legacy }, use, workerInfo) => {
      const { checkOptions, simSettings, startEmbeddedDevice, connectDevice, Space } = await loadRuntime();
      if (legacy !== undefined) throw renamedOption('device', { config: legacy });
      checkOptions({ deviceOptions, channel });
      const options = deviceOptions ?? { provider: 'sim' };
      // The run's simulator has the config's faults and slots. A file that asks for other ones
      // with test.use({ deviceOptions: devices.sim({ faults: 'hostile' }) }) gets a simulator of
      // its own for its worker, rather than having them silently ignored.
      let own: EmbeddedDevice | null = null;
      if (
        options.provider === 'sim' &&
        !options.url &&
        simSettings(options) !== simSettings(Reflect.get(workerInfo.project.use, 'deviceOptions'))
      ) {
        const { faults, seed, slots } = options;
        own = await startEmbeddedDevice({
          ...(faults ? { faults } : {}),
          ...(seed !== undefined ? { seed } : {}),
          ...(slots ? { slots } : {}),
        });
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
          const s = await Space.create(conn.client, name ?? `extra-${extra.length}`, apkBase(workerInfo));
          extra.push(s);
          return s;
        },
      };
      await use(device);
      for (const s of extra) await s.release().catch(() => {});
      await conn.close();
      await own?.close();
    },
    { scope: 'worker' },
  ],

  space: [
    async ({ device }, use, workerInfo) => {
      const { Space, connected } = await loadRuntime();
      const space = await Space.create(
        connected(device).client,
        `worker-${workerInfo.parallelIndex}-${workerInfo.workerIndex}`,
        apkBase(workerInfo),
      );
      await use(space);
      await space.release().catch(() => {});
    },
    { scope: 'worker', box: true },
  ],

  _testContext: [
    async (
      {
        _trajectory,
        actionTimeout,
        screenshot,
        permissions,
        device,
        deviceActions,
        heal,
        _healStore,
        geolocation,
        locale,
        timezoneId,
        colorScheme,
        recordHar,
      },
      use,
      testInfo,
    ) => {
      const {
        connected,
        platformPart,
        healerFor,
        Lifecycle,
        TestContext,
        TestNetwork,
        TEST_NETWORK,
        networkFeature,
        healFeature,
        worldFeature,
        runTest,
        settleWithin,
        STEP_END_GRACE_MS,
        testEnd,
        setupFailed,
      } = await loadRuntime();
      connected(device);
      // Baselines are per device (`<name>-<project>-<platform>.png`): Playwright's own fixture sets the suffix to the OS.
      testInfo.snapshotSuffix = platformPart(await device.info().catch(() => null));
      const healer = healerFor(heal, _healStore, testInfo);
      const shots = trajectoryScreenshots(screenshot);
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
        endReason: () =>
          `Test timeout of ${testInfo.timeout}ms exceeded${scale !== 1 ? ` (${Math.round(testInfo.timeout / scale)}ms × ${scale}, the device's timing "${timing?.profile}")` : ''}.`,
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
      const lifecycle = new Lifecycle();
      const ctx = new TestContext(
        _trajectory,
        {
          actionTimeout: actionTimeout || 5_000,
          expectTimeout: (testInfo.project as { expect?: { timeout?: number } }).expect?.timeout ?? 5_000,
          screenshot: shots,
          timeoutScale: scale,
          deviceActions: process.env.NESTWRIGHT_DEVICE_ACTIONS === 'off' ? 'off' : deviceActions,
          ...(timing ? { timingProfile: timing.profile } : {}),
          scope,
          ...(healer ? { heal: healer } : {}),
          lifecycle,
        },
        permissions ?? [],
        lifecycle,
      );
      const network = new TestNetwork(recordHar);
      ctx.set(TEST_NETWORK, network);
      ctx.lifecycle.add(networkFeature(network));
      if (healer) ctx.lifecycle.add(healFeature(healer));
      const world = worldFeature({ geolocation, locale, timezoneId, colorScheme });
      if (world) ctx.lifecycle.add(world);
      await runTest(ctx, () => use(ctx));
      // Stop what the timed-out body still runs before clean-up touches the device, so the
      // report shows the timeout and the step it cut short, not clean-up's errors. The body goes
      // on after Playwright's timeout: its step only fails (naming itself) once aborted, and that
      // error reaches the report only if it comes before the test ends — so wait for it here.
      if (testInfo.status === 'timedOut' || testInfo.status === 'interrupted') {
        abort.abort();
        await settleWithin([...inFlight], STEP_END_GRACE_MS);
      }
      // The test's features end while its instances still run (the HAR written or attached, the
      // proxies taken off, video and logs kept or dropped); an error of theirs fails the test once
      // the instances are gone.
      let ended: unknown = null;
      await ctx.lifecycle.ended(testEnd(testInfo, ctx)).catch((e: unknown) => void (ended = e));
      // Every instance the test launched (app, newInstance(), space.launch()) is stopped and wiped.
      for (const app of ctx.launched.reverse()) await app.close().catch(() => {});
      // test.use({ app: '…' }) replaces the `app` fixture with the string, so nothing of ours ran
      // for it: found here, after the test, when the test asked for `app` and the fixture never ran;
      // what the body then threw (`app.getByText is not a function`) follows from it: quoted in it.
      // Not when what `app` needs (`space`) failed or timed out in its setup: the body never ran.
      if (
        !ctx.appFixture &&
        ctx.launched.length === 0 &&
        fixtureNames(testInfo.fn).includes('app') &&
        !setupFailed(testInfo)
      ) {
        const then = testInfo.errors.splice(0).map((e) => (e.message ?? e.value ?? '').split('\n')[0]!);
        throw renamedOption('app', { at: testInfo, then: then.filter(Boolean) });
      }
      // A crash or a lost device ends the test: one that was caught and carried on from still fails it.
      if (ended) throw ended;
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
    { box: 'self', auto: true },
  ],

  // The test's AI context (options, usage meter, action cache; entries written if it passed) and
  // skill options, each in the test's context.
  _ai: [
    async ({ ai, _testContext }, use, testInfo) => (await loadRuntime()).runWithAi(_testContext, ai, testInfo, use),
    { auto: true, box: 'self' },
  ],
  _skills: [
    async ({ skills, _testContext }, use, testInfo) =>
      (await loadRuntime()).runWithSkills(_testContext, skills, testInfo, use),
    { auto: true, box: 'self' },
  ],

  app: async ({ app: legacy, apk, space, _testContext, device, recordHar }, use, testInfo) => {
    const { failureTreeFeature } = await loadRuntime();
    _testContext.appFixture = true;
    if (legacy !== undefined) throw renamedOption('app', { config: legacy });
    if (!apk || typeof apk !== 'string') {
      throw new NestwrightError(
        'app',
        "set use.apk in playwright.config.ts, or test.use({ apk: 'fixtures/apks/notes.apk' }) — an APK path, or the package of an app already in the space.",
        { code: 'USAGE' },
      );
    }
    _testContext.appPackage = await space.ensure(apk);
    const app = await space.launchForTest(apk);
    const faultProfile = process.env.NESTWRIGHT_FAULTS || (device.provider === 'sim' ? device.faults : undefined);
    _testContext.trajectory.meta = {
      device: device.provider,
      space: space.id,
      instance: app.instance,
      package: app.package,
      ...(faultProfile ? { faultProfile } : {}),
      options: { apk, actionTimeout: _testContext.options.actionTimeout, screenshot: _testContext.options.screenshot },
    };
    // use.recordHar records from the first request: the instance is routed through its proxy now.
    if (recordHar) await app.network.wrap('use.recordHar', (call) => app.network.start(call));
    _testContext.lifecycle.add(failureTreeFeature(app));
    await use(app);
  },
};

/**
 * The test-scoped fixtures `test` has, as Playwright's `PlaywrightTestArgs` (`page`, …) are for its `test`.
 *
 * @example
 * ```ts
 * import { test as base, type NestwrightTestArgs } from 'nestwright';
 *
 * // A fixture built on the app: the app, signed in.
 * const test = base.extend<{ signedIn: NestwrightTestArgs['app'] }>({
 *   signedIn: async ({ app }, use) => {
 *     await app.getById('email').fill('ana@example.com');
 *     await app.getByRole('button', { name: 'Sign in' }).tap();
 *     await use(app);
 *   },
 * });
 * ```
 */
export interface NestwrightTestArgs {
  /** A fresh instance of `use.apk`, launched in the worker's space for the test and stopped and wiped after it. */
  app: App;
}

/** The worker-scoped fixtures `test` has, as Playwright's `PlaywrightWorkerArgs` (`browser`, …) are for its `test`. See {@link Device} and {@link Space}. */
export interface NestwrightWorkerArgs {
  /** The connected device `use.deviceOptions` names: one connection per worker. */
  device: Device;
  /** The worker's space on the device, deleted when the worker ends. */
  space: Space;
}

/** nestwright's `test`: see framework/index.ts. */
export type NestwrightTest = TestType<
  NestwrightTestArgs & NestwrightTestOptions,
  NestwrightWorkerArgs & NestwrightWorkerOptions
>;

/**
 * nestwright's `test`: Playwright's bare test type extended with each layer in turn — options,
 * the fixtures built from them, then each feature's (features.ts) — by `extend`, which its caller
 * writes as `(t, f) => t.extend(f)`. Playwright takes the location of a `test.extend()` call
 * from its caller's stack frame, through that file's source map: called from here, it parsed
 * this chunk's map (about 16 ms of the runner's start); the package's entry file, which calls it,
 * has a map of a few lines. (A worker still parses this map at its first step, whose stack
 * Playwright maps.)
 */
export function nestwrightTest(
  extend: (t: TestType<any, any>, f: Fixtures<any, any, any, any>) => TestType<any, any>,
): NestwrightTest {
  const layers: Array<Fixtures<any, any, any, any>> = [optionFixtures, appFixtures, deviceLogsFixtures, videoFixtures];
  return layers.reduce(extend, base) as NestwrightTest;
}

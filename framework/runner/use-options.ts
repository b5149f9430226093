import type { PlaywrightWorkerOptions } from '@playwright/test';
import { inspect } from 'node:util';
import type { DeviceOptions } from '../../device-runtime/providers/index.js';
import type { AiOptionsInput } from '../ai/index.js';
import type { DeviceLogsMode } from '../device-logs/index.js';
import type { SkillOptions } from '../skills/options.js';
import type { DriverOptions } from '../core/driver.js';
import { NestwrightError } from '../core/errors.js';
import type { HealOption } from '../heal/fixture.js';
import type { RecordHarOptions } from '../network/index.js';
import type { WorldOptions } from '../world/index.js';
import type { VideoOption } from '../video/options.js';

/**
 * Every option `test` declares, each documented once, with the type a fixture reads it as: what
 * `use` takes in playwright.config.ts and in test.use() ({@link NestwrightUse}), and what a
 * user's `test.extend()` fixture can depend on ({@link NestwrightTestOptions},
 * {@link NestwrightWorkerOptions}) are derived from it. The defaults are in fixtures.ts.
 *
 * Options and fixtures have different names, as Playwright's `baseURL` (option) and `page`
 * (fixture) do: `apk` says which app the `app` fixture launches, `deviceOptions` which device the
 * `device` fixture connects to. One name for both would need the option's value typed as the
 * fixture's and a `test.use` patched to reroute it, and that patch is lost as soon as a user
 * calls `test.extend()`. With distinct names `test.use` is Playwright's own, so a user's extended
 * `test` keeps every option.
 *
 * Why one `apk` key for both an APK path and an installed package's name, rather than `apk` and
 * `package`: Playwright cascades options key by key, so a file's `test.use({ package })` would
 * leave the config's `apk` in force, and `test.use({ apk: undefined })` resets to the config's
 * value, not to nothing. With one key the innermost `test.use` always names the app.
 */
export interface NestwrightOptions {
  /**
   * How to reach the device: `{ provider: 'sim' }` (default), `devices.nestspace({ url, token })`, … —
   * the `device` fixture's options. Worker-scoped: a file that asks for another device gets a worker of its own.
   */
  deviceOptions: DeviceOptions;
  /**
   * The app the `app` fixture launches: an APK path (`'fixtures/apks/notes.apk'`, installed into
   * the worker's space once; a relative one is resolved from the config file's folder), or the
   * package of an app already in the space (`'com.android.settings'`).
   */
  apk: string | undefined;
  /**
   * The control channel the suite means to run on, reported with each test (the report's
   * `channel` parameter). The runtime picks the channel itself and each observation names the
   * one in use: the protocol has no way to ask for one. Worker-scoped, as Playwright's option of the same name.
   */
  channel: 'accessibility' | 'shizuku' | 'vision' | undefined;
  /** Default timeout of each action, ms; 0 (default) = the test's timeout (Playwright's option of the same name). */
  actionTimeout: number;
  /** Record each test's trajectory: 'on' (default), 'retain-on-failure' or 'off'. */
  trajectory: 'on' | 'retain-on-failure' | 'off';
  /**
   * Playwright's own option, for the trajectory: 'on' (a screenshot after every step),
   * 'only-on-failure' (one, for the failed step) or 'off' (default). Worker-scoped, as in
   * Playwright: set it in the config or at the top of a file.
   */
  screenshot: PlaywrightWorkerOptions['screenshot'];
  /**
   * Runtime permissions granted up front to each instance of the test (`['android.permission.CAMERA']`).
   * Without it an instance starts with none, whatever an earlier test granted.
   */
  permissions: string[] | undefined;
  /**
   * Where actions wait, act and verify: 'auto' (default) on the device in one round trip when
   * the runtime offers the `selector_actions` extension, else here; 'off' always here, one tool
   * call per look. `NESTWRIGHT_DEVICE_ACTIONS=off` sets 'off' for a run.
   */
  deviceActions: 'auto' | 'off';
  /**
   * Selector healing: 'off', 'suggest' (default: a broken locator still fails the test, and the
   * report carries the proposed fix) or 'auto' (the step runs on the healed locator and is marked
   * `healed`); `{ mode, model }` lets a model arbitrate close calls.
   */
  heal: HealOption;
  /** AI steps (app.ai.*): model, apiKey, baseURL, maxTurns, budget, cache… — see framework/ai/options.ts. */
  ai: AiOptionsInput | undefined;
  /** Skill replays (app.runSkill): `{ ai: 'fallback' }` lets the AI agent finish a step whose target is gone (docs/skills.md). */
  skills: SkillOptions | undefined;
  /** Where each instance of the test is (Playwright's option): `{ latitude, longitude, accuracy? }`; docs/app-world.md. */
  geolocation: WorldOptions['geolocation'];
  /** Each instance's locale, e.g. `'de-DE'` (Playwright's option; default `'en-US'`). */
  locale: WorldOptions['locale'];
  /** Each instance's time zone, e.g. `'Asia/Tokyo'` (Playwright's option; default `'UTC'`). */
  timezoneId: WorldOptions['timezoneId'];
  /** `'dark'` for dark mode (Playwright's option; default light). */
  colorScheme: WorldOptions['colorScheme'];
  /** Record every request of the test to a HAR file or `.zip` archive (Playwright's option): `{ path, urlFilter?, redact?, content?, mode? }`; docs/network.md. */
  recordHar: RecordHarOptions | undefined;
  /**
   * The log lines of every instance the test used (its own processes, not the device's), each
   * attached as `logcat <package>@<instance>`, with its crashes and ANRs as `crash <package>@<instance>`:
   * 'retain-on-failure' (default) when the test failed, 'on' always, 'off' never
   * (docs/fixtures.md#device-logs).
   */
  deviceLogs: DeviceLogsMode;
  /**
   * Record each instance's own screen (Playwright's option): 'off' (default), 'on',
   * 'retain-on-failure' (kept only when the test fails) or 'on-first-retry'; `{ mode, size }`
   * scales the picture down to fit `size` (default 800×800). The video is a WebM attached to the
   * test as `video`, with the step titles beside it as a WebVTT track; docs/video.md.
   * Worker-scoped, as Playwright's: set it in the config or at the top of a file.
   *
   * @example
   * ```ts
   * // playwright.config.ts
   * export default defineConfig({ use: { video: 'retain-on-failure' } });
   *
   * // or per file, smaller:
   * test.use({ video: { mode: 'on', size: { width: 360, height: 800 } } });
   * ```
   */
  video: VideoOption;
}

/**
 * The options a lifecycle feature declares with its own fixtures (its folder's `fixture.ts`),
 * rather than fixtures.ts: each is listed here once, as part of the option's declaration.
 */
export const FEATURE_OPTIONS = ['deviceLogs', 'video'] as const;
export type FeatureOption = (typeof FEATURE_OPTIONS)[number];

/**
 * The options that are worker-scoped, as Playwright's `screenshot` and `video` are: set in the
 * config or at the top of a file. `video` must be: Playwright's own test declares it worker-scoped,
 * and `mergeTests(test, browserTest)` refuses one name with two scopes.
 */
export const WORKER_OPTIONS = ['deviceOptions', 'screenshot', 'channel', 'video'] as const;
type WorkerOption = (typeof WORKER_OPTIONS)[number];

/**
 * What `use` takes, in playwright.config.ts and in test.use(): every option of
 * {@link NestwrightOptions}, each optional.
 */
export interface NestwrightUse extends Partial<NestwrightOptions> {}

/**
 * The test-scoped options `test` declares, as Playwright's `PlaywrightTestOptions` are: what a
 * fixture of a user's `test.extend()` can read, and what `test.use()` sets per file or describe.
 * Each is described in {@link NestwrightOptions}.
 *
 * @example
 * ```ts
 * import { test as base, type NestwrightTestOptions } from 'nestwright';
 *
 * // A fixture that reads an option: which app this test runs.
 * const test = base.extend<{ appUnderTest: NestwrightTestOptions['apk'] }>({
 *   appUnderTest: async ({ apk }, use) => use(apk),
 * });
 * test.use({ apk: 'fixtures/apks/notes.apk', trajectory: 'retain-on-failure' });
 * ```
 */
export interface NestwrightTestOptions extends Omit<NestwrightOptions, WorkerOption> {}

/**
 * The worker-scoped options `test` declares, as Playwright's `PlaywrightWorkerOptions` are: set
 * in the config or at the top of a file (a file that asks for another device gets a worker of
 * its own). Each is described in {@link NestwrightOptions}.
 *
 * @example
 * ```ts
 * import { test as base, devices, type NestwrightWorkerOptions } from 'nestwright';
 *
 * // A worker fixture that reads the option: the provider this worker's device comes from.
 * const test = base.extend<{}, { provider: NestwrightWorkerOptions['deviceOptions']['provider'] }>({
 *   provider: [async ({ deviceOptions }, use) => use(deviceOptions.provider), { scope: 'worker' }],
 * });
 * test.use({ deviceOptions: devices.sim({ faults: 'hostile' }) });
 * ```
 */
export interface NestwrightWorkerOptions extends Pick<NestwrightOptions, WorkerOption> {}

/** The keys `use` had before options and fixtures got different names, and their new names. */
export const RENAMED_OPTIONS = { app: 'apk', device: 'deviceOptions' } as const;
type RenamedKey = keyof typeof RENAMED_OPTIONS;

const FIXTURE_IS = { app: 'the launched instance of the app', device: 'the connected device' } as const;

/**
 * The error for an option set under its old name, from where Playwright hands over the value:
 * the config's `use.app` / `use.device` reach the fixtures as the declared old options (and the
 * global setup, before any worker); a `test.use({ device })` value reaches the `space` fixture
 * in place of the device; a `test.use({ app })` value replaces the `app` fixture, so it is found
 * when the test asked for `app` and the fixture never ran (`at`: the test, whose line the report
 * shows).
 */
export function renamedOption(
  key: RenamedKey,
  from:
    | { config: unknown }
    | {
        value?: unknown;
        at?: { file: string; line: number; column: number };
        /** What the test then failed with, on the value it got instead of the fixture's. */
        then?: string[];
      },
): NestwrightError {
  const to = RENAMED_OPTIONS[key];
  const what = `the option is \`${to}\` now: \`${key}\` is the fixture, ${FIXTURE_IS[key]}`;
  if ('config' in from) {
    return new NestwrightError(
      `use.${key}`,
      `${what}. In playwright.config.ts write use: { ${to}: ${show(from.config)} }.`,
      { code: 'OPTION_RENAMED' },
    );
  }
  const fix =
    from.value !== undefined
      ? `write test.use({ ${to}: ${show(from.value)} })`
      : `write test.use({ ${to}: … }) with the value you gave \`${key}\``;
  const then = from.then?.length
    ? ` (The test then failed on the value it got for \`${key}\`: ${from.then.join('; ')}.)`
    : '';
  const error = new NestwrightError(
    `test.use({ ${key} })`,
    `replaced the \`${key}\` fixture with a value; ${what}. ${fix}.${then}`,
    { code: 'OPTION_RENAMED' },
  );
  // Thrown from the fixtures' clean-up, where no frame of the spec is on the stack: the stack
  // names the test instead, so the report's code frame shows it rather than ours.
  if (from.at)
    error.stack = `${error.name}: ${error.message}\n    at ${from.at.file}:${from.at.line}:${from.at.column}`;
  return error;
}

function show(value: unknown): string {
  return inspect(value, { breakLength: Infinity, depth: 4 });
}

/**
 * Playwright's `screenshot` (its modes, or `{ mode }`) as the trajectory's screenshot mode.
 * `'every-step'`, the value nestwright's own option took, gets an error naming `'on'`.
 */
export function trajectoryScreenshots(
  screenshot: PlaywrightWorkerOptions['screenshot'] | undefined,
): DriverOptions['screenshot'] {
  const mode: string = typeof screenshot === 'object' && screenshot !== null ? screenshot.mode : (screenshot ?? 'off');
  switch (mode) {
    case 'on':
      return 'every-step';
    case 'only-on-failure':
    case 'on-first-failure':
      return 'only-on-failure';
    case 'off':
      return 'off';
  }
  if (mode === 'every-step') {
    throw new NestwrightError(
      'use.screenshot',
      "'every-step' is Playwright's 'on' now: write screenshot: 'on' (a screenshot after every step).",
      { code: 'OPTION_RENAMED' },
    );
  }
  throw new NestwrightError(
    'use.screenshot',
    `${show(mode)} is not a mode: use 'on' (after every step), 'only-on-failure' or 'off'.`,
    { code: 'USAGE' },
  );
}

/**
 * The names a test function destructures from its fixtures (`async ({ app, space }) => …`): its
 * parameter list, which Playwright itself reads to know which fixtures to set up for the test.
 */
export function fixtureNames(fn: Function): string[] {
  const m = /^[^(]*\(\s*\{([^}]*)\}/.exec(fn.toString());
  return m
    ? m[1]!
        .split(',')
        .map((p) =>
          p
            .split(':')[0]!
            .split('=')[0]!
            .trim()
            .replace(/^\.\.\./, ''),
        )
        .filter(Boolean)
    : [];
}

/**
 * The keys of `use` that option-check.ts checks (its schema must have exactly these): the global
 * setup loads the check, and zod with it, only when a project sets one of them.
 */
export const CHECKED_OPTIONS = [
  'deviceOptions',
  'channel',
  'trajectory',
  'deviceActions',
  'colorScheme',
  'heal',
  'ai',
  'skills',
  'deviceLogs',
  'video',
] as const;

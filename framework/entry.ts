/**
 * The package's JavaScript entry (`dist/framework/index.js` is built from this file, ci/bundle.mjs);
 * framework/index.ts re-exports it for the declarations and the docs. What it imports at once is
 * what declaring tests needs: `test` with its fixtures' declarations, `expect` with its matchers'
 * names, `defineConfig`, `devices`, the errors and constants. Playwright's runner loads the config
 * and every spec to list the tests and runs none of them, so there it loads nothing else. In a
 * worker (and in any other process) it starts loading the rest at once, beside Playwright loading
 * the specs: what the fixtures run, the matchers, and the classes `App`, `Locator` and `Space`
 * (exported as bindings set then), which load the device client, zod's schemas and the MCP SDK.
 */
import type { TestType } from '@playwright/test';
import {
  nestwrightTest,
  type NestwrightTestArgs,
  type NestwrightTestOptions,
  type NestwrightWorkerArgs,
  type NestwrightWorkerOptions,
} from './runner/fixtures.js';
import type { App as AppClass } from './core/app.js';
import type { Locator as LocatorClass } from './core/locator.js';
import type { Space as SpaceClass } from './core/space.js';
import { NestwrightError } from './core/errors.js';
import { loadRuntime } from './runtime-load.js';
import { wakeEmbeddedDevice } from '../device-runtime/providers/run-wide.js';

/**
 * A Playwright test type with nestwright's fixtures: `device` (worker), `space` (worker), `app`
 * (test: a fresh instance of `use.apk`, stopped and wiped after it), and Playwright's own
 * `test.use()` taking {@link NestwrightUse}: a `test.extend()` of it keeps every option.
 *
 * It carries no browser fixtures (`page`, `request`, …): a test that also drives a web page or
 * calls an HTTP API merges Playwright's in, as Playwright merges fixture sets.
 *
 * @example
 * ```ts
 * import { test, expect } from 'nestwright';
 *
 * test.use({ apk: 'fixtures/apks/notes.apk' });
 *
 * test('creates a note', async ({ app }) => {
 *   await app.getByText('New note').tap();
 *   await app.getById('title').fill('Buy milk');
 *   await app.getByRole('button', { name: 'Save' }).tap();
 *   await expect(app.getByText('Buy milk')).toBeVisible();
 * });
 * ```
 *
 * @example
 * ```ts
 * import { mergeTests, test as browserTest } from '@playwright/test';
 * import { test as appTest, expect } from 'nestwright';
 *
 * const test = mergeTests(appTest, browserTest);
 *
 * test('a note made over the API shows in the app', async ({ request, app }) => {
 *   await request.post('http://127.0.0.1:8080/notes', { data: { title: 'Buy milk' } });
 *   await expect(app.getByText('Buy milk')).toBeVisible();
 * });
 * ```
 */
export const test: TestType<
  NestwrightTestArgs & NestwrightTestOptions,
  NestwrightWorkerArgs & NestwrightWorkerOptions
> = nestwrightTest((t, f) => t.extend(f)); // called from this file: see nestwrightTest
export {
  type NestwrightOptions,
  type NestwrightUse,
  type NestwrightTestOptions,
  type NestwrightWorkerOptions,
  type NestwrightTestArgs,
  type NestwrightWorkerArgs,
} from './runner/fixtures.js';
export { expect, type NestwrightMatchers } from './core/expect.js';
export type { ScreenshotOptions } from './visual/index.js';
export { defineConfig } from './runner/config.js';
export { devices, type Device, type DeviceApi } from './core/device.js';
export type { DeviceOptions } from '../device-runtime/providers/index.js';
export type { AppAi } from './ai/app-ai.js';
export type { SkillRunResult, SkillOptions } from './skills/index.js';
export type {
  AccessibilityAuditOptions,
  AccessibilityAuditResult,
  AccessibilityFinding,
} from './core/accessibility.js';
export type {
  RuleName as AccessibilityRule,
  Severity as AccessibilitySeverity,
  Measured as AccessibilityMeasure,
  RuleSelection as AccessibilityRuleSelection,
} from './a11y/index.js';
export type { RoleOptions } from './core/locator.js';
export type { Role } from './core/selector.js';
export type {
  AppClock,
  AppNotifications,
  AppNotification,
  NotificationMatch,
  AppBiometrics,
  AppCamera,
  AppClipboard,
  Geolocation,
  WorldOptions,
  TimeInput,
} from './world/index.js';
export type { WebView, WebViewOptions } from './webview/index.js';
export type { VideoMode, VideoOption } from './video/index.js';
export type { AppFunctions, AppFunctionInfo } from './functions/index.js';
export { Route, ABORT_CODES } from './network/route.js';
export { Request, Response } from './network/messages.js';
export { NETWORK_PRESETS, NETWORK_PRESET_ALIASES } from './network/conditions.js';
export type {
  AbortCode,
  FulfillOptions,
  ContinueOptions,
  FetchOptions,
  Headers,
  NetworkConditions,
  NetworkEvents,
  NetworkPreset,
  NetworkRecord,
  RecordHarOptions,
  RouteFromHAROptions,
  RouteHandler,
  UrlMatcher,
} from './network/index.js';
export {
  NestwrightError,
  TimeoutError,
  StrictModeViolationError,
  AppCrashedError,
  DeviceDisconnectedError,
  type NestwrightErrorCode,
} from './core/errors.js';
export { TRAJECTORY_ATTACHMENT } from './core/trajectory-attachment.js';
export type { TrajectoryStep } from './core/trajectory.js';
export type { DeviceLogsMode } from './device-logs/index.js';
export { classOfCode, FAILURE_CLASSES, type FailureClass } from './failure/codes.js';
export { DeviceError } from '../device-runtime/client/errors.js';
export type { Secret } from './core/secret.js';
export { secret } from './core/secret.js';
export { AiError } from './ai/errors.js';
export { MODEL_PRICES, DEFAULT_MODELS } from './ai/models.js';
export type { AiErrorCode, AiOptionsInput, AiStepRecord, ModelAdapter } from './ai/index.js';

type Real = new (...args: unknown[]) => object;

/**
 * `App`, `Locator` and `Space` until what runs tests is loaded: a class that becomes the real one's
 * subclass when it loads (so `class SignedInApp extends App {}` at a spec's top level works in a
 * worker), whose `instanceof` asks the real class, and which, constructed before then (in
 * Playwright's runner, which only lists the tests), says so.
 */
function standIn<T extends { prototype: object }>(name: string, real: () => T | undefined): T {
  const named = {
    [name]: class {
      constructor(...args: unknown[]) {
        const Real = real() as unknown as Real | undefined;
        if (!Real)
          throw new NestwrightError(
            name,
            "not loaded yet: nestwright loads it in Playwright's workers, for the tests, hooks and fixtures (Playwright's runner only lists the tests).",
            { code: 'USAGE' },
          );
        return Reflect.construct(Real, args, new.target) as object;
      }
      static [Symbol.hasInstance](value: unknown): boolean {
        const Real = real() as unknown as Real | undefined;
        return (
          Function.prototype[Symbol.hasInstance].call(this, value) ||
          (this === named && !!Real && value instanceof Real)
        );
      }
    },
  }[name]!;
  return named as unknown as T;
}

let loaded: typeof import('./runtime.js') | undefined;
const standIns = {
  App: standIn<typeof AppClass>('App', () => loaded?.App),
  Locator: standIn<typeof LocatorClass>('Locator', () => loaded?.Locator),
  Space: standIn<typeof SpaceClass>('Space', () => loaded?.Space),
};

/** `App`: see framework/core/app.ts (the class the `app` fixture is). The real class once loaded. */
export let App = standIns.App;
/** `Locator`: see framework/core/locator.ts. The real class once loaded. */
export let Locator = standIns.Locator;
/** `Space`: see framework/core/space.ts. The real class once loaded. */
export let Space = standIns.Space;

/** Playwright's runner process (`playwright test` and its other commands): not a worker, started by Playwright's command line. */
const inPlaywrightRunner =
  process.env.TEST_WORKER_INDEX === undefined &&
  /[\\/](?:\.bin[\\/]playwright|@playwright[\\/]test[\\/]cli\.js|playwright[\\/]cli\.js)$/.test(process.argv[1] ?? '');

/**
 * In a worker (and any process but Playwright's runner): load what runs tests now, beside
 * Playwright loading the specs. Not awaited (a top-level await would keep a CommonJS project's
 * `require('nestwright')` from loading the package): the fixtures and matchers await it, and the
 * classes' bindings, and their stand-ins, are set when it is there.
 */
if (!inPlaywrightRunner) {
  // The run's simulator loads in the runner while this worker loads the rest (providers/run-wide.ts).
  wakeEmbeddedDevice();
  loadRuntime().then(
    (runtime) => {
      loaded = runtime;
      for (const name of ['App', 'Locator', 'Space'] as const) {
        Object.setPrototypeOf(standIns[name], runtime[name]);
        Object.setPrototypeOf(standIns[name].prototype, runtime[name].prototype);
      }
      App = runtime.App;
      Locator = runtime.Locator;
      Space = runtime.Space;
    },
    // A load that fails fails again, with its error, where a fixture or an assertion awaits it.
    () => {},
  );
}

/**
 * The package's JavaScript entry (`dist/framework/index.js` is built from this file, ci/bundle.mjs);
 * framework/index.ts re-exports it for the declarations and the docs. What it imports at once is
 * what declaring tests needs: `test` with its fixtures' declarations, `expect` with its matchers'
 * names, `defineConfig`, `devices`, the errors and constants. Playwright's runner loads the config
 * and every spec to list the tests and runs none of them, so there it loads nothing else. In a
 * worker (and in any other process) it then awaits the rest before the first spec: what the
 * fixtures run, the matchers, and the classes `App`, `Locator` and `Space` (exported as bindings
 * set then), which load the device client, zod's schemas and the MCP SDK.
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

/**
 * In Playwright's runner, a class that throws when constructed: a spec's top level may name it
 * (`extends`, `instanceof`), which only tests, hooks and fixtures use, and they run in workers.
 */
function notInRunner<T>(name: string): T {
  const standIn = {
    [name]: class {
      constructor() {
        throw new NestwrightError(
          name,
          "not loaded in Playwright's runner process, which only lists the tests: construct it in a test, hook or fixture.",
          { code: 'USAGE' },
        );
      }
    },
  }[name];
  return standIn as T;
}

/** `App`: see framework/core/app.ts (the class the `app` fixture is). */
export let App = notInRunner<typeof AppClass>('App');
/** `Locator`: see framework/core/locator.ts. */
export let Locator = notInRunner<typeof LocatorClass>('Locator');
/** `Space`: see framework/core/space.ts. */
export let Space = notInRunner<typeof SpaceClass>('Space');

/** Playwright's runner process (`playwright test` and its other commands): not a worker, started by Playwright's command line. */
const inPlaywrightRunner =
  process.env.TEST_WORKER_INDEX === undefined &&
  /[\\/](?:\.bin[\\/]playwright|@playwright[\\/]test[\\/]cli\.js|playwright[\\/]cli\.js)$/.test(process.argv[1] ?? '');

if (!inPlaywrightRunner) {
  // The run's simulator loads in the runner while this worker loads the rest (providers/run-wide.ts).
  wakeEmbeddedDevice();
  const runtime = await loadRuntime();
  App = runtime.App;
  Locator = runtime.Locator;
  Space = runtime.Space;
}

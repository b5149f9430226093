/**
 * nestwright: Playwright-style tests for Android apps in NestSpace virtual spaces.
 *
 *   import { test, expect } from 'nestwright';
 *   test.use({ apk: 'fixtures/apks/notes.apk' });
 *   test('creates a note', async ({ app }) => {
 *     await app.getByText('New note').tap();
 *     await app.getById('title').fill('Milk');
 *     await app.getByRole('button', { name: 'Save' }).tap();
 *     await expect(app.getByText('Milk')).toBeVisible();
 *   });
 *
 * @module nestwright
 */
import type { TestType } from '@playwright/test';
import {
  nestwrightTest,
  type NestwrightTestArgs,
  type NestwrightTestOptions,
  type NestwrightWorkerArgs,
  type NestwrightWorkerOptions,
} from './runner/fixtures.js';

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
export { App } from './core/app.js';
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
export { Locator, type RoleOptions } from './core/locator.js';
export type { Role } from './core/selector.js';
export { Space } from './core/space.js';
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
export {
  Route,
  Request,
  Response,
  NETWORK_PRESETS,
  NETWORK_PRESET_ALIASES,
  ABORT_CODES,
  type AbortCode,
  type FulfillOptions,
  type ContinueOptions,
  type FetchOptions,
  type Headers,
  type NetworkConditions,
  type NetworkEvents,
  type NetworkPreset,
  type NetworkRecord,
  type RecordHarOptions,
  type RouteFromHAROptions,
  type RouteHandler,
  type UrlMatcher,
} from './network/index.js';
export {
  NestwrightError,
  TimeoutError,
  StrictModeViolationError,
  AppCrashedError,
  DeviceDisconnectedError,
  type NestwrightErrorCode,
} from './core/errors.js';
export { TRAJECTORY_ATTACHMENT, type TrajectoryStep } from './core/trajectory.js';
export type { DeviceLogsMode } from './device-logs/index.js';
export { classOfCode, FAILURE_CLASSES, type FailureClass } from './failure/codes.js';
export { DeviceError } from '../device-runtime/client/index.js';
export type { Secret } from './core/secret.js';
export {
  secret,
  AiError,
  MODEL_PRICES,
  DEFAULT_MODELS,
  type AiErrorCode,
  type AiOptionsInput,
  type AiStepRecord,
  type ModelAdapter,
} from './ai/index.js';

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
export {
  test,
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

import type { ErrorCode } from '../../device-runtime/protocol/index.js';
import type { AiErrorCode } from '../ai/errors.js';
import type { NestwrightErrorCode } from '../core/errors.js';

/**
 * Whose a failure is, the way a reviewer triages a red build:
 *
 * - `app`: the app under test did something wrong: it crashed, it stopped answering, or an
 *   assertion about its state failed. A product bug: read the logcat and the screen.
 * - `test`: the test asked for something that cannot be: an unknown option, activity or role, a
 *   bad selector, a locator that matched nothing on a screen that was stable. Fix the test.
 * - `device`: the device or the infrastructure failed: disconnected, a runtime fault, a timeout
 *   while the device was busy, a device that lacks what was asked. Rerun; check the device.
 * - `network`: the test's network set-up failed: a route handler threw, a HAR cannot be replayed.
 * - `ai`: an AI step failed for a reason of its own: a budget, the model's API, an action the
 *   framework could not verify.
 * - `nestwright`: nestwright failed in a way it did not expect of itself (`NESTWRIGHT_BUG`): not
 *   the app's, the test's or the device's. Report it, with the trajectory.
 * - `flaky`: the test failed, then passed on a retry.
 *
 * It is in the test's `failure` annotation (`class · code · api · step · why`), written as the
 * test's fixtures end, so a reporter reads it:
 *
 * @example
 * ```ts
 * import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
 * import type { FailureClass } from 'nestwright';
 *
 * export default class RerunDeviceFaults implements Reporter {
 *   onTestEnd(test: TestCase, result: TestResult) {
 *     const failure = result.annotations.find((a) => a.type === 'failure')?.description;
 *     const whose = failure?.split(' · ')[0] as FailureClass | undefined;
 *     if (whose === 'device') console.log(`${test.title}: a device fault, rerun it`);
 *   }
 * }
 * ```
 */
export type FailureClass = 'app' | 'test' | 'device' | 'network' | 'ai' | 'nestwright' | 'flaky';

/**
 * Every class, in the order reports list them.
 *
 * @example
 * ```ts
 * import { FAILURE_CLASSES } from 'nestwright';
 *
 * for (const whose of FAILURE_CLASSES) console.log(whose); // app, test, device, network, ai, nestwright, flaky
 * ```
 */
export const FAILURE_CLASSES: readonly FailureClass[] = [
  'app',
  'test',
  'device',
  'network',
  'ai',
  'nestwright',
  'flaky',
];

/** What each class means, for report categories and `nestwright flaky`. */
export const CLASS_TITLES: Readonly<Record<FailureClass, string>> = {
  app: 'App faults: a crash, an ANR or a failed assertion about the app (a product bug)',
  test: 'Test faults: a usage error, or a locator that matched nothing on a stable screen (fix the test)',
  device: 'Device or infrastructure faults: disconnected, runtime fault, busy device (rerun, check the device)',
  network: "Network set-up faults: a route handler threw or a HAR cannot be replayed (fix the test's routes)",
  ai: 'AI faults: a budget, the model API, an unverified action',
  nestwright: "nestwright's own faults: an error it did not expect of itself (report it, with the trajectory)",
  flaky: 'Flaky: failed, then passed on retry',
};

type Classes<K extends string> = Readonly<Record<K, Exclude<FailureClass, 'flaky'>>>;

/**
 * The device protocol's codes (device-runtime/protocol/errors.ts). `TIMEOUT` and
 * `NODE_NOT_FOUND` also depend on where they happened (failure/classify.ts); this is their class
 * when nothing more is known.
 */
export const PROTOCOL_CODE_CLASSES: Classes<ErrorCode> = {
  INVALID_ARGUMENT: 'test',
  SPACE_NOT_FOUND: 'device',
  APP_NOT_INSTALLED: 'test',
  INSTANCE_NOT_FOUND: 'device',
  NODE_NOT_FOUND: 'test',
  AMBIGUOUS_TARGET: 'test',
  SNAPSHOT_STALE: 'device',
  DIFF_BASE_MISMATCH: 'device',
  TASK_NOT_FOUND: 'test',
  SKILL_NOT_FOUND: 'test',
  APPROVAL_NOT_FOUND: 'test',
  NOTIFICATION_NOT_FOUND: 'test',
  UNKNOWN_TOOL: 'device',
  // The APK itself is wrong (its build): the app's.
  INVALID_APK: 'app',
  NOT_16KB_ALIGNED: 'app',
  SPLIT_INCOMPLETE: 'app',
  SPLIT_MISMATCH: 'app',
  SIGNATURE_INVALID: 'app',
  UNSIGNED: 'app',
  TARGET_SDK_TOO_LOW: 'app',
  // The APK does not fit this device, or what the device already has installed.
  SECURE_ENV_REQUIRED: 'device',
  ABI_MISMATCH: 'device',
  MIN_SDK_TOO_HIGH: 'device',
  SIGNATURE_MISMATCH: 'device',
  VERSION_DOWNGRADE: 'device',
  APP_CRASHED: 'app',
  NO_PROCESS_SLOT: 'device',
  CHANNEL_UNAVAILABLE: 'device',
  NOT_SUPPORTED: 'device',
  TOOL_DISABLED: 'device',
  TIMEOUT: 'device',
  CANCELLED: 'device',
  STORAGE_UNAVAILABLE: 'device',
  SPACE_BUSY: 'device',
  LEASE_REQUIRED: 'device',
  APPROVAL_REQUIRED: 'device',
  APPROVAL_DENIED: 'device',
  UNAUTHORIZED: 'device',
  RATE_LIMITED: 'device',
  DEVICE_DISCONNECTED: 'device',
  PROTOCOL_ERROR: 'device',
  INTERNAL: 'device',
};

/** The framework's own codes (framework/core/errors.ts). `SKILL_FAILED` and `MAESTRO_FAILED` take their cause's class when they have one. */
export const FRAMEWORK_CODE_CLASSES: Classes<Exclude<NestwrightErrorCode, ErrorCode | `AI_${string}`>> = {
  STRICT_MODE_VIOLATION: 'test',
  SKILL_INVALID: 'test',
  SKILL_FAILED: 'app',
  MAESTRO_INVALID: 'test',
  MAESTRO_FAILED: 'app',
  CRASH_IGNORED: 'test',
  USAGE: 'test',
  OPTION_RENAMED: 'test',
  OPTION_INVALID: 'test',
  ROUTE_FAILED: 'network',
  HAR_INVALID: 'network',
  APK_NOT_FOUND: 'test',
  QUARANTINE_EXPIRED: 'test',
  // The code of an error nestwright threw without saying whose it is: its own, never the user's.
  NESTWRIGHT_BUG: 'nestwright',
};

/** AI steps' codes (framework/ai/errors.ts). A false verdict is an assertion about the app; a malformed call is the test's. */
export const AI_CODE_CLASSES: Classes<AiErrorCode> = {
  AI_NO_API_KEY: 'ai',
  AI_CONFIG: 'test',
  AI_MODEL_ERROR: 'ai',
  AI_BAD_OUTPUT: 'ai',
  AI_UNGROUNDED: 'ai',
  AI_ASSERTION_FAILED: 'app',
  AI_BUDGET_EXCEEDED: 'ai',
  AI_GAVE_UP: 'ai',
  AI_MAX_TURNS: 'ai',
  AI_LEFT_APP: 'ai',
  AI_TIMEOUT: 'ai',
  AI_PARAMS: 'test',
  AI_NOT_SUPPORTED: 'device',
  AI_CANCELLED: 'ai',
  AI_DEVICE_TASK: 'ai',
};

/**
 * Codes of errors thrown below the framework that may reach a test as they are: a provider that
 * cannot bring a device up (device-runtime/providers/adb/errors.ts), a skill's or flow's script
 * (device-runtime/protocol/skill/script-error.ts).
 */
export const RUNTIME_CODE_CLASSES: Classes<string> = {
  INVALID_OPTIONS: 'test',
  SERIAL_REQUIRED: 'test',
  SERIAL_NOT_FOUND: 'test',
  AVD_NOT_FOUND: 'test',
  ADB_NOT_FOUND: 'device',
  ADB_FAILED: 'device',
  ADB_TIMEOUT: 'device',
  NO_DEVICE: 'device',
  DEVICE_OFFLINE: 'device',
  DEVICE_UNAUTHORIZED: 'device',
  DEVICE_NOT_BOOTED: 'device',
  RUNTIME_NOT_INSTALLED: 'device',
  RUNTIME_APK_INVALID: 'device',
  RUNTIME_INSTALL_FAILED: 'device',
  RUNTIME_NOT_RUNNING: 'device',
  TOKEN_UNAVAILABLE: 'device',
  FORWARD_FAILED: 'device',
  SDK_NOT_FOUND: 'device',
  EMULATOR_NOT_FOUND: 'device',
  EMULATOR_NOT_RUNNING: 'device',
  EMULATOR_EXITED: 'device',
  BOOT_TIMEOUT: 'device',
  SCRIPT_FAILED: 'test',
  SCRIPT_TIMEOUT: 'test',
  SCRIPT_MEMORY: 'test',
  SCRIPT_STACK: 'test',
  SCRIPT_ENGINE: 'device',
  SCRIPT_OUTSIDE_SUITE: 'test',
};

/**
 * Codes of the command line and of `nestwright mcp` (cli/mcp/errors.ts), and the two a report
 * gives a failure with no code of its own: `ASSERTION_FAILED` (a failed matcher about the app),
 * `TEST_FAILED` (the test's own code threw).
 */
export const REPORT_CODE_CLASSES: Classes<string> = {
  ASSERTION_FAILED: 'app',
  TEST_FAILED: 'test',
  TEST_TIMEOUT: 'test',
  SESSION_NOT_FOUND: 'test',
  TRAJECTORY_NOT_FOUND: 'test',
  PROPOSAL_NOT_FOUND: 'test',
  PATH_NOT_ALLOWED: 'test',
  NOT_AVAILABLE: 'device',
  RUN_FAILED: 'device',
  WRITE_FAILED: 'device',
  SAMPLE_MISSING: 'device',
  INVALID_PACKAGE_JSON: 'test',
  INVALID_FILE: 'test',
  NOT_A_DIRECTORY: 'test',
  FORBIDDEN: 'test',
  NOT_FOUND: 'test',
};

const ALL: Readonly<Record<string, Exclude<FailureClass, 'flaky'>>> = {
  ...REPORT_CODE_CLASSES,
  ...RUNTIME_CODE_CLASSES,
  ...AI_CODE_CLASSES,
  ...FRAMEWORK_CODE_CLASSES,
  ...PROTOCOL_CODE_CLASSES,
};

/**
 * The class of a code with nothing else known, or null for a code the project does not define.
 *
 * @example
 * ```ts
 * import { classOfCode } from 'nestwright';
 *
 * classOfCode('ROUTE_FAILED'); // 'network'
 * classOfCode('INVALID_ARGUMENT'); // 'test'
 * ```
 */
export function classOfCode(code: string): Exclude<FailureClass, 'flaky'> | null {
  return Object.hasOwn(ALL, code) ? ALL[code]! : null;
}

/** Every code with a class, for the test that checks none is missing and for docs/errors.md. */
export function classifiedCodes(): string[] {
  return Object.keys(ALL);
}

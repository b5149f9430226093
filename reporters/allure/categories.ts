import { Status } from 'allure-js-commons';
import type { Category } from 'allure-js-commons/sdk';
import { ErrorCodeSchema } from '../../device-runtime/protocol/index.js';
import type { TrajectoryStep } from './trajectory-schema.js';

/**
 * Why a test failed, in the five buckets a reviewer triages differently: the app crashed (a
 * product bug), the device or driver failed (infrastructure), an element was not there (a changed
 * screen or a broken selector: a candidate for healing), an assertion failed (the app behaved
 * differently), or something took too long.
 */
export type FailureKind = 'app-crash' | 'device-fault' | 'not-found' | 'assertion' | 'timeout' | 'other';

/** Codes that mean the device, the space or the connection failed, not the app or the test. */
const DEVICE_CODES = new Set<string>([
  'DEVICE_DISCONNECTED',
  'PROTOCOL_ERROR',
  'INTERNAL',
  'UNAUTHORIZED',
  'RATE_LIMITED',
  'SPACE_BUSY',
  'LEASE_REQUIRED',
  'NO_PROCESS_SLOT',
  'CHANNEL_UNAVAILABLE',
  'NOT_SUPPORTED',
  'TOOL_DISABLED',
  'APPROVAL_REQUIRED',
  'APPROVAL_DENIED',
  'SPACE_NOT_FOUND',
  'INSTANCE_NOT_FOUND',
  'UNKNOWN_TOOL',
  'CANCELLED',
  'STORAGE_UNAVAILABLE',
  'INVALID_APK',
  'SECURE_ENV_REQUIRED',
  'ABI_MISMATCH',
  'NOT_16KB_ALIGNED',
  'SPLIT_INCOMPLETE',
  'SPLIT_MISMATCH',
  'SIGNATURE_MISMATCH',
  'SIGNATURE_INVALID',
  'UNSIGNED',
  'TARGET_SDK_TOO_LOW',
  'MIN_SDK_TOO_HIGH',
  'VERSION_DOWNGRADE',
  'APP_NOT_INSTALLED',
  'INVALID_ARGUMENT',
  'DEVICE_FAULT',
]);
const NOT_FOUND_CODES = new Set(['NODE_NOT_FOUND', 'STRICT_MODE_VIOLATION']);
/** A protocol code as DeviceError prints it: `ui_tap: NODE_NOT_FOUND: …`. */
const CODE_IN_TEXT = new RegExp(`\\b(${ErrorCodeSchema.options.join('|')}):`);

export interface Classified {
  kind: FailureKind;
  /** A protocol code when the failure carries one, else a nestwright one (ASSERTION_FAILED…). */
  code: string;
}

/**
 * Classify a failure from the failing trajectory step (when there is one) and the test error's
 * text (message and stack: error class names such as `AppCrashedError` appear in the stack).
 */
export function classify(text: string, failed: TrajectoryStep | null): Classified {
  const code = failed?.error?.code ?? CODE_IN_TEXT.exec(text)?.[1];
  if (code === 'APP_CRASHED' || /\bAppCrashedError\b/.test(text)) return { kind: 'app-crash', code: 'APP_CRASHED' };
  if (/\bDeviceDisconnectedError\b/.test(text)) return { kind: 'device-fault', code: 'DEVICE_DISCONNECTED' };
  if (code && DEVICE_CODES.has(code)) return { kind: 'device-fault', code };
  if (failed?.kind === 'assertion' || /^(Error: )?expect\(/m.test(text))
    return { kind: 'assertion', code: 'ASSERTION_FAILED' };
  if (/\bStrictModeViolationError\b|strict mode violation/.test(text))
    return { kind: 'not-found', code: 'STRICT_MODE_VIOLATION' };
  if (code === 'NODE_NOT_FOUND' || /no match yet|no matching node/.test(text))
    return { kind: 'not-found', code: 'NODE_NOT_FOUND' };
  if (code === 'TIMEOUT' || /\bTimeoutError\b|[Tt]imeout (of )?\d+ms exceeded/.test(text))
    return { kind: 'timeout', code: 'TIMEOUT' };
  return { kind: 'other', code: code ?? 'ERROR' };
}

/** Assertion failures and missing elements are `failed` (the app did not do what the test expects); the rest `broken`. */
export function statusOf(kind: FailureKind): Status {
  return kind === 'assertion' || kind === 'not-found' || kind === 'app-crash' ? Status.FAILED : Status.BROKEN;
}

/** The message the report shows: `[CODE] message`, which categories.json matches on. */
export function tagMessage(c: Classified, message: string): string {
  return `[${c.code}] ${message}`;
}

const alternatives = (codes: Iterable<string>) => [...codes].join('|');

/** categories.json: Allure matches each failed/broken test's message against these, in order. */
export const CATEGORIES: Category[] = [
  { name: 'App crashes', matchedStatuses: [Status.FAILED, Status.BROKEN], messageRegex: '(?s)\\[APP_CRASHED\\].*' },
  {
    name: 'Device or driver faults',
    matchedStatuses: [Status.FAILED, Status.BROKEN],
    messageRegex: `(?s)\\[(${alternatives(DEVICE_CODES)})\\].*`,
  },
  {
    name: 'Elements not found',
    matchedStatuses: [Status.FAILED, Status.BROKEN],
    messageRegex: `(?s)\\[(${alternatives(NOT_FOUND_CODES)})\\].*`,
  },
  {
    name: 'Failed assertions',
    matchedStatuses: [Status.FAILED, Status.BROKEN],
    messageRegex: '(?s)\\[ASSERTION_FAILED\\].*',
  },
  { name: 'Timeouts', matchedStatuses: [Status.FAILED, Status.BROKEN], messageRegex: '(?s)\\[TIMEOUT\\].*' },
  { name: 'Other errors', matchedStatuses: [Status.FAILED, Status.BROKEN] },
];

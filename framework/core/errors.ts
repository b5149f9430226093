import { errors as playwrightErrors } from '@playwright/test';
import { DeviceError } from '../../device-runtime/client/errors.js';
import type { ErrorCode, Observation, UiNode } from '../../device-runtime/protocol/index.js';
import { describeNode } from '../../device-runtime/protocol/actionability.js';
import { noteThrown } from '../failure/thrown.js';

export { describeNode };

/**
 * The `code` of a nestwright error: a device protocol code (`TIMEOUT`, `APP_CRASHED`,
 * `SPACE_NOT_FOUND`, … — the device's own when it answered with one), or one of the framework's:
 * `STRICT_MODE_VIOLATION` (more than one match), `SKILL_INVALID` and `SKILL_FAILED` (skills), `MAESTRO_INVALID` and `MAESTRO_FAILED` (Maestro flows), `CRASH_IGNORED` (a test caught a fatal error and
 * carried on), `USAGE` (the API was called wrongly: wrong argument, missing option),
 * `OPTION_RENAMED` (an option set under its old name: `use.app` is `use.apk` now), `OPTION_INVALID`
 * (a mistyped key or value of nestwright's own options: `deviceOptions: { fault }`), `ROUTE_FAILED`
 * (a route handler threw), `HAR_INVALID` (a HAR file that cannot be read or replayed),
 * `APK_NOT_FOUND` (`use.apk` or `space.install()` names a file that does not exist),
 * `QUARANTINE_EXPIRED` (an entry of the quarantine file is past its date), `NESTWRIGHT_BUG` (an
 * error nestwright did not expect of itself, and the code of one thrown without a code: report
 * it), and the
 * `AI_*` codes of AI steps (framework/ai/errors.ts).
 */
export type NestwrightErrorCode =
  | ErrorCode
  | 'STRICT_MODE_VIOLATION'
  | 'SKILL_INVALID'
  | 'SKILL_FAILED'
  | 'MAESTRO_INVALID'
  | 'MAESTRO_FAILED'
  | 'CRASH_IGNORED'
  | 'USAGE'
  | 'OPTION_RENAMED'
  | 'OPTION_INVALID'
  | 'ROUTE_FAILED'
  | 'HAR_INVALID'
  | 'APK_NOT_FOUND'
  | 'QUARANTINE_EXPIRED'
  | 'NESTWRIGHT_BUG'
  | `AI_${string}`;

/**
 * Codes that end a test: the app under test or the device is gone, so nothing after makes sense.
 * A test that catches one and goes on still fails when it ends (see `docs/errors.md`).
 */
/**
 * What an error is named after: the public API that failed (`locator.tap`), as a string or as
 * the call in progress (framework/core/api-call.ts), whose `api` it reads.
 */
export type ApiName = string | { readonly api: string };

export const FATAL_CODES: ReadonlySet<NestwrightErrorCode> = new Set(['APP_CRASHED', 'DEVICE_DISCONNECTED']);

/**
 * Base of nestwright's errors: the API name first (`locator.tap: …`), a `code` to switch on
 * (never the message), and `{ cause }`. Every error the framework throws is one, or a
 * {@link DeviceError} from the protocol client.
 *
 * @example
 * ```ts
 * import { NestwrightError } from 'nestwright';
 *
 * try {
 *   await app.getByText('Maybe later').tap({ timeout: 2_000 });
 * } catch (e) {
 *   if (!(e instanceof NestwrightError) || e.code !== 'TIMEOUT') throw e;
 * }
 * ```
 */
export class NestwrightError extends Error {
  /** The API that failed, e.g. `locator.tap` or `space.install`. */
  readonly api: string;
  /** What went wrong, to switch on: a device code or one of the framework's ({@link NestwrightErrorCode}). */
  readonly code: NestwrightErrorCode;

  /**
   * @param api - the API that failed, e.g. `locator.tap` (or the call in progress, whose `api` it reads); the message starts with it.
   * @param options - `cause`: the error behind it; `code`: defaults to the cause's code, else
   *   `NESTWRIGHT_BUG` (an error thrown without saying whose it is is nestwright's own, never the user's).
   */
  constructor(
    api: string | { readonly api: string },
    message: string,
    options?: { cause?: unknown; code?: NestwrightErrorCode },
  ) {
    const name = typeof api === 'string' ? api : api.api;
    super(`${name}: ${message}`, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.api = name;
    this.name = new.target.name;
    this.code = options?.code ?? codeOf(options?.cause) ?? 'NESTWRIGHT_BUG';
    noteThrown(this);
  }

  /**
   * True for the codes that end a test (APP_CRASHED, DEVICE_DISCONNECTED): a test that catches
   * one and carries on still fails when it ends (`CRASH_IGNORED`).
   *
   * @example
   * ```ts
   * try {
   *   await app.getByRole('button', { name: 'Apply' }).tap();
   * } catch (e) {
   *   if (e instanceof NestwrightError && e.fatal) throw e; // a crash or a lost device: let it end the test
   * }
   * ```
   */
  get fatal(): boolean {
    return FATAL_CODES.has(this.code);
  }

  /**
   * A {@link TimeoutError} is one too: it is Playwright's `errors.TimeoutError` (so `e instanceof
   * errors.TimeoutError` holds, as for a Playwright timeout), which a class can extend only once.
   */
  static override [Symbol.hasInstance](x: unknown): boolean {
    return (
      Function.prototype[Symbol.hasInstance].call(this, x) || (this === NestwrightError && x instanceof TimeoutError)
    );
  }
}

/** The code of the device error (or nestwright error) `e` was caused by, if any. */
function codeOf(e: unknown): NestwrightErrorCode | undefined {
  return e instanceof DeviceError || e instanceof NestwrightError ? e.code : undefined;
}

/**
 * The action did not succeed before its timeout (`TIMEOUT`). Carries the call log and the last
 * screen it saw. (A failed `expect` is Playwright's assertion error, with the same details in its
 * message.)
 *
 * @example
 * ```ts
 * import { TimeoutError } from 'nestwright';
 *
 * try {
 *   await app.getByRole('button', { name: 'Save' }).tap({ timeout: 1_000 });
 * } catch (e) {
 *   if (!(e instanceof TimeoutError)) throw e;
 *   console.log(e.callLog.join('\n'), e.observation?.activity);
 * }
 * ```
 */
export class TimeoutError extends playwrightErrors.TimeoutError {
  /** The API that timed out, e.g. `locator.tap`. */
  readonly api: string;
  /** Always `TIMEOUT`. */
  readonly code: NestwrightErrorCode = 'TIMEOUT';

  /** @internal Thrown by the framework. */
  constructor(
    api: ApiName,
    message: string,
    /** What the action waited for and saw, a line per wait (Playwright's call log). */
    readonly callLog: string[],
    /** The last screen observed before the timeout; null when none was. */
    readonly observation: Observation | null,
    options?: { cause?: unknown },
  ) {
    const name = typeof api === 'string' ? api : api.api;
    super(`${name}: ${message}`);
    this.api = name;
    this.name = 'TimeoutError';
    if (options?.cause !== undefined)
      Object.defineProperty(this, 'cause', { value: options.cause, writable: true, configurable: true });
    noteThrown(this);
  }

  /**
   * A timeout never ends the test by itself: catch it and carry on, as with Playwright's.
   *
   * @example
   * ```ts
   * try {
   *   await app.getByText('Rate this app').tap({ timeout: 1_000 });
   * } catch (e) {
   *   if (!(e instanceof TimeoutError) || e.fatal) throw e; // no prompt this time: carry on
   * }
   * ```
   */
  get fatal(): boolean {
    return false;
  }
}

/**
 * More than one node matched a locator that must name exactly one (`STRICT_MODE_VIOLATION`).
 * The message lists the matches; narrow the locator or pick one with `.first()` / `.nth(i)`.
 *
 * @example
 * ```ts
 * import { StrictModeViolationError } from 'nestwright';
 *
 * try {
 *   await app.getById('note_row').tap();
 * } catch (e) {
 *   if (!(e instanceof StrictModeViolationError)) throw e;
 *   expect(e.matches.length).toBeGreaterThan(1);
 *   await app.getById('note_row').first().tap();
 * }
 * ```
 */
export class StrictModeViolationError extends NestwrightError {
  /** @internal Thrown by the framework. */
  constructor(
    api: ApiName,
    /** The locator, as `locator.toString()` writes it. */
    readonly selector: string,
    /** Every node it matched, in screen order. */
    readonly matches: UiNode[],
  ) {
    super(
      api,
      `strict mode violation: ${selector} resolved to ${matches.length} nodes:\n` +
        matches
          .slice(0, 10)
          .map((n, i) => `    ${i + 1}) ${describeNode(n)}`)
          .join('\n') +
        `\n  Use .first(), .nth(i), .filter({ hasText }) or a more specific locator.`,
      { code: 'STRICT_MODE_VIOLATION' },
    );
  }
}

/**
 * The app under test crashed (`APP_CRASHED`): the crash reason and the instance's logcat. Ends
 * the test: catching it does not save the test; to check a crash on purpose, assert it with
 * `expect(app).toHaveCrashed()`.
 *
 * @example
 * ```ts
 * import { AppCrashedError } from 'nestwright';
 *
 * // The Shop's cart crashes on this coupon: check the crash on purpose.
 * await app.launch({ activity: '.CartActivity' });
 * const error = await app.getByRole('button', { name: 'Apply' }).tap().catch((e: unknown) => e);
 * expect(error).toBeInstanceOf(AppCrashedError);
 * expect((error as AppCrashedError).crashReason).toContain('CouponParser.parse');
 * await expect(app).toHaveCrashed();
 * ```
 */
export class AppCrashedError extends NestwrightError {
  /** @internal Thrown by the framework. */
  constructor(
    api: ApiName,
    message: string,
    /** What the runtime reported (the exception and its stack), or null when it did not say. */
    readonly crashReason: string | null,
    /** The instance's logcat at the crash (formatted as `app.logcat()` returns it). */
    readonly logcat: string[],
    options?: { cause?: unknown },
  ) {
    super(api, message, { ...options, code: 'APP_CRASHED' });
  }
}

/**
 * The connection to the device runtime was lost (`DEVICE_DISCONNECTED`). Ends the test. Not
 * thrown for a test that timed out: then the timeout is reported, with the step it cut short.
 *
 * @example
 * ```ts
 * import { DeviceDisconnectedError } from 'nestwright';
 *
 * await app.getByText('Sync').tap().catch((e: unknown) => {
 *   if (e instanceof DeviceDisconnectedError) console.log(`the device went away during ${e.api}`);
 *   throw e;
 * });
 * ```
 */
export class DeviceDisconnectedError extends NestwrightError {
  /** @internal Thrown by the framework. */
  constructor(api: ApiName, message: string, options?: { cause?: unknown }) {
    super(api, message, { ...options, code: 'DEVICE_DISCONNECTED' });
  }
}

/**
 * A call stopped because the test timed out. Internal: the step it ran in reports the timeout
 * instead ({@link TimeoutError} naming the step).
 *
 * @internal
 */
export class TestEndedError extends NestwrightError {
  constructor() {
    super('test', 'the test has ended (its timeout ran out); nothing more is sent to the device', { code: 'TIMEOUT' });
  }
}

/** Playwright's call-log layout: a line per wait, its details indented below it. */
export function formatCallLog(log: string[]): string {
  return log.map((l) => (l.startsWith('  ') ? `    - ${l.trimStart()}` : `  - ${l}`)).join('\n');
}

/** The screen as text, for failure messages: one node per line, indented by depth. */
export function describeScreen(obs: Observation | null, max = 40): string {
  if (!obs) return '  (no observation)';
  const head = `  ${obs.package ?? '(no app)'} ${obs.activity ?? ''} — snapshot ${obs.snapshot_id}${obs.tree_missing ? ' (tree missing)' : ''}`;
  const kb = obs.keyboard
    ? [
        `  [soft keyboard up over ${obs.keyboard.bounds.join(',')}: nodes under it are not on screen; app.hideKeyboard() hides it]`,
      ]
    : [];
  const lines = obs.nodes.slice(0, max).map((n) => `  ${'  '.repeat(Math.min(n.depth ?? 0, 6))}${describeNode(n)}`);
  if (obs.nodes.length > max) lines.push(`  … ${obs.nodes.length - max} more`);
  return [head, ...kb, ...lines].join('\n');
}

import type { Observation } from '../../device-runtime/protocol/index.js';
import type { TrajectoryStep } from '../core/trajectory-schema.js';
import { classOfCode, FAILURE_CLASSES, type FailureClass } from './codes.js';

/**
 * One classification of a failure, from the error's `code` and where it happened (the API that
 * failed, the screen it last saw, the trajectory step it failed in, whether the test ran out of
 * time), never from the message's text. framework/failure/fixture.ts applies it to a failed test.
 */

/** Whose a failure is, with what it is classified by. */
export interface FailureVerdict {
  class: FailureClass;
  /** The error's code, or `ASSERTION_FAILED` / `TEST_FAILED` / `TEST_TIMEOUT` for an error with none. */
  code: string;
  /** The API that failed (`locator.tap`), when known. */
  api: string | null;
  /** The trajectory step it failed in, when there was one. */
  step: { index: number; title: string; api: string; durationMs: number } | null;
  /** Why this class, in a few words. */
  why: string;
}

/** What is known of the failing error: the error object when nestwright made it (failure/thrown.ts). */
export interface FailureFacts {
  error: Error | null;
  /** The test's status: `timedOut` when Playwright's test timeout ended it. */
  status: string;
  steps: readonly TrajectoryStep[];
}

interface Coded {
  code?: unknown;
  api?: unknown;
  observation?: Observation | null;
  cause?: unknown;
}

const codeOf = (e: unknown): string | null =>
  typeof e === 'object' && e !== null && typeof (e as Coded).code === 'string' ? ((e as Coded).code as string) : null;

/** Classify a failed test's error. */
export function classifyFailure(facts: FailureFacts): FailureVerdict {
  const { error, steps } = facts;
  const last = steps.at(-1);
  const failed = last?.result === 'failed' ? last : null;
  const step = failed
    ? { index: failed.index, title: failed.title, api: failed.api, durationMs: failed.durationMs }
    : null;
  const e = (error ?? null) as (Error & Coded) | null;
  const code = codeOf(e);
  const api = typeof e?.api === 'string' ? e.api : (failed?.api ?? null);
  const verdict = (cls: FailureClass, c: string, why: string): FailureVerdict => ({
    class: cls,
    code: c,
    api,
    step,
    why,
  });

  if (e && code) {
    if ((code === 'SKILL_FAILED' || code === 'MAESTRO_FAILED') && codeOf(e.cause)) {
      const inner = classifyFailure({ ...facts, error: e.cause as Error });
      return { ...inner, code, why: `${code} because of ${inner.code}: ${inner.why}` };
    }
    if (code === 'TIMEOUT' && 'observation' in e) {
      // A TimeoutError of an action or matcher: what the screen was when it gave up says whose.
      const obs = e.observation;
      if (!obs || obs.tree_missing) return verdict('device', code, 'waited for the device, which showed no screen');
      if (api?.startsWith('expect')) return verdict('app', code, 'the app never reached the state asserted');
      if (api?.startsWith('locator.'))
        return verdict('test', code, 'the locator matched nothing usable on a screen that was stable');
      // Another wait (a WebView's page, a launch): the device did not bring what was waited for.
      return verdict('device', code, 'the device did not bring what was waited for in time');
    }
    if (code === 'TIMEOUT' && facts.status === 'timedOut')
      return verdict('device', code, 'the test ran out of time during a device call');
    const cls = classOfCode(code);
    if (cls) return verdict(cls, code, WHY[cls]);
    return verdict('test', code, `an error code nestwright does not define (${code})`);
  }
  if (facts.status === 'timedOut')
    return failed
      ? verdict('device', 'TIMEOUT', 'the test ran out of time in a step waiting on the device')
      : verdict('test', 'TEST_TIMEOUT', "the test's own code ran out of time");
  // Not an error of nestwright's: a failed matcher step is an assertion about the app; anything
  // else was thrown by the test's own code.
  if (failed?.kind === 'assertion') {
    const stepCode = failed.error?.code;
    const cls = stepCode ? classOfCode(stepCode) : null;
    if (stepCode && cls && stepCode !== 'TIMEOUT') return verdict(cls, stepCode, WHY[cls]);
    return verdict('app', 'ASSERTION_FAILED', WHY.app);
  }
  if (failed?.error?.code) {
    const cls = classOfCode(failed.error.code);
    if (cls) return verdict(cls, failed.error.code, WHY[cls]);
  }
  return verdict('test', 'TEST_FAILED', "the test's own code threw");
}

const WHY: Record<FailureClass, string> = {
  app: 'the app crashed, hung or is not in the state asserted',
  test: 'the test asked for something that cannot be',
  device: 'the device or the infrastructure failed',
  network: "the test's network set-up failed",
  ai: 'an AI step failed: budget, model or an unverified action',
  nestwright: 'nestwright failed in a way it did not expect of itself',
  flaky: 'failed, then passed on retry',
};

/** The tag a failure message's first line starts with: `[test · USAGE] `. */
export const tagOf = (v: Pick<FailureVerdict, 'class' | 'code'>): string => `[${v.class} · ${v.code}] `;

/** The `failure` annotation's description: `test · USAGE · app.launch · step 2: Launch .Typo`. */
export function describeVerdict(v: FailureVerdict): string {
  return [v.class, v.code, v.api ?? '-', v.step ? `step ${v.step.index}: ${v.step.title}` : '-', v.why].join(' · ');
}

/** The annotation back as fields (reports, `nestwright flaky`, the agent MCP server): null when it is not one. */
export function parseVerdict(
  description: string | undefined,
): (Pick<FailureVerdict, 'class' | 'code' | 'api' | 'why'> & { step: string | null }) | null {
  // `class · code · api · step · why`: a step's title may hold ' · ' itself; a why never does.
  const parts = (description ?? '').split(' · ');
  if (parts.length < 5) return null;
  const [cls, code, api] = parts;
  const step = parts.slice(3, -1).join(' · ');
  if (!(FAILURE_CLASSES as readonly string[]).includes(cls!)) return null;
  return {
    class: cls as FailureClass,
    code: code!,
    api: api === '-' ? null : api!,
    step: step === '-' ? null : step.replace(/^step \d+: /, ''),
    why: parts.at(-1)!,
  };
}

/** The annotation type a failed test's verdict is under (and a flaky test's, on the attempt that passed). */
export const FAILURE_ANNOTATION = 'failure';
/** The annotation type of what changed between a failed attempt and the retry that passed. */
export const RETRY_DIFF_ANNOTATION = 'flaky';

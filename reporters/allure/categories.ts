import { Status } from 'allure-js-commons';
import type { Category } from 'allure-js-commons/sdk';
import { parseVerdict } from '../../framework/failure/classify.js';
import { CLASS_TITLES, classOfCode, type FailureClass } from '../../framework/failure/codes.js';
import type { TrajectoryStep } from './trajectory-schema.js';

/**
 * Whose a failure is, as the report sorts it: the class the test's `failure` annotation carries
 * (framework/failure/: from the error's code and where it happened, written by the fixture on the
 * worker). A result without one (a test that did not run nestwright's fixtures, an older run) is
 * classified here from what the trajectory and Playwright say — the failing step's code, an
 * assertion step, the test's timeout — never from the message's text.
 */
export interface Classified {
  class: Exclude<FailureClass, 'flaky'> | 'unclassified';
  /** The error's code, or `ASSERTION_FAILED` / `TEST_TIMEOUT` / `ERROR`. */
  code: string;
}

/** The class of a failed result. */
export function classify(
  annotations: ReadonlyArray<{ type: string; description?: string }>,
  failed: TrajectoryStep | null,
  timedOut: boolean,
): Classified {
  const v = parseVerdict(annotations.find((a) => a.type === 'failure')?.description);
  if (v && v.class !== 'flaky') return { class: v.class, code: v.code };
  const code = failed?.error?.code;
  const cls = code ? classOfCode(code) : null;
  if (code && cls) return { class: cls, code };
  if (failed?.kind === 'assertion') return { class: 'app', code: 'ASSERTION_FAILED' };
  if (timedOut) return { class: 'test', code: 'TEST_TIMEOUT' };
  return { class: 'unclassified', code: code ?? 'ERROR' };
}

/** The app's and the test's failures are `failed` (the product or the test is wrong); the rest `broken` (rerun, look elsewhere). */
export function statusOf(c: Classified): Status {
  return c.class === 'app' || c.class === 'test' ? Status.FAILED : Status.BROKEN;
}

/** The message the report shows: `[class · CODE] message`, which categories.json matches on. */
export function tagMessage(c: Classified, message: string): string {
  return `[${c.class} · ${c.code}] ${message.replace(/^\[[a-z]+ · [A-Z0-9_]+\] /, '')}`;
}

const NAMES: Record<Exclude<FailureClass, 'flaky'>, string> = {
  app: 'App faults',
  test: 'Test faults',
  device: 'Device or infrastructure faults',
  network: 'Network set-up faults',
  ai: 'AI faults',
  nestwright: "nestwright's own faults",
};

/**
 * categories.json: Allure matches each failed/broken test's message against these, in order: a
 * category per class (its description says what it holds and what to do; docs/errors.md lists
 * every code of each), then what could not be classified.
 */
export const CATEGORIES: Category[] = [
  ...(Object.keys(NAMES) as Array<keyof typeof NAMES>).map((cls) => ({
    name: NAMES[cls],
    description: CLASS_TITLES[cls],
    matchedStatuses: [Status.FAILED, Status.BROKEN],
    messageRegex: `(?s)\\[${cls} · [A-Z0-9_]+\\].*`,
  })),
  { name: 'Other errors', matchedStatuses: [Status.FAILED, Status.BROKEN] },
];

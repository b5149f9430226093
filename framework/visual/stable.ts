import type { Clock } from '../../device-runtime/protocol/index.js';
import type { Shot } from './capture.js';
import { compareImages, type Comparison, type Tolerance } from './compare.js';
import type { Picture } from './picture.js';

/** What the loop ended with (Playwright's `_expectScreenshot` answer). */
export interface LoopResult {
  /** The last picture taken. */
  actual?: Shot;
  /** The picture before it, when the screen never settled. */
  previous?: Shot;
  /** The comparison with the baseline, or of the last two pictures when they never matched. */
  comparison?: Comparison;
  /** Set when the assertion fails (Playwright's wording). */
  errorMessage?: string;
  timedOut?: boolean;
  /** The screen never settled: two pictures in a row never matched (or the device never went idle). */
  unstable?: boolean;
  log: string[];
}

/** Playwright's waits between pictures, ms: at once, then 100, 250, 500, then every second. */
const INTERVALS = [0, 100, 250, 500];

/**
 * Playwright's screenshot loop, step for step. With a baseline, the first picture is compared
 * with it: equal, and the assertion passes at once (a picture equal to a baseline that was
 * itself stable is taken as settled). Otherwise pictures are taken until two in a row match
 * (with the same tolerance), and only that stable picture is compared with the baseline. Without
 * a baseline the stable picture is the answer. A screen that never gives two matching pictures
 * within the deadline fails with "Failed to take two consecutive stable screenshots.", not a diff.
 */
export async function stablePicture(
  take: () => Promise<Shot | string>,
  expected: Picture | null,
  tol: Tolerance,
  deadline: number,
  clock: Clock,
  log: string[],
): Promise<LoopResult> {
  const intervals = [...INTERVALS];
  let actual: Shot | undefined;
  let previous: Shot | undefined;
  let first = true;
  let last: { comparison: Comparison; actual: Shot; previous?: Shot } | undefined;
  let matched: Comparison | undefined;
  log.push(expected ? 'verifying given screenshot expectation' : 'generating new stable screenshot expectation');
  for (;;) {
    const left = deadline - clock.now();
    if (left <= 0) {
      const unstable = !!last?.previous;
      return {
        ...(last
          ? { actual: last.actual, comparison: last.comparison, ...(last.previous ? { previous: last.previous } : {}) }
          : actual
            ? { actual }
            : {}),
        errorMessage: unstable
          ? 'Failed to take two consecutive stable screenshots.'
          : last
            ? `Timed out before a second screenshot could confirm the first, which differed from the baseline: ${last.comparison.errorMessage}`
            : 'Timed out before a screenshot could be taken.',
        timedOut: true,
        unstable,
        log,
      };
    }
    const wait = intervals.shift() ?? 1000;
    if (wait) {
      log.push(`waiting ${wait}ms before taking screenshot`);
      await clock.sleep(Math.min(wait, left));
    }
    const shot = await take();
    if (typeof shot === 'string') {
      log.push(`failed to take screenshot - ${shot}`);
      continue;
    }
    previous = actual;
    actual = shot;
    const against = expected && first ? expected : previous?.picture;
    if (against) {
      const c = await compareImages(actual.picture, against, tol, actual.excluded);
      if (!c.errorMessage) {
        matched = c;
        break;
      }
      last = { comparison: c, actual, ...(against === expected ? {} : previous ? { previous } : {}) };
      log.push(c.errorMessage);
    }
    first = false;
  }
  if (!first) log.push('captured a stable screenshot');
  if (!expected) return { actual, log };
  if (first) {
    log.push('screenshot matched expectation');
    return { actual, ...(matched ? { comparison: matched } : {}), log };
  }
  const c = await compareImages(actual.picture, expected, tol, actual.excluded);
  if (!c.errorMessage) {
    log.push('screenshot matched expectation');
    return { actual, comparison: c, log };
  }
  return { actual, comparison: c, errorMessage: c.errorMessage, log };
}

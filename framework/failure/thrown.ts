/**
 * The errors nestwright made during the current test, so that when the test fails its
 * classification (failure/classify.ts) can read the failing error's `code`, `api` and last
 * screen rather than its message: Playwright hands a fixture only the error's text
 * (`testInfo.errors`). The error is told apart from the others by being the one whose
 * `name: message` the report shows. A leaf: framework/core/errors.ts notes every error it makes.
 */

/** Kept per test: a test that makes more errors than this fails on one of its last ones. */
const MAX = 64;
let recent: Error[] = [];

/** Called by the constructors of framework/core/errors.ts. Cost: one push. */
export function noteThrown(error: Error): void {
  recent.push(error);
  if (recent.length > MAX) recent = recent.slice(-MAX / 2);
}

/** Forget the last test's errors (the failure fixture, as a test begins). */
export function clearThrown(): void {
  recent = [];
}

/**
 * The error the report shows as `shown` (Playwright writes `${name}: ${message}`), newest
 * first; also found when it is the cause of another error.
 */
export function findThrown(shown: string): Error | null {
  for (let i = recent.length - 1; i >= 0; i--) {
    const e = recent[i]!;
    if (shown === `${e.name}: ${e.message}` || shown === e.message) return e;
  }
  return null;
}

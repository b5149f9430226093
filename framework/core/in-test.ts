import { test } from '@playwright/test';

/**
 * Whether we are inside a Playwright test: `test.info()` throws outside one (a bench, a CLI run,
 * a worker hook). A leaf: the core and the features ask it before they attach or read the test's
 * files.
 */
export function inTest(): boolean {
  try {
    test.info();
    return true;
  } catch {
    return false;
  }
}

/** The running Playwright test's (or hook's) `testId`, or null outside one. */
export function currentTestId(): string | null {
  try {
    return test.info().testId;
  } catch {
    return null;
  }
}

import { test } from '@playwright/test';

/** Whether we are inside a Playwright test (test.info() throws outside one, e.g. in benches and the CLI). A leaf features may import. */
export function inTest(): boolean {
  try {
    test.info();
    return true;
  } catch {
    return false;
  }
}

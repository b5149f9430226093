import type { TestInfo } from '@playwright/test';
import { dirname } from 'node:path';
import { loadQuarantine, quarantineEntryFor, quarantinePath, type QuarantineEntry } from './quarantine.js';

/** The annotation type of a quarantined test: `<reason> (until YYYY-MM-DD)`. */
export const QUARANTINE_ANNOTATION = 'quarantine';

const loaded = new Map<string, QuarantineEntry[]>();

/** The entry that quarantines this test, if one does (the file read once per worker). */
export function quarantinedBy(testInfo: TestInfo): QuarantineEntry | null {
  const dir = testInfo.config.configFile ? dirname(testInfo.config.configFile) : testInfo.config.rootDir;
  const file = quarantinePath(dir);
  let entries = loaded.get(file);
  if (!entries) loaded.set(file, (entries = loadQuarantine(file)));
  return quarantineEntryFor(entries, { id: testInfo.testId, fullTitle: testInfo.titlePath.join(' › ') });
}

/** As the test begins: say it is quarantined (every report shows the annotation, pass or fail). */
export function markQuarantined(testInfo: TestInfo, entry: QuarantineEntry): void {
  testInfo.annotations.push({ type: QUARANTINE_ANNOTATION, description: `${entry.reason} (until ${entry.expires})` });
}

/**
 * As a quarantined test ends failed: its failure does not fail the build. Its status stays what
 * it was in every report; the expected status follows it, as `test.fail()` would have set it,
 * so Playwright neither counts it nor retries it.
 */
export function pardon(testInfo: TestInfo): void {
  if (testInfo.status && testInfo.status !== 'skipped') testInfo.expectedStatus = testInfo.status;
}

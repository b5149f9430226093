import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { NestwrightError } from '../core/errors.js';
import { quarantinePath } from './path.js';

/**
 * The quarantine a team commits: `nestwright.quarantine.json` beside the Playwright config (or
 * the file `NESTWRIGHT_QUARANTINE` names). Each entry names tests by Playwright's test id or by
 * a title pattern, says why, and until when. A quarantined test still runs and is reported
 * (status, failure class, trajectory), but its failure does not fail the build; an entry past
 * its date fails the run before any test starts (the global setup), so a quarantine cannot
 * quietly become permanent.
 *
 * How "does not fail the build" is realised: when a quarantined test fails, the failure fixture
 * sets `testInfo.expectedStatus` to the status it ended with, as `test.fail()` would have, and
 * adds a `quarantine` annotation. Playwright then counts it as expected (exit code 0) while its
 * result stays `failed` in every report. It is done on the worker, not in a reporter, so it holds
 * whatever `--reporter` a run is given. Quarantined tests are not retried (a retry would only
 * turn the failure into a flaky result); retries and `--fail-on-flaky-tests` apply to the others.
 */

/** One entry: `id` or `title` (or both: either matches), `reason`, `expires` (YYYY-MM-DD, the last day it holds). */
export const QuarantineEntrySchema = z
  .strictObject({
    id: z.string().min(1).optional().describe("Playwright's test id (testInfo.testId)"),
    title: z
      .string()
      .min(1)
      .optional()
      .describe("Part of the test's full title `file › describe › title`, or /a regular expression/"),
    reason: z.string().trim().min(1).describe('Why it is quarantined: an issue link, what fails'),
    expires: z.iso.date().describe('The last day the entry holds, YYYY-MM-DD (UTC)'),
    owner: z.string().optional(),
  })
  .refine((e) => e.id !== undefined || e.title !== undefined, { message: 'an entry needs an id or a title' });
export type QuarantineEntry = z.infer<typeof QuarantineEntrySchema>;

export const QuarantineFileSchema = z.strictObject({ tests: z.array(QuarantineEntrySchema) });
export type QuarantineFile = z.infer<typeof QuarantineFileSchema>;

export { QUARANTINE_FILE, quarantinePath } from './path.js';

/** The file's entries (none when there is no file); a file that does not parse is an `OPTION_INVALID` naming it and the path of the bad field. */
export function loadQuarantine(file: string): QuarantineEntry[] {
  if (!existsSync(file)) return [];
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new NestwrightError('quarantine', `${file} is not JSON: ${(e as Error).message}`, { code: 'OPTION_INVALID' });
  }
  const parsed = QuarantineFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ');
    throw new NestwrightError(
      'quarantine',
      `${file}: ${issues}. Each entry of "tests" is { "id" or "title", "reason", "expires": "YYYY-MM-DD" }.`,
      { code: 'OPTION_INVALID' },
    );
  }
  return parsed.data.tests;
}

/** Today as YYYY-MM-DD (UTC). */
export const today = (now = new Date()): string => now.toISOString().slice(0, 10);

/** Entries whose last day is before `day`. */
export const expiredEntries = (entries: readonly QuarantineEntry[], day = today()): QuarantineEntry[] =>
  entries.filter((e) => e.expires < day);

/** The entry that holds for a test, by its id or its full title (`file › describe › title`); expired ones hold for none. */
export function quarantineEntryFor(
  entries: readonly QuarantineEntry[],
  test: { id: string; fullTitle: string },
  day = today(),
): QuarantineEntry | null {
  for (const e of entries) {
    if (e.expires < day) continue;
    if (e.id !== undefined && e.id === test.id) return e;
    if (e.title !== undefined && titleMatches(e.title, test.fullTitle)) return e;
  }
  return null;
}

function titleMatches(pattern: string, fullTitle: string): boolean {
  const re = /^\/(.+)\/([a-z]*)$/.exec(pattern);
  return re ? new RegExp(re[1]!, re[2]).test(fullTitle) : fullTitle.includes(pattern);
}

/** The message an expired entry fails the run with. */
export function expiredMessage(file: string, expired: readonly QuarantineEntry[]): string {
  const lines = expired.map(
    (e) =>
      `  - ${e.id ?? e.title} expired on ${e.expires} (reason: ${e.reason}${e.owner ? `; owner: ${e.owner}` : ''})`,
  );
  return (
    `${expired.length} quarantine ${expired.length === 1 ? 'entry has' : 'entries have'} expired in ${file}:\n${lines.join('\n')}\n` +
    `  Fix the test and remove its entry, or give the entry a new "expires" date with a reason.`
  );
}

/** The run's check (framework/runner/global-setup.ts): a malformed file or an expired entry fails the run here, before any worker starts. */
export function checkQuarantine(configDir: string, day = today()): void {
  const file = quarantinePath(configDir);
  const expired = expiredEntries(loadQuarantine(file), day);
  if (expired.length)
    throw new NestwrightError('quarantine', expiredMessage(file, expired), { code: 'QUARANTINE_EXPIRED' });
}

/**
 * The quarantine file: an expired entry fails the run (the global setup's check) with a message
 * that names it and says what to do; a malformed file names the bad field; entries match tests by
 * id, by part of the full title and by /regular expression/, and an expired one matches none. The
 * worker side (a quarantined failure runs, is reported and does not fail the build) is proven by
 * the child run of tests/failures/classes-run.test.ts.
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NestwrightError } from '../../framework/core/errors.js';
import { classOfCode } from '../../framework/failure/codes.js';
import {
  checkQuarantine,
  loadQuarantine,
  quarantineEntryFor,
  QUARANTINE_FILE,
} from '../../framework/quarantine/quarantine.js';

function project(body: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'nw-quarantine-'));
  writeFileSync(path.join(dir, QUARANTINE_FILE), typeof body === 'string' ? body : JSON.stringify(body));
  return dir;
}

test('an expired entry fails the run, naming it, its reason and what to do', () => {
  const dir = project({
    tests: [
      {
        title: 'shop.spec.ts › checkout',
        reason: 'issue 88: the payment sandbox times out',
        expires: '2026-11-30',
        owner: 'ana',
      },
      { id: 'abc123', reason: 'issue 91', expires: '2999-01-01' },
    ],
  });
  let error: unknown;
  try {
    checkQuarantine(dir, '2026-12-04');
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(NestwrightError);
  expect((error as NestwrightError).code).toBe('QUARANTINE_EXPIRED');
  expect(classOfCode('QUARANTINE_EXPIRED')).toBe('test');
  expect((error as Error).message).toBe(
    `quarantine: 1 quarantine entry has expired in ${path.join(dir, QUARANTINE_FILE)}:\n` +
      '  - shop.spec.ts › checkout expired on 2026-11-30 (reason: issue 88: the payment sandbox times out; owner: ana)\n' +
      '  Fix the test and remove its entry, or give the entry a new "expires" date with a reason.',
  );
  // On its last day it still holds.
  expect(() => checkQuarantine(dir, '2026-11-30')).not.toThrow();
  // No file, no quarantine.
  expect(() => checkQuarantine(mkdtempSync(path.join(tmpdir(), 'nw-none-')))).not.toThrow();
});

test('a malformed file names the bad field; an entry needs a reason, a date and a test', () => {
  const bad = (body: unknown) => {
    try {
      loadQuarantine(path.join(project(body), QUARANTINE_FILE));
    } catch (e) {
      expect((e as NestwrightError).code).toBe('OPTION_INVALID');
      return (e as Error).message;
    }
    throw new Error('accepted');
  };
  expect(bad({ tests: [{ title: 'x', reason: 'y', expires: '31/12/2026' }] })).toMatch(/tests\.0\.expires: /);
  expect(bad({ tests: [{ title: 'x', expires: '2026-12-31' }] })).toMatch(/tests\.0\.reason: /);
  expect(bad({ tests: [{ reason: 'y', expires: '2026-12-31' }] })).toMatch(/an entry needs an id or a title/);
  expect(bad({ tests: [{ title: 'x', reason: 'y', expires: '2026-12-31', expiry: 'typo' }] })).toMatch(/expiry/);
  expect(bad('{ not json')).toMatch(/is not JSON/);
});

test('entries match by id, by part of the full title and by /regular expression/; expired ones by nothing', () => {
  const entries = loadQuarantine(
    path.join(
      project({
        tests: [
          { id: 'f00d', reason: 'by id', expires: '2999-01-01' },
          { title: 'cart › applies', reason: 'by title', expires: '2999-01-01' },
          { title: '/^notes\\.spec\\.ts › .*sync$/i', reason: 'by pattern', expires: '2999-01-01' },
          { title: 'settings', reason: 'expired', expires: '2000-01-01' },
        ],
      }),
      QUARANTINE_FILE,
    ),
  );
  const reason = (id: string, fullTitle: string) => quarantineEntryFor(entries, { id, fullTitle })?.reason ?? null;
  expect(reason('f00d', 'a.spec.ts › anything')).toBe('by id');
  expect(reason('x', 'shop.spec.ts › cart › applies a coupon')).toBe('by title');
  expect(reason('x', 'notes.spec.ts › edits › SYNC')).toBe('by pattern');
  expect(reason('x', 'settings.spec.ts › settings › dark mode')).toBeNull();
  expect(reason('x', 'shop.spec.ts › checkout')).toBeNull();
});

import { expect, test } from '@playwright/test';
import { failureOf } from '../../cli/mcp/failures.js';
import type { ReportedTest } from '../../cli/mcp/report.js';

/** A failed test as the JSON reporter gives it, with these attachments (bodies base64, as Playwright writes them). */
function reported(attachments: Array<{ name: string; json: unknown }>): ReportedTest {
  return {
    title: 'notes > saves',
    file: 'specs/notes.spec.ts',
    line: 7,
    tags: [],
    project: '',
    outcome: 'unexpected',
    result: {
      status: 'failed',
      duration: 12,
      errors: [{ message: 'locator.tap: TIMEOUT: timeout 5000ms exceeded.' }],
      attachments: attachments.map((a) => ({
        name: a.name,
        contentType: 'application/json',
        body: Buffer.from(typeof a.json === 'string' ? a.json : JSON.stringify(a.json)).toString('base64'),
      })),
    },
  };
}

const step = {
  index: 0,
  kind: 'action',
  api: 'locator.tap',
  title: 'Tap "Save"',
  selector: 'text=Save',
  node: null,
  before: 's_1',
  after: null,
  screenshots: {},
  startedAt: 1,
  durationMs: 5000,
  result: 'failed',
  error: { code: 'TIMEOUT', message: 'timeout' },
  source: 'locator',
  instance: '1',
};

test('the trajectory and the tree are read through their schemas', () => {
  const r = failureOf(reported([{ name: 'nestwright-trajectory', json: { version: 1, steps: [step] } }]), 't1');
  expect(r.failing_step).toMatchObject({ index: 0, api: 'locator.tap', selector: 'text=Save' });
  expect(r.steps).toHaveLength(1);
  expect(r.error.code).toBe('TIMEOUT');
  expect(r.error.message).not.toContain('attachment');
});

test('a trajectory or tree that does not fit its schema still gives a record, and says what did not fit', () => {
  const r = failureOf(
    reported([
      { name: 'nestwright-trajectory', json: { version: 1, steps: [{ ...step, kind: 'dance' }] } },
      { name: 'full tree', json: '{ not json' },
    ]),
    't2',
  );
  expect(r.steps).toEqual([]);
  expect(r.screen).toBeNull();
  expect(r.error.message).toContain('locator.tap: TIMEOUT');
  expect(r.error.message).toMatch(
    /the "nestwright-trajectory" attachment does not match its schema: .*steps\[0\]\.kind/,
  );
  expect(r.error.message).toContain('the "full tree" attachment is not JSON');
});

test("the record says whose the failure is, from the test's failure annotation", () => {
  const t = reported([{ name: 'nestwright-trajectory', json: { version: 1, steps: [step] } }]);
  t.result!.annotations = [
    {
      type: 'failure',
      description:
        'test · TIMEOUT · locator.tap · step 0: Tap "Save" · the locator matched nothing usable on a screen that was stable',
    },
  ];
  expect(failureOf(t, 't3').failure).toEqual({
    class: 'test',
    code: 'TIMEOUT',
    api: 'locator.tap',
    step: 'Tap "Save"',
    why: 'the locator matched nothing usable on a screen that was stable',
  });
  // A report written without nestwright's fixtures: unclassified, with the code it has.
  expect(failureOf(reported([]), 't4').failure).toMatchObject({ class: 'unclassified' });
});

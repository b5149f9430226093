import path from 'node:path';
import { test, expect } from '@playwright/test';
import { ROOT } from '../framework/inline.js';
import { measure, table } from './corpus-measure.js';

/**
 * Real Maestro suites from public repositories (tests/maestro/corpus/SOURCES.md), planned by the
 * runner and imported as skills: the figures of docs/maestro.md. No crash, every report item at a
 * file and line, every command of the corpus accepted by the planner.
 */
test('the corpus plans and imports: per command type, with every problem at its file and line', () => {
  test.setTimeout(180_000);
  const m = measure(path.join(ROOT, 'tests/maestro/corpus'));
  console.log(
    `${m.flows} flows from ${m.repos} repositories, ${m.flowsClean} imported with no report item\n${table(m)}`,
  );
  expect(m.crashes).toEqual([]);
  expect(m.problemsWithoutPlace).toBe(0);
  expect(m.repos).toBeGreaterThanOrEqual(14);
  expect(m.flows).toBeGreaterThanOrEqual(560);
  const total = m.rows.reduce((s, r) => s + r.total, 0);
  const planned = m.rows.reduce((s, r) => s + r.planned, 0);
  const imported = m.rows.reduce((s, r) => s + r.imported, 0);
  // What the planner rejects is a flow's own error (a typo, a YAML slip), listed at its line.
  expect(planned / total).toBeGreaterThan(0.995);
  expect(imported / total).toBeGreaterThanOrEqual(0.97);
  expect(m.flowsClean / m.flows).toBeGreaterThanOrEqual(0.9);
});

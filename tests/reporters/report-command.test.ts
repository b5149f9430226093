import { test, expect } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { reportCommand } from '../../cli/commands/report.js';
import { ROOT } from './run-inline.js';

async function report(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await reportCommand(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join(''), err: err.join('') };
}

test('nestwright report: usage errors exit 2 and say what is wrong', async () => {
  const bad = await report(['--bogus']);
  expect(bad.code).toBe(2);
  expect(bad.err).toContain("report: Unknown option '--bogus'");
  expect(bad.err).toContain('Usage: nestwright report');
  const port = await report(['--open', '--port', 'eighty']);
  expect(port.code).toBe(2);
  expect(port.err).toContain('--port must be a number');
  const help = await report(['--help']);
  expect(help.code).toBe(0);
  expect(help.out).toContain('repeat it to merge shards');
});

test('nestwright report: missing or empty results exit 1 and say how to get them', async () => {
  const missing = await report(['--results', path.join(ROOT, 'test-results', 'no-such-dir')]);
  expect(missing.code).toBe(1);
  expect(missing.err).toMatch(/no-such-dir does not exist\. Pass the allure-results directory/);
  const empty = path.join(ROOT, 'test-results', 'reporters', 'empty-results');
  await mkdir(empty, { recursive: true });
  const none = await report(['--results', empty]);
  expect(none.code).toBe(1);
  expect(none.err).toContain('Add the reporter to playwright.config.ts');
});

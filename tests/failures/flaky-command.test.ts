/**
 * `nestwright flaky` over generated reports with known answers: 20 Playwright JSON runs in
 * which one test is stable, one fails at the same step the same way every run (broken), one fails
 * every run in different ways (failing), one fails in 5 runs of 20 (flaky), one passes on a retry
 * in 3 runs (flaky), and a quarantined one; `--last`, `--json`, `--suggest-quarantine`; an Allure
 * results folder; bad input.
 */
import { expect, test } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { flakyCommand } from '../../cli/commands/flaky.js';
import { QuarantineFileSchema } from '../../framework/quarantine/quarantine.js';

type R = { status: string; retry: number; annotations?: Array<{ type: string; description: string }> };
const fail = (retry: number, verdict: string): R => ({
  status: 'failed',
  retry,
  annotations: [{ type: 'failure', description: verdict }],
});
const pass = (retry = 0): R => ({ status: 'passed', retry });

const TAP = "device · TIMEOUT · locator.tap · step 3: Tap text='Pay' · waited for the device, which showed no screen";
const SAVE = "test · TIMEOUT · locator.tap · step 1: Tap role=button[name='Save'] · the locator matched nothing";

/** Run i (0-based) of 20, as Playwright's JSON reporter writes it. */
function report(i: number) {
  const spec = (title: string, results: R[], annotations: unknown[] = [], expectedStatus = 'passed') => ({
    title,
    tests: [{ projectName: '', expectedStatus, annotations, results }],
  });
  const flakyFails = [2, 7, 11, 15, 19].includes(i);
  const retried = [4, 9, 14].includes(i);
  return {
    config: { rootDir: '/p' },
    stats: { startTime: new Date(Date.UTC(2026, 11, 1, 0, i)).toISOString() },
    suites: [
      {
        title: 'shop.spec.ts',
        specs: [
          spec('stable', [pass()]),
          spec('broken', [fail(0, SAVE), fail(1, SAVE)]),
          spec('failing', [fail(0, i % 2 ? SAVE : TAP)]),
          spec('pays', flakyFails ? [fail(0, TAP)] : [pass()]),
          spec('retried', retried ? [fail(0, TAP), pass(1)] : [pass()]),
          // Quarantined: its expected status follows its failure, which still counts here.
          spec(
            'parked',
            [fail(0, SAVE)],
            [{ type: 'quarantine', description: 'issue 9 (until 2999-01-01)' }],
            'failed',
          ),
          // test.fail(): failing is what it expects.
          spec('known bug', [{ status: 'failed', retry: 0 }], [], 'failed'),
        ],
        suites: [{ title: 'cart', specs: [spec('applies', [{ status: 'skipped', retry: 0 }])] }],
      },
    ],
  };
}

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

test('per test over 20 runs: pass rate, classes, failing step, first and last failure, and the verdict', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nw-flaky-'));
  for (let i = 0; i < 20; i++)
    writeFileSync(path.join(dir, `run-${String(i).padStart(2, '0')}.json`), JSON.stringify(report(i)));
  const c = io();
  expect(await flakyCommand([dir, '--json'], c.io)).toBe(0);
  const { runs, tests } = JSON.parse(c.out.join(''));
  expect(runs).toBe(20);
  const by = Object.fromEntries(tests.map((t: any) => [t.key, t]));
  expect(Object.keys(by).sort()).toEqual(
    ['broken', 'failing', 'known bug', 'parked', 'pays', 'retried', 'stable'].map((t) => `shop.spec.ts › ${t}`).sort(),
  );
  expect(by['shop.spec.ts › stable']).toMatchObject({ verdict: 'stable', passRate: 1, failed: 0, firstFailure: null });
  expect(by['shop.spec.ts › broken']).toMatchObject({
    verdict: 'broken',
    passRate: 0,
    failed: 20,
    classes: { test: 40 },
    codes: { TIMEOUT: 40 },
    failingStep: { title: "Tap role=button[name='Save']", count: 40 },
    firstFailure: { at: '2026-12-01T00:00:00.000Z' },
    lastFailure: { at: '2026-12-01T00:19:00.000Z' },
  });
  expect(by['shop.spec.ts › failing']).toMatchObject({ verdict: 'failing', classes: { test: 10, device: 10 } });
  expect(by['shop.spec.ts › pays']).toMatchObject({
    verdict: 'flaky',
    runs: 20,
    passedFirstTry: 15,
    failed: 5,
    passRate: 0.75,
    classes: { device: 5 },
    failingStep: { title: "Tap text='Pay'", count: 5 },
    firstFailure: { at: '2026-12-01T00:02:00.000Z' },
    lastFailure: { at: '2026-12-01T00:19:00.000Z' },
  });
  expect(by['shop.spec.ts › retried']).toMatchObject({
    verdict: 'flaky',
    passedFirstTry: 17,
    passedOnRetry: 3,
    failed: 0,
  });
  expect(by['shop.spec.ts › parked']).toMatchObject({ verdict: 'broken', quarantined: true });
  expect(by['shop.spec.ts › known bug']).toMatchObject({ verdict: 'stable', passRate: 1 });
  // Worst first.
  expect(tests.map((t: any) => t.passRate)).toEqual([...tests.map((t: any) => t.passRate)].sort((a, b) => a - b));

  // The last 5 runs only (runs 15..19): pays failed in 15 and 19.
  const last = io();
  expect(await flakyCommand([dir, '--last', '5', '--json'], last.io)).toBe(0);
  const lastBy = Object.fromEntries(JSON.parse(last.out.join('')).tests.map((t: any) => [t.key, t]));
  expect(lastBy['shop.spec.ts › pays']).toMatchObject({ runs: 5, failed: 2, passRate: 0.6 });

  // The text report, and proposed quarantine entries for the flaky tests under the threshold.
  const text = io();
  const proposed = path.join(dir, 'proposed.json');
  expect(await flakyCommand([dir, '--suggest-quarantine', '--out', proposed, '--threshold', '0.8'], text.io)).toBe(0);
  const printed = text.out.join('');
  expect(printed).toContain('7 tests over 20 runs: 2 stable, 2 flaky, 2 broken, 1 failing');
  expect(printed).toContain(
    "  FLAKY  shop.spec.ts › pays\n    pass rate 75% (15/20 first try, 0 on retry, 5 failed)\n    failures: device ×5 — TIMEOUT ×5\n    failing step: Tap text='Pay' (5×)\n",
  );
  expect(printed).toContain('BROKEN (quarantined)  shop.spec.ts › parked');
  const file = QuarantineFileSchema.parse(JSON.parse(readFileSync(proposed, 'utf8')));
  expect(file.tests).toEqual([
    {
      title: 'shop.spec.ts › pays',
      reason: `flaky: passed first time in 15 of 20 runs (75%); fails as device ×5 at "Tap text='Pay'"`,
      expires: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    },
  ]);
});

test('an Allure results folder is a run; attempts of one test share a historyId', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'nw-flaky-allure-'));
  for (const [run, statuses] of [
    ['run-1', ['broken', 'passed']],
    ['run-2', ['passed']],
  ] as const) {
    const dir = path.join(root, run, 'allure-results');
    mkdirSync(dir, { recursive: true });
    statuses.forEach((status, i) =>
      writeFileSync(
        path.join(dir, `${run}-${i}-result.json`),
        JSON.stringify({
          historyId: 'h1',
          name: 'pays',
          titlePath: ['specs/shop.spec.ts'],
          status,
          start: Date.UTC(2026, 11, run === 'run-1' ? 1 : 2, 0, i),
          labels: [
            { name: 'parentSuite', value: 'example' },
            ...(status === 'broken' ? [{ name: 'failure', value: TAP }] : []),
          ],
        }),
      ),
    );
  }
  const c = io();
  expect(await flakyCommand([root, '--json'], c.io)).toBe(0);
  const { runs, tests } = JSON.parse(c.out.join(''));
  expect(runs).toBe(2);
  expect(tests).toEqual([
    expect.objectContaining({
      key: 'example › specs/shop.spec.ts › pays',
      verdict: 'flaky',
      passedFirstTry: 1,
      passedOnRetry: 1,
      classes: { device: 1 },
      failingStep: { title: "Tap text='Pay'", count: 1 },
    }),
  ]);
});

test('bad input: no reports, an unknown option, a bad number', async () => {
  const empty = mkdtempSync(path.join(tmpdir(), 'nw-flaky-empty-'));
  const a = io();
  expect(await flakyCommand([empty], a.io)).toBe(1);
  expect(a.err.join('')).toContain('no run found in');
  const b = io();
  expect(await flakyCommand([empty, '--lats', '3'], b.io)).toBe(2);
  expect(b.err.join('')).toMatch(/Unknown option '--lats'/);
  const c = io();
  expect(await flakyCommand([empty, '--threshold', '80'], c.io)).toBe(2);
  expect(c.err.join('')).toContain('--threshold 80: expected a rate from 0 to 1');
  const d = io();
  expect(await flakyCommand([], d.io)).toBe(2);
});

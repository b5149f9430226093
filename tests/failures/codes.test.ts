/**
 * Every error code the project defines has a failure class: the codes of the protocol, the
 * providers and `nestwright mcp` from their schemas, and every code written anywhere in the
 * sources (`code: 'X'`, `toolError('X'`, `new AiError(…, 'X'`, …) found by reading them, so a new
 * code without a class fails here. Then the classification's rules of where, the report
 * categories and docs/errors.md, on the same table.
 */
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCodeSchema } from '../../device-runtime/protocol/index.js';
import { ProviderErrorCodeSchema } from '../../device-runtime/providers/adb/errors.js';
import { AgentErrorCodeSchema } from '../../cli/mcp/errors.js';
import { classOfCode, classifiedCodes, FAILURE_CLASSES } from '../../framework/failure/codes.js';
import { classifyFailure, describeVerdict, parseVerdict } from '../../framework/failure/classify.js';
import { AppCrashedError, NestwrightError, TimeoutError } from '../../framework/core/errors.js';
import { AiError } from '../../framework/ai/errors.js';
import { CATEGORIES, classify, statusOf } from '../../reporters/allure/categories.js';
import type { TrajectoryStep } from '../../framework/core/trajectory-schema.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Codes that are written like error codes but are not errors: outcomes. */
const NOT_ERRORS = new Set([
  // framework/heal/heal.ts: why a locator was not healed (an outcome of healing, never thrown)
  'NOT_BROKEN',
  'TREE_MISSING',
  'NO_CANDIDATE',
  'BELOW_THRESHOLD',
  'NO_MARGIN',
  'NOT_UNIQUE',
  'MODEL_DECLINED',
  // device-runtime/sim/core/audit.ts: an audit line's result
  'OK',
  // an install preflight check that only warns (device-runtime/protocol/preflight.ts)
  'DANGEROUS_PERMISSIONS',
  // Node's own system error codes, compared where a socket or a file fails
  'ENOENT',
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'node_modules' ? [] : sources(p);
    return d.name.endsWith('.ts') ? [p] : [];
  });
}

const WRITTEN = [
  /\bcode: '([A-Z][A-Z0-9_]+)'/g,
  /\bcode === '([A-Z][A-Z0-9_]+)'/g,
  /\btoolError\(\s*'([A-Z][A-Z0-9_]+)'/g,
  /\b(?:ScriptError|ModelError|AgentError|ProviderError)\(\s*'([A-Z][A-Z0-9_]+)'/g,
  /\bAiError\([^,]+,\s*'([A-Z][A-Z0-9_]+)'/g,
  /'(AI_[A-Z_]+)'/g,
  /\bfail\(\s*'([A-Z][A-Z0-9_]+)'/g,
];

test('every error code the project defines has a class', () => {
  const defined = new Set<string>([
    ...ErrorCodeSchema.options,
    ...ProviderErrorCodeSchema.options,
    ...AgentErrorCodeSchema.options,
  ]);
  const where = new Map<string, string>();
  for (const dir of ['framework', 'device-runtime', 'cli', 'reporters']) {
    for (const file of sources(path.join(ROOT, dir))) {
      const text = readFileSync(file, 'utf8');
      // The members of a `type …Code… = 'A' | 'B'` union, and of a `code: 'A' | 'B'` field.
      const unions = [...text.matchAll(/type \w*Code\w* =([^;]+);|\bcode: ('[A-Z][^;\n]+)/g)].map((m) => m[1] ?? m[2]!);
      const literals = unions.flatMap((u) => [...u.matchAll(/'([A-Z][A-Z0-9_]+)'/g)]);
      for (const re of WRITTEN)
        for (const m of [...text.matchAll(re), ...literals]) {
          if (NOT_ERRORS.has(m[1]!)) continue;
          defined.add(m[1]!);
          if (!where.has(m[1]!)) where.set(m[1]!, path.relative(ROOT, file));
        }
    }
  }
  expect(defined.size).toBeGreaterThan(100);
  const missing = [...defined].filter((c) => classOfCode(c) === null).map((c) => `${c} (${where.get(c) ?? 'schema'})`);
  expect(missing, 'add these to framework/failure/codes.ts').toEqual([]);
  // And the table holds nothing the project does not define.
  const stale = classifiedCodes().filter(
    (c) => !defined.has(c) && !['TEST_TIMEOUT', 'TEST_FAILED', 'ASSERTION_FAILED'].includes(c),
  );
  expect(stale, 'codes in framework/failure/codes.ts that nothing defines').toEqual([]);
});

test('docs/errors.md and the report categories list every code and class', () => {
  const doc = readFileSync(path.join(ROOT, 'docs/errors.md'), 'utf8');
  const rows = new Map<string, string>();
  for (const m of doc.matchAll(/^\| `([a-z]+)` \| (.*) \|$/gm))
    for (const c of m[2]!.matchAll(/`([A-Z0-9_]+)`/g)) rows.set(c[1]!, m[1]!);
  const wrong = classifiedCodes().filter((c) => rows.get(c) !== classOfCode(c));
  expect(wrong, 'regenerate the table of docs/errors.md#whose-a-failure-is').toEqual([]);
  for (const cls of FAILURE_CLASSES.filter((c) => c !== 'flaky')) {
    expect(
      CATEGORIES.some((c) =>
        new RegExp(String(c.messageRegex).replace('(?s)', '')).test(`[${cls} · INVALID_ARGUMENT] x`),
      ),
    ).toBe(true);
  }
  expect(CATEGORIES.at(-1)).toMatchObject({ name: 'Other errors' });
});

const obs = (extra: object = {}) => ({
  snapshot_id: 's1',
  package: 'com.nestwright.shop',
  activity: '.CartActivity',
  nodes: [],
  ...extra,
});
const step = (s: Partial<TrajectoryStep>): TrajectoryStep =>
  ({
    index: 2,
    kind: 'action',
    api: 'locator.tap',
    title: "Tap text='Pay'",
    durationMs: 5,
    result: 'failed',
    error: null,
    ...s,
  }) as TrajectoryStep;

test('where it happened decides: a timeout on a stable screen is the test, with no screen the device, of an expect the app', () => {
  const classOf = (error: Error | null, steps: TrajectoryStep[] = [], status = 'failed') =>
    classifyFailure({ error, status, steps });
  const stable = new TimeoutError('locator.tap', 'timeout 2000ms exceeded.', [], obs() as never);
  expect(classOf(stable)).toMatchObject({ class: 'test', code: 'TIMEOUT', api: 'locator.tap' });
  const busy = new TimeoutError('locator.tap', 'timeout 2000ms exceeded.', [], obs({ tree_missing: true }) as never);
  expect(classOf(busy).class).toBe('device');
  expect(classOf(new TimeoutError('locator.tap', 'timeout', [], null)).class).toBe('device');
  expect(classOf(new TimeoutError('expect.toBeVisible', 'timeout', [], obs() as never)).class).toBe('app');
  // A wait that is not a locator's (a WebView's page under the hostile profile) is the device's.
  expect(classOf(new TimeoutError('app.webview', 'timeout', [], obs() as never)).class).toBe('device');
  // The device's own TIMEOUT (a tool call not answered) is the device's.
  expect(classOf(new NestwrightError('locator.tap', 'ui_tap: TIMEOUT', { code: 'TIMEOUT' })).class).toBe('device');
  expect(classOf(new AppCrashedError('locator.tap', 'crashed', null, []))).toMatchObject({
    class: 'app',
    code: 'APP_CRASHED',
  });
  expect(classOf(new NestwrightError('app.launch', 'x', { code: 'INVALID_ARGUMENT' })).class).toBe('test');
  expect(classOf(new AiError('app.ai.act', 'AI_BUDGET_EXCEEDED', 'over budget')).class).toBe('ai');
  expect(classOf(new NestwrightError('app.route', 'threw', { code: 'ROUTE_FAILED' })).class).toBe('network');
  // A skill's failure is its cause's.
  const cause = new NestwrightError('skill', 'gone', { code: 'DEVICE_DISCONNECTED' });
  expect(classOf(new NestwrightError('app.runSkill', 'failed', { code: 'SKILL_FAILED', cause }))).toMatchObject({
    class: 'device',
    code: 'SKILL_FAILED',
  });
  // Not nestwright's: after a failed matcher step the app's; otherwise the test's own code.
  expect(classOf(new Error('expect(received)'), [step({ kind: 'assertion', api: 'expect.toHaveText' })])).toMatchObject(
    {
      class: 'app',
      code: 'ASSERTION_FAILED',
      step: { index: 2, title: "Tap text='Pay'" },
    },
  );
  expect(classOf(new TypeError('x is not a function'))).toMatchObject({ class: 'test', code: 'TEST_FAILED' });
  expect(classOf(null, [], 'timedOut')).toMatchObject({ class: 'test', code: 'TEST_TIMEOUT' });
  expect(classOf(null, [step({})], 'timedOut')).toMatchObject({ class: 'device', code: 'TIMEOUT' });
});

test('the annotation reads back as it was written', () => {
  const v = classifyFailure({
    error: new NestwrightError('app.launch', 'no activity', { code: 'INVALID_ARGUMENT' }),
    status: 'failed',
    steps: [step({ title: 'Launch · .Typo' })],
  });
  expect(parseVerdict(describeVerdict(v))).toEqual({
    class: 'test',
    code: 'INVALID_ARGUMENT',
    api: 'app.launch',
    step: 'Launch · .Typo',
    why: v.why,
  });
  expect(parseVerdict('not one of ours')).toBeNull();
});

test("an error nestwright throws without saying whose it is is nestwright's own (NESTWRIGHT_BUG), never the test's", () => {
  const bug = new NestwrightError('locator.tap', 'the pipeline lost the node it resolved');
  expect(bug.code).toBe('NESTWRIGHT_BUG');
  expect(classOfCode('NESTWRIGHT_BUG')).toBe('nestwright');
  const v = classifyFailure({ error: bug, status: 'failed', steps: [step({})] });
  expect(v).toMatchObject({ class: 'nestwright', code: 'NESTWRIGHT_BUG', api: 'locator.tap' });
  expect(v.class).not.toBe('test');
  // The report: its own category, and broken (rerunning or fixing the test is not the answer), not failed.
  const inReport = classify([{ type: 'failure', description: describeVerdict(v) }], null, false);
  expect(inReport).toEqual({ class: 'nestwright', code: 'NESTWRIGHT_BUG' });
  expect(statusOf(inReport)).toBe('broken');
  expect(CATEGORIES.find((c) => c.name === "nestwright's own faults")?.messageRegex).toBe(
    '(?s)\\[nestwright · [A-Z0-9_]+\\].*',
  );
  // A cause with a code still gives it; a user's mistake says so explicitly.
  const timedOut = new NestwrightError('locator.tap', 'ui_tap: TIMEOUT', { code: 'TIMEOUT' });
  expect(new NestwrightError('skill', 'step 2 failed', { cause: timedOut }).code).toBe('TIMEOUT');
  expect(classOf(new NestwrightError('getByRole', 'unknown role', { code: 'USAGE' }))).toBe('test');
});

const classOf = (error: Error) => classifyFailure({ error, status: 'failed', steps: [] }).class;

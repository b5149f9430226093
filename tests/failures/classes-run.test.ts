/**
 * Every failure class produced by a real failure on the simulator, in ONE child run (it costs
 * seconds): an app crash, usage errors (an activity typo, an option typo, a locator that matches
 * nothing on a stable screen), a failed assertion, a route handler that throws, a killed device,
 * a flake on the hostile profile that passes on its retry, and a quarantined failure that does not
 * fail the build. Each is read back from the JSON report: the `failure` annotation, the tag on
 * the message's first line, the `flaky` annotation's "what changed", the `quarantine` one.
 */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInline } from '../framework/inline.js';
import { tempDir } from '../runtime/helpers.js';
import { spawnSim } from '../transport/spawn-sim.js';
import { parseVerdict } from '../../framework/failure/classify.js';
import { flakyCommand } from '../../cli/commands/flaky.js';

test.describe.configure({ timeout: 240_000 });

interface Reported {
  title: string;
  results: Array<{
    status: string;
    retry: number;
    errors: Array<{ message?: string }>;
    annotations: Array<{ type: string; description?: string }>;
  }>;
  expectedStatus: string;
  annotations: Array<{ type: string; description?: string }>;
}

function tests(raw: any): Reported[] {
  const out: Reported[] = [];
  const walk = (suite: any) => {
    for (const s of suite.suites ?? []) walk(s);
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        out.push({
          title: spec.title,
          results: t.results,
          expectedStatus: t.expectedStatus,
          annotations: t.annotations ?? [],
        });
  };
  for (const s of raw.suites ?? []) walk(s);
  return out;
}

const SPECS = {
  'classes.spec.ts': `
import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk' });

test('app crash', async ({ app }) => {
  await app.launch({ activity: '.CartActivity' });
  await app.getByRole('button', { name: 'Apply' }).tap();
});

test('activity typo', async ({ app }) => {
  await app.launch({ activity: '.CartActivty' });
});

test.describe('option typo', () => {
  test.use({ colorScheme: 'drak' as never });
  test('colorScheme drak', async ({ app }) => {
    await app.launch({ activity: '.CartActivity' });
  });
});

test('locator matches nothing', async ({ app }) => {
  await app.launch({ activity: '.CartActivity' });
  await app.getByRole('button', { name: 'Pay with bitcoin' }).tap({ timeout: 1_500 });
});

test('assertion about the app', async ({ app }) => {
  await app.launch({ activity: '.CartActivity' });
  await expect(app.getByText('Free shipping forever')).toBeVisible({ timeout: 1_000 });
});

test('route handler throws', async ({ app }) => {
  await app.route('**/products?page=*', () => {
    throw new Error('the handler has a bug');
  });
  await app.launch({ activity: '.CatalogActivity' });
  await expect(app.getById('product_row').first()).toBeVisible({ timeout: 5_000 }).catch(() => {});
});

test('quarantined failure', async ({ app }) => {
  await app.launch({ activity: '.CartActivty' });
});
`,
  'killed.spec.ts': `
import { test } from 'nestwright';
test.use({
  apk: 'fixtures/apks/notes.apk',
  deviceOptions: { provider: 'sim', url: process.env.KILL_URL!, token: process.env.KILL_TOKEN! },
});
test('killed device', async ({ app }) => {
  process.kill(-Number(process.env.KILL_PID), 'SIGKILL');
  await new Promise((r) => setTimeout(r, 300));
  await app.getByText('New note').tap();
});
`,
  'flaky.spec.ts': `
import { test, expect, devices } from 'nestwright';
// The hostile profile, seeded: the same faults every run. The first attempt's wait is shorter
// than the seeded profile's catalog load; its retry (a fresh worker, a fresh instance) waits long enough.
test.use({ apk: 'fixtures/apks/shop.apk', deviceOptions: devices.sim({ faults: 'hostile', seed: 3 }) });
test.describe.configure({ retries: 1 });
test('hostile flake', async ({ app }) => {
  await app.launch({ activity: '.CatalogActivity' });
  await expect(app.getById('product_row').first()).toBeVisible({ timeout: test.info().retry === 0 ? 1 : 30_000 });
});
`,
  'nestwright.quarantine.json': JSON.stringify({
    tests: [
      { title: 'quarantined failure', reason: 'issue 52: the cart activity is being renamed', expires: '2999-12-31' },
    ],
  }),
};

test('every class from a real failure on the simulator, the retry diff and the quarantine, in one child run', async () => {
  const dir = tempDir('nw-kill-');
  const sim = await spawnSim(['--port', '0', '--state-dir', dir]);
  try {
    const blobs = tempDir('nw-blob-');
    const run = await runInline(SPECS, {
      args: ['--reporter=json,blob'],
      env: {
        PLAYWRIGHT_BLOB_OUTPUT_DIR: blobs,
        KILL_URL: sim.url,
        KILL_TOKEN: readFileSync(join(dir, 'token'), 'utf8').trim(),
        KILL_PID: String(sim.child.pid),
      },
    });
    const all = tests(run.raw);
    const get = (title: string) => {
      const t = all.find((x) => x.title === title);
      if (!t) throw new Error(`no ${title}: ${all.map((x) => x.title).join(', ')}\n${run.stderr}`);
      return t;
    };
    const verdict = (title: string) => {
      const r = get(title).results.at(-1)!;
      const a = r.annotations.find((x) => x.type === 'failure');
      return { ...parseVerdict(a?.description), first: (r.errors[0]?.message ?? '').split('\n')[0] };
    };
    const expected: Array<[string, string, string]> = [
      ['app crash', 'app', 'APP_CRASHED'],
      ['activity typo', 'test', 'INVALID_ARGUMENT'],
      ['colorScheme drak', 'test', 'OPTION_INVALID'],
      ['locator matches nothing', 'test', 'TIMEOUT'],
      ['assertion about the app', 'app', 'ASSERTION_FAILED'],
      ['route handler throws', 'network', 'ROUTE_FAILED'],
      ['killed device', 'device', 'DEVICE_DISCONNECTED'],
    ];
    for (const [title, cls, code] of expected) {
      const v = verdict(title);
      expect.soft({ title, class: v.class, code: v.code }).toEqual({ title, class: cls, code });
    }
    // The first line of the message says whose it is (for the test's own first error).
    expect(verdict('activity typo').first).toMatch(/^\[test · INVALID_ARGUMENT\] NestwrightError: app\.launch: /);
    expect(verdict('app crash').first).toMatch(/^\[app · APP_CRASHED\] /);

    // The flake: failed, then passed on retry, with what changed between the attempts.
    const flake = get('hostile flake');
    expect(flake.results.map((r) => r.status)).toEqual(['failed', 'passed']);
    const passed = flake.results[1]!;
    expect(parseVerdict(passed.annotations.find((a) => a.type === 'failure')?.description)).toMatchObject({
      class: 'flaky',
      code: 'ASSERTION_FAILED',
    });
    const diff = passed.annotations.find((a) => a.type === 'flaky')?.description ?? '';
    test.info().annotations.push({ type: 'retry-diff', description: diff });
    expect(diff).toMatch(/failed \(ASSERTION_FAILED\) on retry 0, \d+ms and passed now/);
    expect(diff).toMatch(/screen at failure: com\.nestwright\.shop /);

    // The quarantine: the test ran and failed, its failure is reported and classified, the build does not count it.
    const q = get('quarantined failure');
    expect(q.results).toHaveLength(1);
    expect(q.results[0]!.status).toBe('failed');
    expect(q.expectedStatus).toBe('failed');
    expect(q.results[0]!.annotations).toContainEqual({
      type: 'quarantine',
      description: 'issue 52: the cart activity is being renamed (until 2999-12-31)',
    });
    expect(verdict('quarantined failure')).toMatchObject({ class: 'test', code: 'INVALID_ARGUMENT' });
    expect((run.raw as { stats: { unexpected: number } }).stats.unexpected).toBe(expected.length);

    // The same run as a blob report (a CI shard), read by `nestwright flaky`: the classes are there.
    const out: string[] = [];
    const code = await flakyCommand([blobs, '--json'], { out: (t) => out.push(t), err: (t) => out.push(t) });
    expect(code, out.join('')).toBe(0);
    const trends = JSON.parse(out.join('')).tests as Array<{ key: string; verdict: string; classes: object }>;
    const trend = (title: string) => trends.find((t) => t.key.endsWith(` › ${title}`));
    expect(trend('killed device')).toMatchObject({ verdict: 'broken', classes: { device: 1 } });
    expect(trend('hostile flake')).toMatchObject({ verdict: 'flaky', classes: { app: 1 } });
    expect(trend('route handler throws')).toMatchObject({ classes: { network: 1 } });
  } finally {
    await sim.kill('SIGKILL');
  }
});

test('an expired quarantine entry fails the run before any test, saying so', async () => {
  const run = await runInline({
    'a.spec.ts': `import { test } from 'nestwright';\ntest('runs', async () => {});\n`,
    'nestwright.quarantine.json': JSON.stringify({
      tests: [{ title: 'a.spec.ts › runs', reason: 'issue 52', expires: '2020-01-31' }],
    }),
  });
  expect(run.exitCode).toBe(1);
  expect(run.results).toEqual([]);
  expect(run.stderr).toContain('1 quarantine entry has expired in');
  expect(run.stderr).toContain('a.spec.ts › runs expired on 2020-01-31 (reason: issue 52)');
});

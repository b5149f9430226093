import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { childTsconfigArgs } from '../child-bundle.js';
import { childEnv } from '../inline-run.js';
import { FakeCompanion } from './fake-companion.js';

/**
 * The example suite's specs through the `companion` provider: the run's global setup opens the
 * endpoint, fake phones dial in to it (as the companion app does, retrying until it is up), and
 * the same specs run with only use.deviceOptions changed. Specs that need what a phone through a
 * companion cannot give (two instances of one app, the device-world extension, baselines of the
 * simulator's own pictures) stay out: docs/devices.md#companion says which.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const APKS = path.join(ROOT, 'fixtures/apks');
const KEY = 'dc_example_key_0123456789';
const SPECS = ['notes.spec.ts', 'settings.spec.ts', 'shop.spec.ts'];
// These start the shop at an inner activity, which a companion cannot (NOT_SUPPORTED, tested in
// provider.test.ts), or assert the activity in front, which a companion does not report.
const NOT_ON_A_COMPANION =
  'adds a product from far down|checks out|an empty coupon crashes|creates a note and sees it|finds Wi-Fi by searching';

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

async function runWithPhones(names: string[], workers: number) {
  const port = await freePort();
  const dir = path.join(ROOT, 'test-results', 'companion-example', randomUUID().slice(0, 8));
  await mkdir(dir, { recursive: true });
  const device = { provider: 'companion', listen: { host: '127.0.0.1', port }, keys: [KEY], phoneWaitMs: 120_000 };
  await writeFile(
    path.join(dir, 'playwright.config.ts'),
    `import base from '../../../playwright.config.ts';
export default { ...base, testDir: '../../../specs', outputDir: './out', reporter: [['json']], use: { ...base.use, deviceOptions: ${JSON.stringify(device)} } };
`,
  );
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/@playwright/test/cli.js'),
      'test',
      '-c',
      dir,
      `--workers=${workers}`,
      `--grep-invert=${NOT_ON_A_COMPANION}`,
      ...SPECS,
      ...(await childTsconfigArgs()),
    ],
    { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const phones = names.map(
    (name) =>
      new FakeCompanion({
        url: `ws://127.0.0.1:${port}/ws/device`,
        key: KEY,
        name,
        apks: [`${APKS}/notes.apk`, `${APKS}/shop.apk`],
        canClear: true,
        dialect: 'design',
      }),
  );
  const dialled = Promise.all(phones.map((p) => p.start()));
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => (out += d));
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  await dialled.catch(() => {});
  await Promise.all(phones.map((p) => p.close()));
  await rm(dir, { recursive: true, force: true });
  let report: any;
  try {
    report = JSON.parse(out.slice(out.indexOf('{')));
  } catch {
    throw new Error(`no JSON report (exit ${code}):\n${out.slice(0, 3000)}\n${err.slice(0, 3000)}`);
  }
  const failures: string[] = [];
  const walk = (s: any) => {
    for (const c of s.suites ?? []) walk(c);
    for (const spec of s.specs ?? [])
      for (const t of spec.tests)
        for (const r of t.results)
          if (r.status !== t.expectedStatus && r.status !== 'skipped')
            failures.push(`${spec.title}: ${r.error?.message?.slice(0, 600)}`);
  };
  for (const s of report.suites ?? []) walk(s);
  const served = phones.map((p) => p.received.filter((m) => m.type === 'get_screen').length);
  return { code, stats: report.stats, failures: failures.join('\n\n'), served, err };
}

test('the notes, settings and shop specs pass through the companion provider, one phone, data reset per test', async () => {
  test.setTimeout(600_000);
  const r = await runWithPhones(['phone-a'], 1);
  expect(r.failures).toBe('');
  expect(r.stats.unexpected).toBe(0);
  expect(r.stats.expected).toBeGreaterThanOrEqual(9);
  expect(r.err).toContain('companion phones connect to ws://<this machine>:');
  expect(r.code).toBe(0);
});

test('two phones, two workers: the tests are spread over both', async () => {
  test.setTimeout(600_000);
  const r = await runWithPhones(['phone-a', 'phone-b'], 2);
  expect(r.failures).toBe('');
  expect(r.code).toBe(0);
  expect(
    r.served.every((n) => n > 0),
    `observations per phone: ${r.served.join(', ')}`,
  ).toBe(true);
});

/** `nestwright inspect`: exit codes, table and JSON output, usage errors. */
import { test, expect } from '@playwright/test';
import { inspectCommand } from '../../cli/commands/inspect.js';
import { fixture, groundTruth } from './helpers.js';

test.skip(!groundTruth(), 'fixtures/apks not built yet (npm run fixtures:apks)');

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await inspectCommand(argv, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
  });
  return { code, out, err };
}

test('an installable APK: exit 0 and an aligned table', async () => {
  const r = await run(fixture('notes.apk'));
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/^package\s+com\.nestwright\.notes$/m);
  expect(r.out).toMatch(/^label\s+Notes$/m);
  expect(r.out).toMatch(/^ {2}OK {2}SIGNATURE_MISMATCH {5}Not installed/m);
  expect(r.out.trimEnd().endsWith('installable')).toBe(true);
});

test('--page-size 16k rejects a 4 KB-aligned library (exit 1); default 4k only warns (exit 0)', async () => {
  const r16 = await run(fixture('native-4k.apk'), '--page-size', '16k');
  expect(r16.code).toBe(1);
  expect(r16.out).toMatch(/REJECT\s+NOT_16KB_ALIGNED/);
  expect(r16.out).toMatch(/lib\/x86_64\/libnative4k\.so\s+4096\s+4096\s+NO\s+NO/);
  const r4 = await run(fixture('native-4k.apk'));
  expect(r4.code).toBe(0);
  expect(r4.out).toMatch(/WARN\s+NOT_16KB_ALIGNED/);
});

test('--abi and --json', async () => {
  const r = await run(fixture('arm64-only.apk'), '--abi', 'x86_64', '--json');
  expect(r.code).toBe(1);
  const json = JSON.parse(r.out) as {
    device: { abis: string[] };
    info: { package: string };
    report: { checks: Array<{ code: string; status: string }> };
  };
  expect(json.device.abis).toEqual(['x86_64']);
  expect(json.info.package).toBe('com.nestwright.arm64');
  expect(json.report.checks.find((c) => c.code === 'ABI_MISMATCH')?.status).toBe('reject');
});

test('split sets and bundles', async () => {
  expect((await run(fixture('split.xapk'))).code).toBe(0);
  expect(
    (await run(fixture('split-base.apk'), fixture('split-config.x86_64.apk'), fixture('split-feature.apk'))).code,
  ).toBe(0);
  expect((await run(fixture('split-base.apk'))).code).toBe(1);
});

test('unreadable input: exit 1 with INVALID_APK', async () => {
  const r = await run(fixture('build.sh'));
  expect(r.code).toBe(1);
  expect(r.out).toMatch(/REJECT\s+INVALID_APK\s+inspectApk: /);
});

test('usage errors: exit 2 and a message naming nestwright inspect', async () => {
  for (const argv of [
    [],
    ['--frobnicate', fixture('notes.apk')],
    [fixture('notes.apk'), '--page-size', '8k'],
    [fixture('notes.apk'), '--sdk', 'latest'],
    [fixture('notes.apk'), '--abi', ','],
  ]) {
    const r = await run(...argv);
    expect(r.code, argv.join(' ')).toBe(2);
    expect(r.err).toMatch(/^nestwright inspect: /);
    expect(r.err).toContain('nestwright inspect --help');
    expect(r.out).toBe('');
  }
  expect((await run('--help')).code).toBe(0);
});

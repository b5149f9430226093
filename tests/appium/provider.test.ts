import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DeviceError } from '../../device-runtime/client/index.js';
import { connectDevice } from '../../device-runtime/providers/index.js';
import { childTsconfigArgs } from '../child-bundle.js';
import { childEnv } from '../inline-run.js';
import { ROOT } from './appium-server.js';
import { expect, test } from './fixtures.js';

/**
 * The example suite (specs/) through the `appium` provider, against the Appium server of this
 * worker with the NestSpace driver behind it: the same specs, the same config, only use.deviceOptions
 * changed. The reset isolation (what runs on a UiAutomator2 farm) is exercised against the
 * same server, through the commands it would send there.
 */
async function runExample(
  device: Record<string, unknown>,
  args: string[],
): Promise<{
  code: number;
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  out: string;
}> {
  const dir = path.join(ROOT, 'test-results', 'appium-provider', randomUUID().slice(0, 8));
  await mkdir(dir, { recursive: true });
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
      ...args,
      ...(await childTsconfigArgs()),
    ],
    { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => (out += d));
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
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
  return { code, stats: report.stats, out: failures.join('\n\n') };
}

const CAPS = { platformName: 'Android', 'appium:automationName': 'NestSpace' };

test('the example suite passes through the appium provider (a fresh instance per test)', async ({ appium }) => {
  test.setTimeout(600_000);
  const r = await runExample({ provider: 'appium', url: appium.url, capabilities: CAPS }, ['--workers=2']);
  expect(r.out).toBe('');
  expect(r.stats.unexpected).toBe(0);
  expect(r.stats.expected).toBeGreaterThanOrEqual(16); // every spec of specs/ (16 today)
  expect(r.code).toBe(0);
});

test("reset isolation (any Appium driver): data cleared per test, so a test never sees the last one's notes", async ({
  appium,
}) => {
  test.setTimeout(300_000);
  const r = await runExample({ provider: 'appium', url: appium.url, capabilities: CAPS, isolation: 'reset' }, [
    '--workers=1',
    'notes.spec.ts',
  ]);
  expect(r.out).toBe('');
  expect(r.stats.unexpected).toBe(0);
  expect(r.stats.expected).toBe(6);
});

test('bad appium settings fail with the code and what to check', async ({ appium }) => {
  const errorOf = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected an error');
      },
      (e: DeviceError) => e,
    );
  const conn = await connectDevice({
    provider: 'appium',
    url: appium.url,
    capabilities: { ...CAPS, 'nestspace:instnace': 'new' },
  });
  const c = conn.client;
  const space = await c.call('space_create', { name: 'bad caps' });
  const { package: pkg } = await c.call('space_install_apk', {
    space_id: space.space_id,
    apk_paths: ['fixtures/apks/notes.apk'],
  });
  const e = await errorOf(c.call('space_launch', { space_id: space.space_id, package: pkg, instance: 'new' }));
  expect(e.code).toBe('INVALID_ARGUMENT');
  expect(e.message).toMatch(/session not created.*unknown capability 'nestspace:instnace'/s);
  expect(e.hint).toMatch(/use\.deviceOptions\.capabilities/);
  await conn.close();

  const gone = await connectDevice({ provider: 'appium', url: 'http://127.0.0.1:9', capabilities: CAPS });
  const down = await errorOf(gone.client.call('runtime_info', {}));
  expect(down.code).toBe('DEVICE_DISCONNECTED');
  expect(down.hint).toMatch(/Appium server running at use\.deviceOptions\.url/);

  const bad = await errorOf(connectDevice({ provider: 'appium', capabilities: CAPS }));
  expect(bad.message).toMatch(/use\.deviceOptions\.url: /);
});

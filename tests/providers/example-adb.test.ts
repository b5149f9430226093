import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { HAVE_ADB } from '../adb/real-adb.js';
import { childTsconfigArgs } from '../child-bundle.js';
import { childEnv } from '../inline-run.js';
import { FakeAndroid, ROOT } from './fake-android.js';

/**
 * The whole example suite, unchanged, with the CI recipes' config (ci/android.config.ts:
 * `{ provider: 'adb', pool: true }`) against the fake adb: device discovery, runtime check,
 * `adb forward tcp:0 tcp:8765` to each device's runtime, token read with run-as, and the MCP
 * client over the forward — for every worker, spread over two devices; Allure results written.
 *
 * Where Google's adb is installed, tests/adb/example-suite.test.ts runs the whole suite through it
 * with this same config: here the fake adb then runs two of its files (9 tests, both devices),
 * which is what this test adds (the fake's own devices: a USB phone and an emulator). Without
 * Google's adb, this is the whole suite's run through the adb provider.
 */
const FILES = HAVE_ADB ? ['specs/notes.spec.ts', 'specs/settings.spec.ts'] : [];

test("the example suite (two of its files where Google's adb runs all of it) passes end to end through the adb provider and the fake adb", async () => {
  test.setTimeout(600_000);
  const fake = await FakeAndroid.create([
    { serial: 'R58M123ABC', usb: '1-1', runtime: { running: true } },
    { serial: 'emulator-5554', emulator: { avd: 'Pixel_8_API_34', consolePort: 5554 }, runtime: { running: true } },
  ]);
  try {
    await fake.warm();
    const results = join(fake.dir, 'allure-results');
    const args = [
      join(ROOT, 'node_modules/@playwright/test/cli.js'),
      'test',
      '-c',
      'ci/android.config.ts',
      '--workers=2',
      ...FILES,
      ...(await childTsconfigArgs()),
    ];
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: childEnv({ ...fake.env(), NESTWRIGHT_ALLURE_RESULTS: results }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('close', r));
    expect(out, out).toMatch(/\b\d+ passed\b/);
    expect(out).not.toMatch(/\b\d+ (failed|flaky)\b/);
    expect(code, out).toBe(0);
    // Both devices served workers, through forwards that are gone now.
    const log = (await import('node:fs')).readFileSync(join(fake.dir, 'adb-server.log'), 'utf8');
    expect(log).toContain('adb -s R58M123ABC forward tcp:0 tcp:8765');
    expect(log).toContain('adb -s emulator-5554 forward tcp:0 tcp:8765');
    expect((await fake.state()).forwards).toEqual([]);
    expect(readdirSync(results).filter((f) => f.endsWith('-result.json')).length).toBeGreaterThan(5);
  } finally {
    await fake.close();
  }
});

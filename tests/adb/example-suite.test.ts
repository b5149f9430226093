import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childTsconfigArgs } from '../child-bundle.js';
import { childEnv } from '../inline-run.js';
import { HAVE_ADB, NO_ADB_MESSAGE, RealAdb, ROOT } from './real-adb.js';

/**
 * The whole example suite, unchanged, with the CI recipes' config (ci/android.config.ts:
 * `{ provider: 'adb', pool: true }`) through Google's adb: two devices, each a
 * `nestwright sim --adb-port 0` that adb reaches with `adb connect`; for every worker, device
 * discovery, the runtime check (dumpsys package), `adb forward tcp:0 tcp:8765`, the token read
 * with run-as, the MCP client over the forward, and `adb track-devices` watching the device.
 */
test.skip(!HAVE_ADB, NO_ADB_MESSAGE);

test('the example suite passes end to end through the adb provider and the real adb', async () => {
  test.setTimeout(900_000);
  const adb = await RealAdb.create();
  const results = mkdtempSync(join(tmpdir(), 'nw-real-adb-allure-'));
  try {
    const devices = [await adb.simProcess(), await adb.simProcess()];
    const listed = (await adb.adb('devices')).stdout;
    for (const d of devices) expect(listed).toContain(`${d.serial}\tdevice`);
    const child = spawn(
      process.execPath,
      [
        join('node_modules/@playwright/test/cli.js'),
        'test',
        '-c',
        'ci/android.config.ts',
        '--workers=2',
        ...(await childTsconfigArgs()),
      ],
      {
        cwd: ROOT,
        env: childEnv({ ...adb.env(), NESTWRIGHT_ALLURE_RESULTS: results }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('close', r));
    expect(out, out).toMatch(/\b\d+ passed\b/);
    expect(out).not.toMatch(/\b\d+ (failed|flaky)\b/);
    expect(code, out).toBe(0);
    // Every worker removed its forward when it finished.
    expect((await adb.adb('forward', '--list')).stdout.trim()).toBe('');
    expect(readdirSync(results).filter((f) => f.endsWith('-result.json')).length).toBeGreaterThan(5);
  } finally {
    await adb.close();
    rmSync(results, { recursive: true, force: true });
  }
});

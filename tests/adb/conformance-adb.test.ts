import { test, expect } from '@playwright/test';
import { conformanceCommand } from '../../cli/commands/conformance.js';
import { HAVE_ADB, NO_ADB_MESSAGE, RealAdb } from './real-adb.js';

/** `nestwright conformance --adb SERIAL`: the whole kit, through Google's adb and a forward, against a simulated device. */
test.skip(!HAVE_ADB, NO_ADB_MESSAGE);

test('nestwright conformance --adb: every check passes through the real adb', async () => {
  test.setTimeout(600_000);
  const adb = (await RealAdb.create()).use();
  try {
    const dev = await adb.device();
    const out: string[] = [];
    const err: string[] = [];
    const code = await conformanceCommand(['--adb', dev.serial, '--json'], {
      out: (t) => void out.push(t),
      err: (t) => void err.push(t),
    });
    const report = JSON.parse(out.join('')) as { failed: number; checks: Array<{ id: string; status: string }> };
    expect(
      report.checks.filter((c) => c.status === 'fail'),
      err.join(''),
    ).toEqual([]);
    expect(report.failed).toBe(0);
    expect(report.checks.length).toBeGreaterThan(20);
    expect(code).toBe(0);
    // The kit's sessions ended and their forwards went with them.
    expect((await adb.adb('forward', '--list')).stdout.trim()).toBe('');
  } finally {
    await adb.close();
  }
});

import { test, expect } from '@playwright/test';
import { devicesCommand } from '../../cli/commands/devices.js';
import { doctorCommand } from '../../cli/commands/doctor.js';
import { HAVE_ADB, NO_ADB_MESSAGE, RealAdb } from './real-adb.js';

/**
 * `nestwright doctor` and `nestwright devices` through Google's adb: a device with its runtime
 * running, one whose runtime is not installed, and one that refused this computer's key.
 */
test.skip(!HAVE_ADB, NO_ADB_MESSAGE);
test.describe.configure({ timeout: 180_000 });

function capture() {
  const io = { text: '', err: '' };
  return { io, cli: { out: (t: string) => void (io.text += t), err: (t: string) => void (io.err += t) } };
}

test('doctor finds Debian adb and lists each device with its runtime; devices prints the table and what to do', async () => {
  const adb = (await RealAdb.create()).use();
  process.env.NESTWRIGHT_DOCTOR_BUDGET_MS = '60000';
  try {
    const ok = await adb.device({ model: 'Pixel 8', api: 35, abi: 'arm64-v8a' });
    const bare = await adb.device({ runtimeInstalled: false, running: false });
    const locked = await adb.device({ keyFiles: [], connect: 'unauthorized' });

    const d = capture();
    await doctorCommand(['--json'], d.cli);
    const { checks } = JSON.parse(d.io.text) as {
      checks: Array<{ name: string; status: string; detail: string; fix?: string }>;
    };
    const by = (n: string) => checks.find((c) => c.name === n)!;
    expect(by('adb').status).toBe('ok');
    expect(by('adb').detail).toMatch(/^Android Debug Bridge version 1\.0\.\d+ .*\(\/usr\/bin\/adb\)$/s);
    expect(by(ok.serial)).toMatchObject({ status: 'ok', detail: 'device · Pixel 8 · API 35 · runtime: 0.3.0 running' });
    expect(by(bare.serial).status).toBe('missing');
    expect(by(bare.serial).detail).toContain('runtime: not installed');
    expect(by(locked.serial)).toMatchObject({
      status: 'missing',
      fix: 'Accept the "Allow USB debugging?" prompt on the device.',
    });

    const v = capture();
    expect(await devicesCommand([], v.cli)).toBe(0);
    const lines = v.io.text.split('\n');
    expect(lines[0]).toMatch(/^SERIAL +STATE +MODEL +API +ABI +KIND +NESTSPACE RUNTIME$/);
    const row = (serial: string) => lines.find((l) => l.startsWith(`${serial} `)) ?? '';
    expect(row(ok.serial)).toMatch(/ device +Pixel 8 +35 +arm64-v8a +device +0\.3\.0 running$/);
    expect(row(bare.serial)).toMatch(/ device +NestSpace Sim +34 +x86_64 +device +not installed$/);
    expect(row(locked.serial)).toMatch(/ unauthorized +- +- +- +device +-$/);
    expect(v.io.text).toContain(`${locked.serial}: accept the "Allow USB debugging?" prompt on the device.`);
    expect(v.io.text).toContain(`${bare.serial}: no NestSpace runtime — give use.deviceOptions.runtime.apk`);

    const j = capture();
    expect(await devicesCommand(['--json'], j.cli)).toBe(0);
    const rows = JSON.parse(j.io.text) as Array<{ serial: string; runtime: { running: boolean } | null }>;
    expect(rows.find((r) => r.serial === ok.serial)?.runtime?.running).toBe(true);
  } finally {
    delete process.env.NESTWRIGHT_DOCTOR_BUDGET_MS;
    await adb.close();
  }
});

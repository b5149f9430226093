import { execa } from 'execa';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Adb } from '../../device-runtime/providers/adb/adb.js';
import { describeDevices, runtimeCell } from '../../device-runtime/providers/adb/describe.js';
import { findSdkTool, sdkRoot } from '../../device-runtime/providers/adb/sdk.js';

export interface Check {
  name: string;
  status: 'ok' | 'warn' | 'missing' | 'skip';
  detail: string;
  fix?: string;
}

/** A version line from a tool, or null; never longer than `ms` (doctor must answer fast). */
async function firstLine(bin: string, args: string[], ms: number, fromStderr = false): Promise<string | null> {
  const r = await execa(bin, args, { timeout: ms, reject: false, stdin: 'ignore' });
  if (r.timedOut || r.exitCode !== 0) return null;
  const text = String((fromStderr ? r.stderr : r.stdout) || r.stdout || r.stderr || '');
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? null
  );
}

export function checkNode(): Check {
  const [maj = 0, min = 0] = process.versions.node.split('.').map(Number);
  const ok = maj > 20 || (maj === 20 && min >= 20);
  return {
    name: 'Node',
    status: ok ? 'ok' : 'missing',
    detail: `v${process.versions.node}`,
    ...(ok ? {} : { fix: 'Install Node 20.20 or newer.' }),
  };
}

export async function checkJava(ms: number): Promise<Check> {
  const home = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin/java') : null;
  const bin = home && existsSync(home) ? home : findOnPath('java');
  const fix =
    'Debian: `apt-get install default-jre-headless` (sdkmanager, avdmanager and the Allure report need a Java runtime).';
  if (!bin) return { name: 'Java', status: 'missing', detail: 'no java on PATH or in JAVA_HOME', fix };
  const v = await firstLine(bin, ['-version'], ms, true);
  return v
    ? { name: 'Java', status: 'ok', detail: v }
    : { name: 'Java', status: 'warn', detail: `${bin} did not answer \`-version\` within ${ms} ms`, fix };
}

export function checkSdk(): Check {
  const root = sdkRoot();
  if (!root) {
    return {
      name: 'Android SDK',
      status: 'missing',
      detail: 'ANDROID_HOME and ANDROID_SDK_ROOT are not set',
      fix: 'Install the SDK command-line tools and set ANDROID_HOME to the SDK (adb alone can also come from PATH: `apt-get install adb`).',
    };
  }
  if (!existsSync(root) || !statSync(root).isDirectory())
    return {
      name: 'Android SDK',
      status: 'missing',
      detail: `${root} does not exist`,
      fix: 'Point ANDROID_HOME at the SDK directory.',
    };
  return { name: 'Android SDK', status: 'ok', detail: root };
}

export async function checkAdb(ms: number): Promise<Check> {
  const bin = findSdkTool('adb');
  if (!bin)
    return {
      name: 'adb',
      status: 'missing',
      detail: "not in the SDK's platform-tools nor on PATH",
      fix: '`sdkmanager platform-tools` (or Debian: `apt-get install adb`).',
    };
  const v = await firstLine(bin, ['version'], ms);
  return v
    ? { name: 'adb', status: 'ok', detail: `${v} (${bin})` }
    : {
        name: 'adb',
        status: 'warn',
        detail: `${bin} did not answer \`adb version\` within ${ms} ms`,
        fix: '`adb kill-server` and try again.',
      };
}

export async function checkEmulator(ms: number): Promise<Check[]> {
  const bin = findSdkTool('emulator');
  const avdmanager = findSdkTool('avdmanager');
  const out: Check[] = [];
  if (!bin)
    out.push({
      name: 'emulator',
      status: 'missing',
      detail: 'not in $ANDROID_HOME/emulator nor on PATH',
      fix: '`sdkmanager emulator "system-images;android-34;google_apis;x86_64"`.',
    });
  else {
    const r = await execa(bin, ['-list-avds'], { timeout: ms, reject: false, stdin: 'ignore' });
    const avds =
      r.exitCode === 0
        ? String(r.stdout)
            .split('\n')
            .map((l) => l.trim())
            .filter((l) => l && !l.includes('|'))
        : null;
    if (avds === null)
      out.push({ name: 'emulator', status: 'warn', detail: `${bin}: -list-avds failed or took over ${ms} ms` });
    else if (avds.length === 0)
      out.push({
        name: 'emulator',
        status: 'warn',
        detail: `${bin}; no AVDs`,
        fix: '`avdmanager create avd -n test -k "system-images;android-34;google_apis;x86_64"`.',
      });
    else out.push({ name: 'emulator', status: 'ok', detail: `${bin}; AVDs: ${avds.join(', ')}` });
  }
  out.push(
    avdmanager
      ? { name: 'avdmanager', status: 'ok', detail: avdmanager }
      : {
          name: 'avdmanager',
          status: 'missing',
          detail: 'not in $ANDROID_HOME/cmdline-tools/latest/bin',
          fix: 'Install the SDK command-line tools ("cmdline-tools;latest").',
        },
  );
  return out;
}

export function checkKvm(): Check {
  if (process.platform !== 'linux')
    return { name: 'KVM', status: 'skip', detail: `${process.platform}: the emulator uses the platform hypervisor` };
  if (!existsSync('/dev/kvm')) {
    return {
      name: 'KVM',
      status: 'missing',
      detail: 'no /dev/kvm: x86 emulators would run without acceleration (unusably slow)',
      fix: 'Enable virtualization (VT-x/AMD-V, nested virtualization on a VM); on GitHub Actions the workflow in ci/github enables /dev/kvm.',
    };
  }
  try {
    accessSync('/dev/kvm', constants.R_OK | constants.W_OK);
    return { name: 'KVM', status: 'ok', detail: '/dev/kvm is usable' };
  } catch {
    return {
      name: 'KVM',
      status: 'missing',
      detail: '/dev/kvm exists but this user cannot open it',
      fix: '`sudo usermod -aG kvm $USER` (then log in again), or a udev rule giving the kvm group rw.',
    };
  }
}

export async function checkDevices(ms: number): Promise<Check[]> {
  if (!findSdkTool('adb')) return [{ name: 'devices', status: 'skip', detail: 'no adb, so no devices to ask' }];
  try {
    const rows = await describeDevices(Adb.find('nestwright doctor'), { timeoutMs: ms });
    if (rows.length === 0)
      return [
        {
          name: 'devices',
          status: 'warn',
          detail: 'none attached',
          fix: '`npx nestwright emulator start <avd>` or plug in a phone with USB debugging on.',
        },
      ];
    return rows.map((r): Check => {
      const what = `${r.state}${r.model ? ` · ${r.model}` : ''}${r.api ? ` · API ${r.api}` : ''} · runtime: ${runtimeCell(r)}`;
      if (r.state === 'unauthorized')
        return {
          name: r.serial,
          status: 'missing',
          detail: what,
          fix: 'Accept the "Allow USB debugging?" prompt on the device.',
        };
      if (r.state !== 'device')
        return {
          name: r.serial,
          status: 'missing',
          detail: what,
          fix: 'Wait for the boot, or replug / `adb reconnect`.',
        };
      if (r.runtime?.running) return { name: r.serial, status: 'ok', detail: what };
      if (r.runtime && !r.runtime.installed)
        return {
          name: r.serial,
          status: 'missing',
          detail: what,
          fix: `Install NestSpace: use.deviceOptions.runtime.apk, or \`adb -s ${r.serial} install -r -g nestspace.apk\`.`,
        };
      return {
        name: r.serial,
        status: 'warn',
        detail: `${what}${r.problem ? ` (${r.problem})` : ''}`,
        fix: "The adb provider starts the runtime's service on connect; or open the NestSpace app.",
      };
    });
  } catch (e) {
    return [{ name: 'devices', status: 'warn', detail: (e as Error).message.split('\n')[0]! }];
  }
}

/** The embedded simulator: started on a free port, asked for runtime_info over HTTP, stopped. */
export async function checkSimulator(): Promise<Check> {
  try {
    const { startEmbeddedDevice } = await import('../../device-runtime/providers/index.js');
    const sim = await startEmbeddedDevice();
    try {
      const res = await fetch(sim.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${sim.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'nestwright-doctor', version: '0' },
          },
        }),
      });
      await res.body?.cancel();
      if (!res.ok)
        return { name: 'simulator', status: 'missing', detail: `the embedded simulator answered HTTP ${res.status}` };
      return {
        name: 'simulator',
        status: 'ok',
        detail: 'the embedded simulated runtime starts and answers MCP (the default `sim` provider runs here)',
      };
    } finally {
      await sim.close();
    }
  } catch (e) {
    return {
      name: 'simulator',
      status: 'missing',
      detail: `cannot start: ${(e as Error).message.split('\n')[0]}`,
      fix: 'Run `npm ci` in the project.',
    };
  }
}

/**
 * The Chromium the simulator renders apps' WebViews in: NESTWRIGHT_CHROMIUM, else Debian's
 * /usr/bin/chromium (the path the simulator itself uses). Without it a WebView is a box with no page.
 */
export async function checkChromium(ms: number): Promise<Check> {
  // Loaded when asked, as checkSimulator loads the simulator: importing this file stays cheap.
  const { chromiumMissing, chromiumPath } = await import('../../device-runtime/sim/index.js');
  const path = chromiumPath();
  const named = process.env.NESTWRIGHT_CHROMIUM ? ' (NESTWRIGHT_CHROMIUM)' : '';
  const fix =
    "Debian: `apt-get install chromium`, or set NESTWRIGHT_CHROMIUM to a Chromium executable (the simulator renders apps' WebViews in it; without it a WebView shows no page).";
  if (chromiumMissing(path))
    return { name: 'Chromium', status: 'missing', detail: `no Chromium at ${path}${named}`, fix };
  const v = await firstLine(path, ['--version'], ms);
  return v
    ? { name: 'Chromium', status: 'ok', detail: `${v} at ${path}${named}, for the simulator's WebViews` }
    : { name: 'Chromium', status: 'warn', detail: `${path}${named} did not answer \`--version\` within ${ms} ms`, fix };
}

function findOnPath(tool: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, tool))) return join(dir, tool);
  }
  return null;
}

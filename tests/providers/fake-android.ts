import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { scriptCommandLine, simCommandLine } from '../child-bundle.js';
import type { FakeDeviceSpec } from './fakes/fake-device.js';

export type { FakeDeviceSpec } from './fakes/fake-device.js';
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FAKES = join(ROOT, 'tests/providers/fakes');
const run = promisify(execFile);

/**
 * A fake Android SDK in a temp dir: `platform-tools/adb`, `emulator/emulator` and
 * `cmdline-tools/latest/bin/avdmanager` are the fakes (real executables), put first on PATH and
 * named by ANDROID_HOME; devices and AVDs are what the test says. `use()` points this process
 * at it (and `restore()` back); `env()` is for child processes.
 */
export class FakeAndroid {
  readonly dir: string;
  readonly sdk: string;
  private saved: Record<string, string | undefined> | null = null;

  private constructor(
    /** The command lines of each device's runtime and of the fake adb server (child-bundle.ts). */
    private readonly commands: { sim: string[]; adbServer: string[] },
    devices: FakeDeviceSpec[],
    avds: Record<string, { bootMs?: number; api?: number; runtime?: 'running' | 'installed' | 'none' }>,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'nw-fake-android-'));
    this.sdk = join(this.dir, 'sdk');
    for (const [sub, tool] of [
      ['platform-tools', 'adb'],
      ['emulator', 'emulator'],
      ['cmdline-tools/latest/bin', 'avdmanager'],
    ] as const) {
      mkdirSync(join(this.sdk, sub), { recursive: true });
      // The fakes are `<tool>.mjs` (so the formatter and linter read them); the SDK names them bare.
      symlinkSync(join(FAKES, `${tool}.mjs`), join(this.sdk, sub, tool));
    }
    mkdirSync(join(this.dir, 'avd'), { recursive: true });
    for (const [name, a] of Object.entries(avds)) {
      writeFileSync(
        join(this.dir, 'avd', `${name}.ini`),
        `avd.ini.encoding=UTF-8\npath=${join(this.dir, 'avd', `${name}.avd`)}\ntarget=android-${a.api ?? 34}\nfake.bootMs=${a.bootMs ?? 1500}\nfake.api=${a.api ?? 34}\nfake.runtime=${a.runtime ?? 'running'}\n`,
      );
      mkdirSync(join(this.dir, 'avd', `${name}.avd`), { recursive: true });
    }
    writeFileSync(join(this.dir, 'devices.json'), JSON.stringify(devices));
  }

  static async create(
    devices: FakeDeviceSpec[],
    avds: Record<string, { bootMs?: number; api?: number; runtime?: 'running' | 'installed' | 'none' }> = {},
  ): Promise<FakeAndroid> {
    const [sim, adbServer] = await Promise.all([simCommandLine(), scriptCommandLine(join(FAKES, 'adb-server.ts'))]);
    return new FakeAndroid({ sim, adbServer }, devices, avds);
  }

  env(): Record<string, string> {
    return {
      PATH: `${join(this.sdk, 'platform-tools')}:${join(this.sdk, 'emulator')}:${process.env.PATH ?? ''}`,
      ANDROID_HOME: this.sdk,
      ANDROID_SDK_ROOT: this.sdk,
      ANDROID_AVD_HOME: join(this.dir, 'avd'),
      NESTWRIGHT_FAKE_ANDROID: this.dir,
      NESTWRIGHT_EMULATOR_DIR: join(this.dir, 'emulators'),
      // The fake adb client starts the server, and the server each device's runtime, as the test
      // chose (from the bundle outside the fast tier): neither is inside a test to choose.
      NESTWRIGHT_FAKE_ADB_SERVER_COMMAND: JSON.stringify(this.commands.adbServer),
      NESTWRIGHT_FAKE_SIM_COMMAND: JSON.stringify(this.commands.sim),
      // Each fake adb call is a Node start-up: on a loaded CI machine that can take seconds.
      NESTWRIGHT_ADB_TIMEOUT_MS: '60000',
    };
  }

  /** Point this process's environment at the fake SDK (restore() undoes it). */
  use(): this {
    const env = this.env();
    this.saved = Object.fromEntries(Object.keys({ ...env, NESTSPACE_TOKEN: '' }).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    delete process.env.NESTSPACE_TOKEN;
    return this;
  }

  restore(): void {
    for (const [k, v] of Object.entries(this.saved ?? {})) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    this.saved = null;
  }

  /** Run the fake adb as a child process would. */
  async adb(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
    try {
      const r = await run(join(FAKES, 'adb.mjs'), args, { env: { ...process.env, ...this.env() } });
      return { stdout: r.stdout, stderr: r.stderr, code: 0 };
    } catch (e) {
      const x = e as { stdout: string; stderr: string; code: number };
      return { stdout: x.stdout, stderr: x.stderr, code: x.code };
    }
  }

  /** Talk to the fake adb server (started on first use): attach, detach, set, state. */
  async control<T = { ok: boolean }>(op: string, payload: Record<string, unknown> = {}): Promise<T> {
    if (!existsSync(join(this.dir, 'adb.sock'))) await this.adb('start-server');
    return new Promise<T>((resolveP, reject) => {
      const s = net.connect(join(this.dir, 'adb.sock'));
      let buf = '';
      s.on('close', () => resolveP({} as T));
      s.on('data', (d) => {
        buf += d.toString();
        const i = buf.indexOf('\n');
        if (i >= 0) {
          s.end();
          resolveP(JSON.parse(buf.slice(0, i)) as T);
        }
      });
      s.on('error', reject);
      s.write(JSON.stringify({ tool: 'control', op, ...payload }) + '\n');
    });
  }

  attach(device: FakeDeviceSpec) {
    return this.control('attach', { device });
  }

  /** The device vanishes: unplugged, or its emulator killed. Its forwards go with it. */
  vanish(serial: string) {
    return this.control('detach', { serial });
  }

  setState(serial: string, state: 'device' | 'offline' | 'unauthorized') {
    return this.control('set', { serial, patch: { state } });
  }

  /** sys.boot_completed turns 1 now. */
  finishBoot(serial: string) {
    return this.control('set', { serial, patch: { bootMs: 0 } });
  }

  state() {
    return this.control<{
      devices: Array<{ serial: string; state: string; runtime: boolean; listening: boolean; packages: string[] }>;
      forwards: Array<{ serial: string; local: string; remote: string }>;
    }>('state');
  }

  /**
   * Each device's runtime answers a first session (connect, one call, close) before a suite
   * starts: a freshly started runtime's first requests are its slowest, as on a phone.
   */
  async warm(): Promise<void> {
    await this.runtimesReady();
    const { connectAdb } = await import('../../device-runtime/providers/adb/connect.js');
    const mine = !this.saved;
    if (mine) this.use();
    try {
      for (const d of (await this.state()).devices.filter((x) => x.runtime && x.state === 'device')) {
        const conn = await connectAdb({ serial: d.serial });
        await conn.client.call('space_list', {});
        await conn.close();
      }
    } finally {
      if (mine) this.restore();
    }
  }

  /** Wait until every device's runtime listens (its sim started): a suite's first workers then see the devices as they would a warm phone. */
  async runtimesReady(timeoutMs = 120_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!(await this.state()).devices.every((d) => !d.runtime || d.listening)) {
      if (Date.now() > until) throw new Error("the fake devices' runtimes did not start");
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Shut the fake server down (it stops its runtimes and emulators first), then remove the dir. */
  async close(): Promise<void> {
    this.restore();
    if (existsSync(join(this.dir, 'adb.sock'))) await this.control('shutdown').catch(() => {});
    const pidFile = join(this.dir, 'adb-server.pid');
    if (existsSync(pidFile)) {
      const pid = Number(readFileSync(pidFile, 'utf8'));
      for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    // A runtime still starting may write its token file while the directory goes.
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

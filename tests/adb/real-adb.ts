import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  startAdbd,
  simRuntimeService,
  type AdbdOptions,
  type RunningAdbd,
} from '../../device-runtime/sim/adbd/index.js';
import { SimRuntime } from '../../device-runtime/sim/index.js';
import { simCommandLine } from '../child-bundle.js';

const run = promisify(execFile);
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Debian's adb (Google's client and server); the tests that need it skip, saying so, when it is absent. */
export const ADB = '/usr/bin/adb';
export const HAVE_ADB = existsSync(ADB);
export const NO_ADB_MESSAGE = `${ADB} is not installed (Debian: apt-get install adb); the real-adb tests need Google's adb`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface SimDevice {
  adbd: RunningAdbd;
  runtime: SimRuntime;
  /** `127.0.0.1:PORT`: what adb lists it as. */
  serial: string;
  close(): Promise<void>;
}

/**
 * A private adb server for one test: Google's adb on a port of its own
 * (ANDROID_ADB_SERVER_PORT) with a HOME of its own (so its RSA key, ~/.android/adbkey, is made
 * fresh and a user's adb server and keys are never touched), and simulated devices it reaches
 * with `adb connect`. `use()` points this process at it (the provider finds /usr/bin/adb on
 * PATH); `env()` is for child processes. `close()` kills the server and stops the devices.
 */
export class RealAdb {
  readonly home: string;
  private saved: Record<string, string | undefined> | null = null;
  private readonly devices: SimDevice[] = [];
  private readonly children: ChildProcess[] = [];

  private constructor(readonly serverPort: number) {
    this.home = mkdtempSync(join(tmpdir(), 'nw-real-adb-'));
  }

  /** The public key this adb server signs AUTH with (made by `adb start-server`): the one its devices trust. */
  get keyFile(): string {
    return join(this.home, '.android', 'adbkey.pub');
  }

  static async create(): Promise<RealAdb> {
    const adb = new RealAdb(await freePort());
    await adb.adb('start-server');
    return adb;
  }

  env(): Record<string, string> {
    return {
      PATH: `${dirname(ADB)}:${(process.env.PATH ?? '')
        .split(':')
        .filter((d) => !d.includes('tests/providers'))
        .join(':')}`,
      ANDROID_HOME: '',
      ANDROID_SDK_ROOT: '',
      ANDROID_ADB_SERVER_PORT: String(this.serverPort),
      HOME: this.home,
      NESTWRIGHT_ADB_TIMEOUT_MS: '60000',
      NESTSPACE_TOKEN: '',
    };
  }

  use(): this {
    const env = this.env();
    this.saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
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

  /** Run the real adb against this server. */
  async adb(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
    try {
      const r = await run(ADB, args, { env: { ...process.env, ...this.env() }, timeout: 60_000 });
      return { stdout: r.stdout, stderr: r.stderr, code: 0 };
    } catch (e) {
      const x = e as { stdout?: string; stderr?: string; code?: number };
      return { stdout: x.stdout ?? '', stderr: x.stderr ?? '', code: typeof x.code === 'number' ? x.code : -1 };
    }
  }

  /** `adb connect` to a daemon, then wait until adb lists it in state `want`. */
  async connect(address: string, want = 'device', timeoutMs = 30_000): Promise<void> {
    const r = await this.adb('connect', address);
    // adb prints "failed to authenticate" when the device asked for a key it did not know yet —
    // the moment a phone shows its "Allow USB debugging?" prompt; the device decides what follows.
    if (!/connected to|failed to authenticate/.test(r.stdout))
      throw new Error(`adb connect ${address}: ${r.stdout}${r.stderr}`);
    await this.waitForState(address, want, timeoutMs);
  }

  async state(serial: string): Promise<string | null> {
    const line = (await this.adb('devices')).stdout.split('\n').find((l) => l.split('\t')[0] === serial);
    return line?.split('\t')[1]?.trim() ?? null;
  }

  async waitForState(serial: string, want: string | null, timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    let last: string | null = null;
    while ((last = await this.state(serial)) !== want) {
      if (Date.now() > until)
        throw new Error(`${serial} is ${last ?? 'not listed'}, not ${want ?? 'gone'}, after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * A simulated device (its own SimRuntime, served by adbd) connected to this server. `running`:
   * its runtime service is up before adb sees it; otherwise `am start-foreground-service` starts it.
   * It trusts this server's key (`keyFiles` given replaces that: `[]` is a device that knows no key).
   */
  async device(
    opts: AdbdOptions & { running?: boolean; runtimePackage?: string; connect?: string | false } = {},
  ): Promise<SimDevice> {
    const runtime = new SimRuntime({});
    const service = simRuntimeService({ runtime, ...(opts.runtimePackage ? { package: opts.runtimePackage } : {}) });
    if (opts.running ?? true) await service.start();
    const adbd = await startAdbd({ runtime: service, keyFiles: [this.keyFile], ...opts });
    const dev: SimDevice = {
      adbd,
      runtime,
      serial: adbd.address,
      close: async () => {
        await adbd.close();
        runtime.close();
      },
    };
    this.devices.push(dev);
    if (opts.connect !== false) await this.connect(adbd.address, opts.connect ?? 'device');
    return dev;
  }

  /**
   * A device served by `nestwright sim --port 0 --adb-port 0 --ephemeral` in a process of its own
   * (the command a person runs), connected to this server unless `connect` is false. It trusts
   * this server's key: `trust: 'flag'` (default) names it with `--adb-keys`; `'home'` runs the
   * simulator with this server's HOME, so that it is the user's own `~/.android/adbkey.pub`.
   */
  async simProcess(
    extra: string[] = [],
    opts: { trust?: 'flag' | 'home'; connect?: boolean } = {},
  ): Promise<{ serial: string; child: ChildProcess; banner: string }> {
    const trust = opts.trust ?? 'flag';
    const [cmd, ...pre] = await simCommandLine();
    const child = spawn(
      cmd!,
      [
        ...pre,
        '--port',
        '0',
        '--adb-port',
        '0',
        '--ephemeral',
        ...(trust === 'flag' ? ['--adb-keys', this.keyFile] : []),
        ...extra,
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
        env:
          trust === 'home'
            ? { ...process.env, HOME: this.home, ANDROID_USER_HOME: '', ADB_VENDOR_KEYS: '' }
            : process.env,
      },
    );
    this.children.push(child);
    const [serial, banner] = await new Promise<[string, string]>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /adb: a device on (127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve([m[1]!, out]);
      });
      child.once('exit', (code) =>
        reject(new Error(`nestwright sim --adb-port exited (${code}) before it listened:\n${out}`)),
      );
    });
    if (opts.connect ?? true) await this.connect(serial);
    return { serial, child, banner };
  }

  /** Kill the private adb server, stop the devices, remove HOME. */
  async close(): Promise<void> {
    this.restore();
    await this.adb('kill-server');
    for (const c of this.children.splice(0)) {
      if (c.exitCode !== null || c.signalCode !== null) continue;
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await gone;
    }
    for (const d of this.devices.splice(0)) await d.close().catch(() => {});
    rmSync(this.home, { recursive: true, force: true });
  }
}

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** How a test describes a device to the fake adb (devices.json in the state dir, or an attach message). */
export interface FakeDeviceSpec {
  serial: string;
  /** What `adb devices` shows; emulators start `offline` and turn `device` while they boot. */
  state?: 'device' | 'offline' | 'unauthorized';
  /** USB path of a physical device (`usb:1-1` in `adb devices -l`). */
  usb?: string;
  product?: string;
  model?: string;
  device?: string;
  api?: number;
  abi?: string;
  /** `sys.boot_completed` turns 1 this long after the device appears (0: already booted). */
  bootMs?: number;
  /** Installed packages beyond the system ones. */
  packages?: Record<string, { versionName: string; versionCode: number }>;
  /** The NestSpace runtime: installed as `package` (default com.coke.nestspace), service running or not. */
  runtime?: { package?: string; version?: string; running?: boolean } | false;
  /** Set by the fake emulator. */
  emulator?: { avd: string; consolePort: number };
  /** Abstract sockets on the device (`webview_devtools_remote_<pid>`), each standing in for by a TCP port on this host. */
  abstractSockets?: Record<string, number>;
}

export const RUNTIME_PACKAGE = 'com.coke.nestspace';
const SERVICE_CLASS = 'McpForegroundService';

/**
 * The command line of a device's `nestwright sim`: the test's choice (tests/child-bundle.ts
 * `simCommandLine()`: the bundle's command line outside the fast tier), which FakeAndroid passes
 * in NESTWRIGHT_FAKE_SIM_COMMAND (a JSON array); without it, the sources through tsx.
 */
function simCommandLine(): string[] {
  const given = process.env.NESTWRIGHT_FAKE_SIM_COMMAND;
  if (given) return JSON.parse(given) as string[];
  return [process.execPath, '--import', 'tsx', join(ROOT, 'device-runtime/sim/cli-main.ts')];
}

/**
 * One fake device: its properties, packages and — once its runtime's service is started — a real
 * `nestwright sim` child process standing in for the NestSpace runtime on the device's port 8765.
 */
export class FakeDevice {
  state: 'device' | 'offline' | 'unauthorized';
  readonly attachedAt = Date.now();
  readonly packages = new Map<string, { versionName: string; versionCode: number }>();
  runtimePackage: string | null = null;
  private sim: { child: ChildProcess; port: Promise<number | null>; listening: boolean } | null = null;
  readonly transportId: number;

  constructor(
    readonly spec: FakeDeviceSpec,
    readonly stateDir: string,
    transportId: number,
    private readonly onChange: () => void,
  ) {
    this.transportId = transportId;
    this.state = spec.state ?? 'device';
    for (const [pkg, v] of Object.entries(spec.packages ?? {})) this.packages.set(pkg, v);
    if (spec.runtime) {
      const pkg = spec.runtime.package ?? RUNTIME_PACKAGE;
      this.packages.set(pkg, { versionName: spec.runtime.version ?? '0.3.0', versionCode: 3 });
      this.runtimePackage = pkg;
      if (spec.runtime.running) this.startRuntime(pkg);
    }
  }

  get serial(): string {
    return this.spec.serial;
  }

  get booted(): boolean {
    return Date.now() - this.attachedAt >= (this.spec.bootMs ?? 0);
  }

  /** The app's private directory, where `run-as PKG cat files/…` reads. */
  dataDir(pkg: string): string {
    return join(this.stateDir, 'devices', this.serial.replace(/[^\w.-]/g, '_'), 'data', pkg);
  }

  props(): Record<string, string> {
    const s = this.spec;
    const emu = !!s.emulator;
    return {
      'ro.product.model': s.model ?? (emu ? 'sdk_gphone64_x86_64' : 'Pixel 8'),
      'ro.product.manufacturer': emu ? 'Google' : 'Google',
      'ro.product.name': s.product ?? (emu ? 'sdk_gphone64_x86_64' : 'shiba'),
      'ro.product.device': s.device ?? (emu ? 'emu64x' : 'shiba'),
      'ro.build.version.sdk': String(s.api ?? 34),
      'ro.build.version.release': String(
        { 30: '11', 31: '12', 32: '12', 33: '13', 34: '14', 35: '15', 36: '16' }[s.api ?? 34] ?? '14',
      ),
      'ro.product.cpu.abi': s.abi ?? (emu ? 'x86_64' : 'arm64-v8a'),
      'ro.product.cpu.abilist': s.abi ?? (emu ? 'x86_64,arm64-v8a' : 'arm64-v8a,armeabi-v7a,armeabi'),
      'ro.kernel.qemu': emu ? '1' : '',
      ...(emu ? { 'ro.boot.qemu.avd_name': s.emulator!.avd } : {}),
      'sys.boot_completed': this.booted ? '1' : '',
      'init.svc.bootanim': this.booted ? 'stopped' : 'running',
    };
  }

  /** Start the runtime's foreground service: a `nestwright sim` whose token lives in the app's files. */
  startService(component: string): { ok: boolean; message: string } {
    const [pkg, cls = ''] = component.split('/');
    if (!pkg || !this.packages.has(pkg) || !cls.endsWith(SERVICE_CLASS)) {
      return { ok: false, message: 'Error: Not found; no service started.' };
    }
    this.runtimePackage = pkg;
    this.startRuntime(pkg);
    return { ok: true, message: `Starting service: Intent { cmp=${component} }` };
  }

  private startRuntime(pkg: string): void {
    if (this.sim) return;
    const files = join(this.dataDir(pkg), 'files');
    mkdirSync(files, { recursive: true });
    const [cmd, ...pre] = simCommandLine();
    const child = spawn(cmd!, [...pre, '--port', '0', '--ephemeral', '--token-file', join(files, 'mcp_token')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = new Promise<number | null>((resolveP) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (m) resolveP(Number(m[1]));
      });
      child.once('exit', () => resolveP(null));
    });
    this.sim = { child, port, listening: false };
    const sim = this.sim;
    void port.then((p) => (sim.listening = p !== null));
    child.once('exit', () => {
      if (this.sim?.child === child) this.sim = null;
    });
    this.onChange();
  }

  /** Stop the runtime; resolves when its process has exited. */
  stopRuntime(): Promise<void> {
    const child = this.sim?.child;
    this.sim = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    return exited;
  }

  get runtimeRunning(): boolean {
    return !!this.sim;
  }

  /** The runtime's server is up (its `nestwright sim` printed where it listens). */
  get runtimeListening(): boolean {
    return this.sim?.listening ?? false;
  }

  get runtimePid(): number | null {
    return this.sim?.child.pid ?? null;
  }

  /** The host port behind the device's `tcp:<port>`, or null when nothing listens there. */
  async remotePort(port: number): Promise<number | null> {
    if (port !== 8765 || !this.sim) return null;
    return this.sim.port;
  }
}

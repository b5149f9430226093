import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize, posix } from 'node:path';
import type { RuntimeService } from './runtime-service.js';

export interface InstalledPackage {
  versionName: string;
  versionCode: number;
}

export interface AndroidDeviceOptions {
  model?: string;
  product?: string;
  device?: string;
  manufacturer?: string;
  /** ro.build.version.sdk (default 34). */
  api?: number;
  /** ro.product.cpu.abi (default x86_64). */
  abi?: string;
  /** sys.boot_completed turns 1 this long after the device starts (default 0: booted). */
  bootMs?: number;
  /** The NestSpace runtime app and its service. */
  runtime?: RuntimeService | null;
  /** Is the runtime's package installed to begin with (default true)? Installing an APK of that package installs it. */
  runtimeInstalled?: boolean;
  /** Is the runtime build debuggable, so that `run-as` reads its files (default true)? */
  debuggable?: boolean;
  /** Packages installed besides the system ones. */
  packages?: Record<string, InstalledPackage>;
  /** The port the runtime serves on the device (default 8765). */
  runtimePort?: number;
}

const SYSTEM_PACKAGES = ['android', 'com.android.settings', 'com.android.shell', 'com.android.systemui'];

/**
 * The Android side of the simulated device that adbd serves: its properties, its packages, the
 * NestSpace runtime among them, and a small file tree (/data/local/tmp, where `adb push` and the
 * non-streamed `adb install` put files) kept in a temporary directory.
 */
export class AndroidDevice {
  readonly startedAt = Date.now();
  readonly packages = new Map<string, InstalledPackage>();
  readonly runtime: RuntimeService | null;
  readonly root: string;
  bootMs: number;

  constructor(readonly options: AndroidDeviceOptions = {}) {
    this.runtime = options.runtime ?? null;
    this.bootMs = options.bootMs ?? 0;
    for (const [pkg, v] of Object.entries(options.packages ?? {})) this.packages.set(pkg, v);
    if (this.runtime && options.runtimeInstalled !== false) {
      this.packages.set(this.runtime.package, {
        versionName: this.runtime.versionName,
        versionCode: this.runtime.versionCode,
      });
    }
    this.root = mkdtempSync(join(tmpdir(), 'nw-adbd-'));
    mkdirSync(join(this.root, 'data/local/tmp'), { recursive: true });
    mkdirSync(join(this.root, 'sdcard'), { recursive: true });
  }

  get booted(): boolean {
    return Date.now() - this.startedAt >= this.bootMs;
  }

  /** Finish booting now. */
  finishBoot(): void {
    this.bootMs = 0;
  }

  get runtimePort(): number {
    return this.options.runtimePort ?? 8765;
  }

  props(): Record<string, string> {
    const o = this.options;
    const api = o.api ?? 34;
    return {
      'ro.product.model': o.model ?? 'NestSpace Sim',
      'ro.product.manufacturer': o.manufacturer ?? 'nestwright',
      'ro.product.name': o.product ?? 'nestwright_sim',
      'ro.product.device': o.device ?? 'nestwright_sim',
      'ro.build.version.sdk': String(api),
      'ro.build.version.release': String({ 30: 11, 31: 12, 32: 12, 33: 13, 34: 14, 35: 15, 36: 16 }[api] ?? 14),
      'ro.product.cpu.abi': o.abi ?? 'x86_64',
      'ro.product.cpu.abilist': o.abi ?? 'x86_64,arm64-v8a',
      'ro.adb.secure': '1',
      'ro.debuggable': '1',
      'ro.kernel.qemu': '',
      'sys.boot_completed': this.booted ? '1' : '',
      'init.svc.bootanim': this.booted ? 'stopped' : 'running',
    };
  }

  /** A device path inside the device's file tree, or null when it leaves it. */
  hostPath(devicePath: string): string | null {
    const p = posix.normalize(devicePath.startsWith('/') ? devicePath : `/data/local/tmp/${devicePath}`);
    const host = normalize(join(this.root, p));
    return host === this.root || host.startsWith(`${this.root}/`) ? host : null;
  }

  /** The runtime's private file, as `run-as <package> cat <file>` reads it: only its token. */
  privateFile(pkg: string, file: string): string | null {
    if (!this.runtime || pkg !== this.runtime.package) return null;
    const token = this.runtime.token();
    return posix.normalize(file) === 'files/mcp_token' && token ? `${token}\n` : null;
  }

  get debuggable(): boolean {
    return this.options.debuggable ?? true;
  }

  allPackages(): string[] {
    return [...SYSTEM_PACKAGES, ...this.packages.keys()];
  }

  /** Where a connection to the device's `tcp:<port>` goes on the host: the runtime's port leads to its MCP server, any other to the same port on the loopback. */
  hostPortFor(port: number): number | null {
    if (port === this.runtimePort) {
      if (!this.runtime || !this.packages.has(this.runtime.package)) return null;
      return this.runtime.port();
    }
    return port;
  }

  async close(): Promise<void> {
    await this.runtime?.stop();
    rmSync(this.root, { recursive: true, force: true });
  }
}

import { execa } from 'execa';
import { ProviderError } from './errors.js';
import { findSdkTool } from './sdk.js';

export interface AdbRunOptions {
  /** Kill adb after this many ms (ADB_TIMEOUT). Default 10 s, or NESTWRIGHT_ADB_TIMEOUT_MS. */
  timeoutMs?: number;
  /** stdout is a secret (the token): it never appears in an error. */
  secret?: boolean;
  /** Exit codes that are answers rather than failures (`pidof` exits 1 when nothing runs). */
  okExitCodes?: number[];
}

export interface AdbResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** How long adb took, ms (bench: provider overhead = total − time spent in adb). */
  ms: number;
}

/** `adb`-quoted for messages: what a person would type to repeat it. */
export function shellQuote(args: string[]): string {
  return args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/**
 * The adb binary and every call through it (execa: no shell, a timeout on each call, stdin
 * closed). Errors are {@link ProviderError}s naming the API, the command and adb's stderr.
 */
export class Adb {
  /** Total ms spent waiting for adb since this object was made (calls summed). */
  spentMs = 0;
  /** Wall time spent waiting on the device: adb calls, and whatever else is tracked with it. */
  readonly deviceClock = new BusyClock();

  constructor(
    readonly bin: string,
    readonly api: string,
  ) {}

  /** The adb of ANDROID_HOME/ANDROID_SDK_ROOT's platform-tools, else of PATH. */
  static find(api: string, env: NodeJS.ProcessEnv = process.env): Adb {
    const bin = findSdkTool('adb', env);
    if (!bin) {
      throw new ProviderError(
        api,
        'ADB_NOT_FOUND',
        'adb was not found in $ANDROID_HOME/platform-tools, $ANDROID_SDK_ROOT/platform-tools or on PATH',
        {
          hint: 'Install the Android SDK platform-tools (Debian: `apt-get install adb`) and set ANDROID_HOME, or put adb on PATH. `npx nestwright doctor` checks the whole setup.',
        },
      );
    }
    return new Adb(bin, api);
  }

  /** `adb [-s serial] args…`; throws ADB_FAILED / ADB_TIMEOUT / ADB_NOT_FOUND. */
  async run(serial: string | null, args: string[], opts: AdbRunOptions = {}): Promise<AdbResult> {
    const argv = [...(serial ? ['-s', serial] : []), ...args];
    const command = `adb ${shellQuote(argv)}`;
    const timeout = Math.max(opts.timeoutMs ?? 10_000, Number(process.env.NESTWRIGHT_ADB_TIMEOUT_MS) || 0);
    const t0 = performance.now();
    const r = await this.deviceClock.track(
      execa(this.bin, argv, {
        timeout,
        reject: false,
        stdin: 'ignore',
        stripFinalNewline: false,
        maxBuffer: 64 * 1024 * 1024,
      }),
    );
    const ms = performance.now() - t0;
    this.spentMs += ms;
    const stderr = typeof r.stderr === 'string' ? r.stderr : '';
    if (r.timedOut) {
      throw new ProviderError(this.api, 'ADB_TIMEOUT', `adb did not answer within ${timeout} ms`, {
        command,
        stderr,
        hint: 'The device or the adb server is stuck: `adb kill-server`, replug the device, or raise the timeout.',
      });
    }
    const spawnCode = (r.cause as { code?: string } | undefined)?.code;
    if (spawnCode === 'ENOENT' || spawnCode === 'EACCES') {
      throw new ProviderError(this.api, 'ADB_NOT_FOUND', `cannot run ${this.bin} (${spawnCode})`, {
        command,
        hint: 'Reinstall platform-tools or fix ANDROID_HOME / PATH.',
      });
    }
    const exitCode = r.exitCode ?? -1;
    if (exitCode !== 0 && !(opts.okExitCodes ?? []).includes(exitCode)) {
      throw new ProviderError(this.api, 'ADB_FAILED', `adb exited with ${r.exitCode ?? r.signal ?? 'an error'}`, {
        command,
        stderr: stderr || (opts.secret ? '' : String(r.stdout ?? '').slice(0, 2000)),
        exitCode: r.exitCode ?? null,
      });
    }
    return { stdout: String(r.stdout ?? ''), stderr, exitCode, ms };
  }

  /** `adb -s serial shell <command>`: the device's answer on stdout. */
  async shell(serial: string, command: string[], opts: AdbRunOptions = {}): Promise<AdbResult> {
    return this.run(serial, ['shell', ...command], opts);
  }
}

/**
 * Wall-clock time during which at least one tracked operation was running — parallel ones count
 * once. The provider's own overhead is its total time minus this (bench: providers.bench.ts).
 */
export class BusyClock {
  private running = 0;
  private since = 0;
  busyMs = 0;

  async track<T>(p: Promise<T>): Promise<T> {
    if (this.running++ === 0) this.since = performance.now();
    try {
      return await p;
    } finally {
      if (--this.running === 0) this.busyMs += performance.now() - this.since;
    }
  }
}

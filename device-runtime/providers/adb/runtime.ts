import { inspectApk } from '../../apk/index.js';
import type { Adb } from './adb.js';
import { ProviderError } from './errors.js';

/**
 * The NestSpace runtime on a device, as docs/protocol.md#transport describes it: package `com.coke.nestspace`, a foreground service `McpForegroundService` that serves MCP
 * on the device's 127.0.0.1:8765 with a random token made on first launch. The design does not
 * say how a host reads that token; nestwright reads it from the app's private files with
 * `adb shell run-as <package> cat files/mcp_token` (debuggable builds only) unless the config or
 * NESTSPACE_TOKEN gives it. Each of these is an option, for builds that differ.
 */
export const RUNTIME_DEFAULTS = {
  package: 'com.coke.nestspace',
  service: '.service.McpForegroundService',
  tokenPath: 'files/mcp_token',
  port: 8765,
  startTimeoutMs: 20_000,
} as const;

export interface RuntimeOptions {
  apk?: string | undefined;
  package?: string | undefined;
  service?: string | undefined;
  tokenPath?: string | undefined;
  startTimeoutMs?: number | undefined;
}

export interface RuntimeVersion {
  versionName: string | null;
  versionCode: number | null;
}

/** The installed runtime's version from `dumpsys package`, or null when it is not installed. */
export async function runtimeVersion(adb: Adb, serial: string, pkg: string): Promise<RuntimeVersion | null> {
  const { stdout } = await adb.shell(serial, ['dumpsys', 'package', pkg]);
  if (!stdout.includes(`Package [${pkg}]`)) return null;
  const code = /versionCode=(\d+)/.exec(stdout)?.[1];
  return { versionName: /versionName=(\S+)/.exec(stdout)?.[1] ?? null, versionCode: code ? Number(code) : null };
}

/**
 * Make sure the runtime is installed: with `runtime.apk`, install it (`adb install -r -g`) when
 * it is missing or another version is there; without, fail with how to get it.
 */
export async function ensureRuntimeInstalled(adb: Adb, serial: string, rt: RuntimeOptions): Promise<RuntimeVersion> {
  const pkg = rt.package ?? RUNTIME_DEFAULTS.package;
  const installed = await runtimeVersion(adb, serial, pkg);
  if (!rt.apk) {
    if (installed) return installed;
    throw new ProviderError(
      adb.api,
      'RUNTIME_NOT_INSTALLED',
      `the NestSpace runtime (${pkg}) is not installed on ${serial}`,
      {
        hint: 'Give its APK as use.deviceOptions.runtime.apk (nestwright installs it), or install it yourself: `adb -s SERIAL install -r -g nestspace.apk`.',
        serial,
      },
    );
  }
  let info;
  try {
    info = await inspectApk(rt.apk);
  } catch (e) {
    throw new ProviderError(
      adb.api,
      'RUNTIME_APK_INVALID',
      `runtime.apk ${rt.apk} cannot be read: ${(e as Error).message.split('\n')[0]}`,
      {
        hint: 'Point use.deviceOptions.runtime.apk at the NestSpace runtime APK file.',
        cause: e,
      },
    );
  }
  if (info.package !== pkg) {
    throw new ProviderError(
      adb.api,
      'RUNTIME_APK_INVALID',
      `runtime.apk ${rt.apk} is ${info.package}, not the runtime package ${pkg}`,
      {
        hint: `Use the NestSpace runtime APK, or set use.deviceOptions.runtime.package to '${info.package}' if that build uses another application id.`,
      },
    );
  }
  if (installed && installed.versionCode === info.versionCode) return installed;
  try {
    await adb.run(serial, ['install', '-r', '-g', rt.apk], { timeoutMs: 120_000 });
  } catch (e) {
    const pe = e as ProviderError;
    throw new ProviderError(adb.api, 'RUNTIME_INSTALL_FAILED', `installing ${rt.apk} on ${serial} failed`, {
      command: pe.command ?? undefined,
      stderr: pe.stderr ?? undefined,
      exitCode: pe.exitCode,
      hint: "Read the Failure [...] reason above: INSTALL_FAILED_UPDATE_INCOMPATIBLE needs `adb uninstall` of the old build first; NO_MATCHING_ABIS an APK for the device's ABI.",
      cause: e,
    });
  }
  return { versionName: info.versionName, versionCode: info.versionCode };
}

/** `am start-foreground-service -n <package>/<service>`: the runtime's MCP server . */
export async function startRuntimeService(adb: Adb, serial: string, rt: RuntimeOptions): Promise<void> {
  const component = `${rt.package ?? RUNTIME_DEFAULTS.package}/${rt.service ?? RUNTIME_DEFAULTS.service}`;
  const r = await adb.shell(serial, ['am', 'start-foreground-service', '-n', component]);
  // `am` reports a missing component on stderr with exit status 0.
  if (/^Error/m.test(r.stderr) || /^Error/m.test(r.stdout)) {
    throw new ProviderError(adb.api, 'RUNTIME_NOT_RUNNING', `cannot start ${component} on ${serial}`, {
      command: `adb -s ${serial} shell am start-foreground-service -n ${component}`,
      stderr: r.stderr || r.stdout,
      hint: "Check use.deviceOptions.runtime.service (the component of NestSpace's MCP foreground service) against the installed build.",
    });
  }
}

/**
 * Does something answer HTTP on the forwarded port? A request without a token: the runtime
 * checks the token before reading the body (docs/protocol.md#transport) and answers 401 — enough to know it is up. adb
 * accepts the local connection and closes it when nothing listens on the device.
 */
export async function runtimeAnswers(url: string, timeoutMs = 2_000): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/** The token: the option, else NESTSPACE_TOKEN, else read from the device (never printed). */
export async function obtainToken(
  adb: Adb,
  serial: string,
  rt: RuntimeOptions,
  given: string | undefined,
): Promise<string> {
  if (given) return given;
  if (process.env.NESTSPACE_TOKEN) return process.env.NESTSPACE_TOKEN;
  const pkg = rt.package ?? RUNTIME_DEFAULTS.package;
  const path = rt.tokenPath ?? RUNTIME_DEFAULTS.tokenPath;
  let out: string;
  try {
    out = (await adb.shell(serial, ['run-as', pkg, 'cat', path], { secret: true })).stdout.trim();
  } catch (e) {
    const pe = e as ProviderError;
    throw new ProviderError(adb.api, 'TOKEN_UNAVAILABLE', `cannot read the runtime's token from ${serial}`, {
      command: pe.command ?? undefined,
      stderr: pe.stderr ?? undefined,
      hint: 'run-as only works on a debuggable runtime build. Otherwise set NESTSPACE_TOKEN (or use.deviceOptions.token) to the token the NestSpace app shows on its MCP screen.',
      cause: e,
    });
  }
  if (out.length < 16) {
    throw new ProviderError(
      adb.api,
      'TOKEN_UNAVAILABLE',
      `the token file ${path} of ${pkg} on ${serial} is empty or too short`,
      {
        hint: 'Start the runtime once so it writes its token, or set NESTSPACE_TOKEN.',
      },
    );
  }
  return out;
}

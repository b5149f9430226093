import { z } from 'zod';

/**
 * Why a provider could not bring a device up. These are provider (host-side) failures — adb,
 * the SDK, the emulator — not device protocol codes; once connected, the device's own error
 * envelope takes over (a device lost mid-run is the protocol's DEVICE_DISCONNECTED).
 */
export const ProviderErrorCodeSchema = z.enum([
  'INVALID_OPTIONS',
  'ADB_NOT_FOUND',
  'ADB_FAILED',
  'ADB_TIMEOUT',
  'NO_DEVICE',
  'SERIAL_REQUIRED',
  'SERIAL_NOT_FOUND',
  'DEVICE_OFFLINE',
  'DEVICE_UNAUTHORIZED',
  'DEVICE_NOT_BOOTED',
  'DEVICE_DISCONNECTED',
  'RUNTIME_NOT_INSTALLED',
  'RUNTIME_APK_INVALID',
  'RUNTIME_INSTALL_FAILED',
  'RUNTIME_NOT_RUNNING',
  'TOKEN_UNAVAILABLE',
  'FORWARD_FAILED',
  'SDK_NOT_FOUND',
  'EMULATOR_NOT_FOUND',
  'AVD_NOT_FOUND',
  'EMULATOR_NOT_RUNNING',
  'EMULATOR_EXITED',
  'BOOT_TIMEOUT',
]);
export type ProviderErrorCode = z.infer<typeof ProviderErrorCodeSchema>;

export interface ProviderErrorDetails {
  hint?: string;
  /** The command that failed, as it would be typed (`adb -s emulator-5554 forward tcp:0 tcp:8765`). */
  command?: string;
  stderr?: string;
  exitCode?: number | null;
  cause?: unknown;
  [key: string]: unknown;
}

/**
 * `connectDevice(adb): NO_DEVICE: no Android device is attached` — the API first, then the code,
 * what happened, the command and its stderr, and what to do. Never carries a command's stdout:
 * some (the token read) are secrets.
 */
export class ProviderError extends Error {
  readonly hint: string | null;
  readonly command: string | null;
  readonly stderr: string | null;
  readonly exitCode: number | null;
  readonly details: Record<string, unknown>;

  constructor(
    readonly api: string,
    readonly code: ProviderErrorCode,
    message: string,
    details: ProviderErrorDetails = {},
  ) {
    const { hint, command, stderr, exitCode, cause, ...rest } = details;
    const lines = [`${api}: ${code}: ${message}`];
    if (command)
      lines.push(`  command: ${command}${exitCode !== undefined && exitCode !== null ? ` (exit ${exitCode})` : ''}`);
    if (stderr?.trim()) lines.push(`  stderr: ${stderr.trim().split('\n').join('\n          ')}`);
    if (hint) lines.push(`  hint: ${hint}`);
    super(lines.join('\n'), cause !== undefined ? { cause } : undefined);
    this.name = 'ProviderError';
    this.hint = hint ?? null;
    this.command = command ?? null;
    this.stderr = stderr ?? null;
    this.exitCode = exitCode ?? null;
    this.details = rest;
  }
}

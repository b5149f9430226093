import { execa } from 'execa';
import { shellQuote } from '../adb/adb.js';
import { ProviderError } from '../adb/errors.js';
import { findSdkTool } from '../adb/sdk.js';

/** The SDK's `emulator` binary, or EMULATOR_NOT_FOUND saying where it was looked for. */
export function findEmulator(api: string, env: NodeJS.ProcessEnv = process.env): string {
  const bin = findSdkTool('emulator', env);
  if (!bin) {
    throw new ProviderError(
      api,
      'EMULATOR_NOT_FOUND',
      'the Android emulator was not found in $ANDROID_HOME/emulator, $ANDROID_SDK_ROOT/emulator or on PATH',
      {
        hint: 'Install it with `sdkmanager "emulator" "system-images;android-34;google_apis;x86_64"` and set ANDROID_HOME to the SDK.',
      },
    );
  }
  return bin;
}

/** `emulator -list-avds`: the AVD names, one a line (log lines such as `INFO | …` are skipped). */
export async function listAvds(api: string, bin = findEmulator(api)): Promise<string[]> {
  const argv = ['-list-avds'];
  const r = await execa(bin, argv, { timeout: 10_000, reject: false, stdin: 'ignore' });
  if (r.timedOut || r.exitCode !== 0) {
    throw new ProviderError(
      api,
      'EMULATOR_NOT_FOUND',
      `emulator -list-avds ${r.timedOut ? 'timed out' : `exited with ${r.exitCode}`}`,
      {
        command: `emulator ${shellQuote(argv)}`,
        stderr: String(r.stderr ?? ''),
        exitCode: r.exitCode ?? null,
      },
    );
  }
  return String(r.stdout)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^(INFO|WARNING|ERROR)\b|\|/.test(l));
}

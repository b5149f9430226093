import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export type SdkTool = 'adb' | 'emulator' | 'avdmanager' | 'sdkmanager';

/** Where each tool lives inside an Android SDK. */
const SDK_DIRS: Record<SdkTool, string[]> = {
  adb: ['platform-tools'],
  emulator: ['emulator'],
  avdmanager: ['cmdline-tools/latest/bin', 'tools/bin'],
  sdkmanager: ['cmdline-tools/latest/bin', 'tools/bin'],
};

/** The SDK root from ANDROID_HOME, else ANDROID_SDK_ROOT (the older name), or null. */
export function sdkRoot(env: NodeJS.ProcessEnv = process.env): string | null {
  return env.ANDROID_HOME || env.ANDROID_SDK_ROOT || null;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Find an SDK tool: in the SDK named by ANDROID_HOME / ANDROID_SDK_ROOT first (where the
 * emulator and avdmanager live, rarely on PATH), then on PATH. Null when neither has it.
 */
export function findSdkTool(tool: SdkTool, env: NodeJS.ProcessEnv = process.env): string | null {
  const root = sdkRoot(env);
  if (root) {
    for (const dir of SDK_DIRS[tool]) {
      const p = join(root, dir, tool);
      if (executable(p)) return p;
    }
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, tool);
    if (executable(p)) return p;
  }
  return null;
}

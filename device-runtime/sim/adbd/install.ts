import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { inspectApk } from '../../apk/index.js';
import type { ByteQueue } from './byte-queue.js';
import type { Reply } from './reply.js';
import type { AndroidDevice } from './device.js';

let seq = 0;

/**
 * The package manager's install, as `pm install` / `cmd package install` answer it: the APK's
 * manifest read by the repository's APK reader, `Success`, or `Failure [REASON: …]` with exit 1.
 */
export async function installApk(dev: AndroidDevice, path: string, flags: string[]): Promise<Reply> {
  let info;
  try {
    info = await inspectApk(path);
  } catch (e) {
    return {
      out: `Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse ${path}: ${(e as Error).message.split('\n')[0]}]\n`,
      code: 1,
    };
  }
  if (dev.packages.has(info.package) && !flags.includes('-r')) {
    return {
      out: `Failure [INSTALL_FAILED_ALREADY_EXISTS: Attempt to re-install ${info.package} without first uninstalling.]\n`,
      code: 1,
    };
  }
  if (dev.runtime?.package === info.package) await dev.runtime.stop();
  dev.packages.set(info.package, {
    versionName: info.versionName ?? String(info.versionCode),
    versionCode: info.versionCode,
  });
  return { out: 'Success\n', code: 0 };
}

/** `cmd package install -S SIZE …`: the APK's bytes come on stdin (adb's streamed install), written to a file as they come. */
export async function installFromStdin(
  dev: AndroidDevice,
  size: number,
  flags: string[],
  stdin: ByteQueue,
): Promise<Reply> {
  if (!Number.isInteger(size) || size <= 0) return { err: `Error: -S needs a size in bytes\n`, code: 1 };
  const file = join(dev.root, 'data/local/tmp', `streamed-${process.pid}-${++seq}.apk`);
  try {
    const fd = openSync(file, 'w', 0o600);
    let got = 0;
    try {
      while (got < size) {
        const chunk = await stdin.readSome(Math.min(size - got, stdin.highWater));
        if (!chunk)
          return {
            out: `Failure [INSTALL_FAILED_INVALID_APK: the stream ended after ${got} of ${size} bytes]\n`,
            code: 1,
          };
        writeSync(fd, chunk);
        got += chunk.length;
      }
    } finally {
      closeSync(fd);
    }
    return await installApk(dev, file, flags);
  } finally {
    rmSync(file, { force: true });
  }
}

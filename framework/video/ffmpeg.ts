import { execFile } from 'node:child_process';
import { accessSync, constants, copyFileSync, chmodSync, mkdirSync, existsSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { NestwrightError } from '../core/errors.js';

/**
 * Where the ffmpeg that encodes videos is: `NESTWRIGHT_FFMPEG` when set, else the binary the
 * `@ffmpeg-installer/ffmpeg` dependency ships (its per-platform package carries a static build
 * with libvpx inside the npm tarball: nothing is downloaded at run time), else `ffmpeg` on PATH.
 *
 * The package's only install script marks the binary executable; npm 11 runs it only when
 * package.json's `allowScripts` approves it. When it did not run, the binary is copied once into
 * `~/.cache/nestwright/ffmpeg-<version>/` and marked executable there (node_modules may be
 * read-only).
 */
export function ffmpegPath(): string {
  const env = process.env.NESTWRIGHT_FFMPEG;
  if (env) return env;
  const shipped = installed();
  if (shipped) return shipped;
  return 'ffmpeg';
}

let cached: string | null | undefined;

function installed(): string | null {
  if (cached !== undefined) return cached;
  cached = null;
  try {
    const req = createRequire(import.meta.url);
    const pkg = req('@ffmpeg-installer/ffmpeg') as { path: string; version: string };
    try {
      accessSync(pkg.path, constants.X_OK);
      cached = pkg.path;
    } catch {
      const dir = join(homedir(), '.cache', 'nestwright', `ffmpeg-${pkg.version}`);
      const copy = join(dir, 'ffmpeg');
      if (!existsSync(copy)) {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        // A private name per process, renamed into place: two workers copying at once both end well.
        copyFileSync(pkg.path, `${copy}.${process.pid}.part`);
        chmodSync(`${copy}.${process.pid}.part`, 0o755);
        renameSync(`${copy}.${process.pid}.part`, copy);
      }
      chmodSync(copy, 0o755);
      cached = copy;
    }
  } catch {
    // The dependency is absent on this platform (no per-platform package): PATH's ffmpeg, if any.
  }
  return cached;
}

/** Run ffmpeg with `args`; its last lines of output in the error when it fails. */
export function runFfmpeg(args: string[], timeoutMs = 120_000): Promise<void> {
  const bin = ffmpegPath();
  return new Promise((resolve, reject) => {
    execFile(
      bin,
      ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args],
      { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (!error) return resolve();
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        reject(
          new NestwrightError(
            'use.video',
            missing
              ? `no ffmpeg to encode the video: ${bin} was not found. Install the @ffmpeg-installer/ffmpeg dependency (it ships one), or set NESTWRIGHT_FFMPEG to an ffmpeg with libvpx.`
              : `ffmpeg (${bin}) failed to encode the video: ${String(stderr).trim().split('\n').slice(-3).join(' / ') || error.message}`,
            { code: 'INTERNAL', cause: error },
          ),
        );
      },
    );
  });
}

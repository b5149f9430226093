import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from './ffmpeg.js';

/**
 * Frames to a WebM file (VP8), the format and codec of Playwright's videos: Chromium, Firefox and
 * Playwright's HTML report play it, and Allure shows it.
 *
 * What does the encoding, and why: ffmpeg with libvpx, from the `@ffmpeg-installer/ffmpeg`
 * dependency (a static build shipped inside its per-platform npm package; ffmpeg.ts finds it).
 * Considered:
 * - **ffmpeg.wasm** (`@ffmpeg/ffmpeg`): its core (~30 MB of wasm) is fetched from a CDN at run time
 *   unless vendored, needs a worker and SharedArrayBuffer for speed, and encodes VP8 several times
 *   slower than the native build; nothing may be downloaded while tests run.
 * - **a pure-JS WebM muxer** (`webm-muxer`, `webm-writer`): they mux, they do not encode; VP8
 *   frames must come from a browser's WebCodecs/canvas, which Node lacks.
 * - **Debian's ffmpeg** (`apt-get install ffmpeg`): fine where it is, so an `ffmpeg` on PATH (or
 *   `NESTWRIGHT_FFMPEG`) is used when the dependency has no binary for the platform, but an npm
 *   install alone must be enough, as for every other part of nestwright.
 * - **Chromium's MediaRecorder**: needs a browser started per encode (seconds) and real-time
 *   playback of the frames; Chromium is an optional extra here, not a requirement.
 *
 * The frames come at the times the picture changed (variable frame rate): each is shown until the
 * next, so a minute of a screen that changes a dozen times is a dozen frames, not 1 500.
 */

/** One picture and when it appeared, ms from the video's start. */
export interface VideoFrame {
  atMs: number;
  png: Buffer;
}

export interface EncodeOptions {
  /** The video's length, ms: the last frame stays until then. */
  durationMs: number;
  /** The frame size the video has: the picture is placed top left, the rest grey (Playwright's rule). */
  size: { width: number; height: number };
}

/** Even sizes: VP8 in 4:2:0 needs them. */
const even = (n: number) => Math.max(2, n + (n % 2));

/** The filter that fits the picture into `size`: scaled down keeping its aspect, padded grey, cropped. */
function fit(size: { width: number; height: number }): string {
  const w = even(size.width);
  const h = even(size.height);
  return `scale=w='min(${w},iw)':h='min(${h},ih)':force_original_aspect_ratio=decrease,pad=${w}:${h}:0:0:gray,crop=${w}:${h}:0:0,format=yuv420p`;
}

/** VP8 as Playwright encodes it (realtime, one thread), timestamps kept. */
const VP8 = [
  '-c:v',
  'libvpx',
  '-qmin',
  '0',
  '-qmax',
  '50',
  '-crf',
  '8',
  '-b:v',
  '1M',
  '-deadline',
  'realtime',
  '-cpu-used',
  '8',
  '-threads',
  '1',
  '-g',
  '30',
  '-vsync',
  'vfr',
  '-f',
  'webm',
];

/** Encode `frames` (PNG, in time order) into a WebM file at `out`. One ffmpeg run. */
export async function encodeWebm(frames: VideoFrame[], out: string, opts: EncodeOptions): Promise<void> {
  if (frames.length === 0) throw new Error('encodeWebm: no frames');
  const dir = await mkdtemp(join(tmpdir(), 'nestwright-video-'));
  try {
    const lines = ['ffconcat version 1.0'];
    for (let i = 0; i < frames.length; i++) {
      const name = `f${String(i).padStart(5, '0')}.png`;
      await writeFile(join(dir, name), frames[i]!.png);
      // The first picture is shown from 0; each until the next one appeared; the last until the end.
      const start = i === 0 ? 0 : frames[i]!.atMs;
      const end = i + 1 < frames.length ? frames[i + 1]!.atMs : Math.max(opts.durationMs, start + 40);
      lines.push(`file '${name}'`, `duration ${(Math.max(1, end - start) / 1000).toFixed(3)}`);
    }
    // The concat demuxer gives the last entry's duration only when a file follows it.
    lines.push(`file 'f${String(frames.length - 1).padStart(5, '0')}.png'`);
    await writeFile(join(dir, 'frames.txt'), lines.join('\n') + '\n');
    await runFfmpeg(['-f', 'concat', '-safe', '0', '-i', join(dir, 'frames.txt'), '-vf', fit(opts.size), ...VP8, out]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A video the runtime made itself (Appium's MP4) as WebM fitted into `size`, or (null) scaled down
 * to fit 800×800 and kept at that size. One ffmpeg run.
 */
export async function transcodeToWebm(
  video: Buffer,
  out: string,
  size: { width: number; height: number } | null,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'nestwright-video-'));
  try {
    const input = join(dir, 'input');
    await writeFile(input, video);
    const filter = size
      ? fit(size)
      : "scale=w='min(800,iw)':h='min(800,ih)':force_original_aspect_ratio=decrease,pad=ceil(iw/2)*2:ceil(ih/2)*2,format=yuv420p";
    await runFfmpeg(['-i', input, '-an', '-vf', filter, ...VP8, out]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

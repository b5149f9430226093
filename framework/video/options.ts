import { z } from 'zod';
import { NestwrightError } from '../core/errors.js';

/**
 * When a test's video is recorded and kept: Playwright's `video` modes. 'off' (default), 'on',
 * 'retain-on-failure' (kept only when the test did not end as expected), 'on-first-retry'
 * (recorded on the first retry only). docs/video.md.
 */
export type VideoMode = 'off' | 'on' | 'retain-on-failure' | 'on-first-retry';

/** The modes, in order. */
export const VIDEO_MODES = ['off', 'on', 'retain-on-failure', 'on-first-retry'] as const satisfies readonly VideoMode[];

const ModeSchema = z.enum(VIDEO_MODES);
const SizeSchema = z.strictObject({
  width: z.number().int().min(16).max(4096),
  height: z.number().int().min(16).max(4096),
});

const ObjectSchema = z.strictObject({ mode: ModeSchema, size: SizeSchema.optional() });

/** `use.video`'s values, as option-check.ts walks them (keys and modes) and {@link videoSettings} checks them whole. */
export const VideoOptionSchema = z.union([ModeSchema, ObjectSchema]);

/**
 * `use.video`: a mode, or `{ mode, size }` with the box the picture is scaled down to fit
 * (default 800×800, as Playwright's), as Playwright's `video` option. docs/video.md.
 *
 * @example
 * ```ts
 * import { test, type VideoOption } from 'nestwright';
 *
 * const video: VideoOption = { mode: 'retain-on-failure', size: { width: 360, height: 800 } };
 * test.use({ video });
 * ```
 */
export type VideoOption = VideoMode | { mode: VideoMode; size?: { width: number; height: number } };

/** What the feature runs with: the mode and the box (null: the screen scaled down to fit 800×800, the video that size). */
export interface VideoSettings {
  mode: VideoMode;
  size: { width: number; height: number } | null;
}

/** Playwright's default box: the picture scaled down to fit 800×800. */
export const DEFAULT_VIDEO_SIZE = { width: 800, height: 800 };

/** `use.video` checked whole (modes, keys, sizes): OPTION_INVALID naming `use.video` and what to write. */
export function videoSettings(option: unknown): VideoSettings {
  const value = option ?? 'off';
  const parsed = (typeof value === 'object' ? ObjectSchema : ModeSchema).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `use.video.${issue.path.join('.')}` : 'use.video';
    throw new NestwrightError(
      where,
      `${issue.message}. Write video: 'off' | 'on' | 'retain-on-failure' | 'on-first-retry', or { mode, size: { width, height } } (whole pixels, 16–4096).`,
      { code: 'OPTION_INVALID' },
    );
  }
  const v = parsed.data;
  if (typeof v === 'string') return { mode: v, size: null };
  return { mode: v.mode, size: v.size ?? null };
}

/**
 * Whether this run of the test records (Playwright's rules): 'on' and 'retain-on-failure' always,
 * 'on-first-retry' on the first retry only, 'off' never.
 */
export function records(mode: VideoMode, retry: number): boolean {
  return mode === 'on' || mode === 'retain-on-failure' || (mode === 'on-first-retry' && retry === 1);
}

/** Whether a recording is kept once the test ended: 'retain-on-failure' only when the test did not end as expected. */
export function keeps(mode: VideoMode, failed: boolean): boolean {
  return mode === 'on' || mode === 'on-first-retry' || (mode === 'retain-on-failure' && failed);
}

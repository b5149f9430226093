import { z } from 'zod';
import { defineTool } from '../tool.js';
import { InstanceIdSchema, PackageNameSchema, SpaceIdSchema } from '../common.js';

/**
 * The `screen_record` extension: a recording of one instance's own display — what the container
 * shows of that instance, not the whole device — as timestamped frames, for a test's video
 * (`use.video`). A NestSpace container renders each instance into its own virtual display and can
 * copy that surface; the simulator produces a frame from its screen each time the picture of the
 * instance changes. The runtime only captures: the client encodes the frames (WebM) itself, so a
 * runtime needs no video encoder and a recording that is not kept costs no transfer.
 *
 * Three calls: `screen_record_start` begins sampling, `screen_record_stop` ends it (and drops it
 * with `discard`), `screen_record_frames` reads the frames page by page (the last page releases
 * the recording). A recording also ends when its instance is stopped and removed.
 */

const RecordingIdSchema = z.string().min(1).max(64);

/** The box a recording's frames fit in (`use.video.size`): the picture is scaled down to fit, keeping its aspect. */
export const RecordSizeSchema = z.object({
  width: z.number().int().min(16).max(4096),
  height: z.number().int().min(16).max(4096),
});
export type RecordSize = z.infer<typeof RecordSizeSchema>;

export const screen_record_start = defineTool({
  name: 'screen_record_start',
  title: 'Record the screen of {package}',
  description:
    "Start recording an instance's own display: a frame each time its picture changes, sampled at most `fps` times a second, scaled to fit `size`. One recording per instance at a time.",
  extension: true,
  group: 'screen_record',
  input: z.object({
    space_id: SpaceIdSchema,
    package: PackageNameSchema,
    instance: InstanceIdSchema.optional().describe('The instance (from space_launch); default "0"'),
    size: RecordSizeSchema.optional().describe('The box the frames fit in; default 800×800'),
    fps: z.number().int().min(1).max(30).default(10).describe('At most this many samples a second'),
  }),
  result: z.object({
    recording_id: RecordingIdSchema,
    width: z.number().int().describe('Width of the frames, px'),
    height: z.number().int().describe('Height of the frames, px'),
    started_at: z.number().int().describe("The runtime's wall time when recording began, epoch ms"),
  }),
});

export const screen_record_stop = defineTool({
  name: 'screen_record_stop',
  title: 'Stop recording {recording_id}',
  description:
    'Stop a recording. With `discard` its frames are dropped at once; otherwise read them with screen_record_frames.',
  extension: true,
  group: 'screen_record',
  input: z.object({
    recording_id: RecordingIdSchema,
    discard: z.boolean().default(false).describe('Drop the frames (a video that is not kept)'),
  }),
  result: z.object({
    frames: z.number().int().describe('How many frames were captured'),
    duration_ms: z.number().int().describe('From start to stop, ms'),
    width: z.number().int(),
    height: z.number().int(),
    truncated: z.boolean().describe('The frame limit was reached: later changes were not captured'),
    video: z
      .object({ mime: z.enum(['video/mp4', 'video/webm']), data: z.string().describe('base64') })
      .nullable()
      .optional()
      .describe(
        "A runtime that encodes on the device (Appium's screen recording) answers the whole video here instead of frames (`frames` is then 0)",
      ),
  }),
});

export const RecordedFrameSchema = z.object({
  at_ms: z.number().int().min(0).describe('When the picture appeared, ms after started_at'),
  png: z.string().describe('The frame, base64 PNG of width×height'),
});
export type RecordedFrame = z.infer<typeof RecordedFrameSchema>;

export const screen_record_frames = defineTool({
  name: 'screen_record_frames',
  title: 'Read the frames of {recording_id}',
  description:
    'Frames of a stopped recording from index `from`, as many as fit a page; `next` is the index to ask for next, or null after the last page (the recording is then released).',
  extension: true,
  group: 'screen_record',
  input: z.object({
    recording_id: RecordingIdSchema,
    from: z.number().int().min(0).default(0),
  }),
  result: z.object({
    frames: z.array(RecordedFrameSchema),
    next: z.number().int().nullable(),
  }),
});

/** The `screen_record` tools, in the order of docs/protocol.md. */
export const screenRecordTools = [screen_record_start, screen_record_stop, screen_record_frames] as const;

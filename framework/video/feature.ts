import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { InstanceFeature, TestEnd } from '../core/lifecycle.js';
import { NestwrightError } from '../core/errors.js';
import type { InstancePort } from '../core/port.js';
import { encodeWebm, transcodeToWebm, type VideoFrame } from './encode.js';
import { DEFAULT_VIDEO_SIZE, keeps, records, type VideoSettings } from './options.js';
import { stepsVtt } from './vtt.js';

/** The protocol extension a runtime offers for video (device-runtime/protocol/tools/screen-record.ts). */
export const VIDEO_EXTENSION = 'screen_record';
/** The attachment name of every video, as Playwright names its own; the trajectory's `failure.video` lists them. */
export const VIDEO_ATTACHMENT = 'video';
/** The step titles at their times, beside each video. */
export const VIDEO_STEPS_ATTACHMENT = 'video steps';

/** How far the device's clock may be from ours for its start time to place the steps, ms. */
const CLOCK_SLACK_MS = 1000;

/** One instance's recording in progress (or stopped early, when the instance closed first). */
interface Recording {
  id: string;
  /** Local time (epoch ms) the recording's first moment stands for: steps are placed from it. */
  zero: number;
  /** The frames' size, the video's when `size` was not given (Playwright's default: the screen fitted into 800×800). */
  frame: { width: number; height: number };
  stopped: { durationMs: number; frames: number } | null;
  /** A video the runtime encoded itself (Appium), handed over on stop. */
  video: { mime: string; data: string } | null;
}

/**
 * `use.video` as a lifecycle feature: every instance the test launches is recorded from its
 * launch (its own display, through the runtime's `screen_record` extension), and when the test
 * ends each recording is kept or dropped by the mode (Playwright's rules, options.ts). A kept one
 * is encoded to WebM and attached as `video` (Playwright's HTML report plays it; the Allure
 * reporter copies it), with its step titles as a WebVTT track (`video steps`) beside it. A dropped
 * one is discarded on the device: no frame is sent or encoded.
 *
 * A runtime without the extension fails the launch with NOT_SUPPORTED naming it.
 */
export function videoFeature(settings: VideoSettings, retry: number): InstanceFeature | null {
  if (!records(settings.mode, retry)) return null;
  const recordings = new Map<InstancePort, Recording>();
  let seq = 0;

  // Stopping twice is how a recording stopped early (its instance closed) is dropped at the end.
  const stop = async (instance: InstancePort, rec: Recording, discard: boolean) => {
    if (rec.stopped && !discard) return;
    const r = await instance.wrap('use.video', {}, (call) =>
      instance.call(call, 'screen_record_stop', { recording_id: rec.id, discard }),
    );
    rec.stopped ??= { durationMs: r.duration_ms, frames: r.frames };
    rec.video ??= r.video ?? null;
  };

  return {
    name: 'video',
    launched: async (instance) => {
      if (!(await instance.offers(VIDEO_EXTENSION))) {
        throw new NestwrightError(
          'use.video',
          `this device runtime does not offer screen_record_start (NOT_SUPPORTED): it lacks the \`${VIDEO_EXTENSION}\` extension, so ${instance.who()}'s screen cannot be recorded. Set video: 'off', or run on the simulator or a runtime that lists "${VIDEO_EXTENSION}" in runtime_info.extensions.`,
          { code: 'NOT_SUPPORTED' },
        );
      }
      const before = Date.now();
      const r = await instance.wrap('use.video', {}, (call) =>
        instance.call(call, 'screen_record_start', {
          space_id: instance.spaceId,
          package: instance.pkg,
          ...(instance.instance ? { instance: instance.instance } : {}),
          size: settings.size ?? DEFAULT_VIDEO_SIZE,
        }),
      );
      const after = Date.now();
      // The video's first moment on this machine's clock: the device's own start when its clock
      // agrees with ours (the simulator, a synced phone), else the middle of the call.
      const zero =
        r.started_at >= before - CLOCK_SLACK_MS && r.started_at <= after + CLOCK_SLACK_MS
          ? Math.min(Math.max(r.started_at, before), after)
          : Math.round((before + after) / 2);
      const frame = { width: r.width, height: r.height };
      recordings.set(instance, { id: r.recording_id, zero, frame, stopped: null, video: null });
    },
    // An instance closed before the test ends (app.close()) keeps its recording to the end of
    // the test; nothing is kept or dropped yet: that needs the outcome.
    closing: async (instance) => {
      const rec = recordings.get(instance);
      if (rec) await stop(instance, rec, false).catch(() => {});
    },
    ended: async (end) => {
      const keep = keeps(settings.mode, end.outcome.failed);
      let first: unknown = null;
      for (const [instance, rec] of recordings) {
        try {
          await stop(instance, rec, !keep);
          if (keep) await attach(end, instance, rec, settings, ++seq);
        } catch (e) {
          first ??= e;
        }
      }
      recordings.clear();
      if (first) throw first;
    },
  };
}

/** Read the frames, encode, attach the video and its steps. */
async function attach(
  end: TestEnd,
  instance: InstancePort,
  rec: Recording,
  settings: VideoSettings,
  n: number,
): Promise<void> {
  const durationMs = rec.stopped?.durationMs ?? 0;
  const file = end.outputPath(n === 1 ? 'video.webm' : `video-${n}.webm`);
  await mkdir(dirname(file), { recursive: true });
  if (rec.video) {
    await transcodeToWebm(Buffer.from(rec.video.data, 'base64'), file, settings.size);
  } else {
    const frames: VideoFrame[] = [];
    let from: number | null = 0;
    while (from !== null) {
      const page = await instance.wrap('use.video', {}, (call) =>
        instance.call(call, 'screen_record_frames', { recording_id: rec.id, from: from! }),
      );
      for (const f of page.frames) frames.push({ atMs: f.at_ms, png: Buffer.from(f.png, 'base64') });
      from = page.next;
    }
    if (frames.length === 0) return;
    await encodeWebm(frames, file, { durationMs, size: settings.size ?? rec.frame });
  }
  const name = n === 1 ? VIDEO_ATTACHMENT : `${VIDEO_ATTACHMENT} ${instance.who()}`;
  await end.attach({ name, contentType: 'video/webm', path: file });
  end.failureArtifact('video', name);
  const steps = end.steps.filter((s) => s.instance === null || s.instance === instance.instance);
  await end.attach({
    name: n === 1 ? VIDEO_STEPS_ATTACHMENT : `${VIDEO_STEPS_ATTACHMENT} ${instance.who()}`,
    contentType: 'text/vtt',
    body: stepsVtt(steps, rec.zero, durationMs),
  });
}

import { toolError } from '../../protocol/index.js';
import { SimError } from '../core/sim-error.js';
import { ScreenRecorder } from '../ui/recorder.js';
import type { HandlerGroup, SpaceLookup } from './types.js';

type RecordTools = 'screen_record_start' | 'screen_record_stop' | 'screen_record_frames';

/** The screen_record tools find the instance in its space; the recordings are the runtime's. */
export type ScreenRecordHost = SpaceLookup;

/** At most this many recordings at once per runtime (started and not yet read or dropped). */
const MAX_RECORDINGS = 32;
/** About this much base64 per screen_record_frames page (well under the transport's 40 MB). */
const PAGE_BYTES = 4 * 1024 * 1024;
const DEFAULT_SIZE = { width: 800, height: 800 };

interface Recording {
  rec: ScreenRecorder;
  /** `space/package#instance`: one recording per instance at a time. */
  owner: string;
}

const recordings = new WeakMap<ScreenRecordHost, Map<string, Recording>>();
let counter = 0;

function of(rt: ScreenRecordHost): Map<string, Recording> {
  let m = recordings.get(rt);
  if (!m) recordings.set(rt, (m = new Map()));
  return m;
}

function find(rt: ScreenRecordHost, id: string, tool: string): Recording {
  const r = of(rt).get(id);
  if (!r) {
    throw new SimError(
      toolError('INVALID_ARGUMENT', `${tool}: no recording ${JSON.stringify(id)}`, {
        hint: 'Use the recording_id screen_record_start answered; a recording is released after its last page of frames is read, or when stopped with discard.',
      }),
    );
  }
  return r;
}

/**
 * The `screen_record` extension on the simulator: a {@link ScreenRecorder} samples the space's
 * display while the instance is in front and keeps a frame per change; stopping ends sampling,
 * and the frames are rendered to PNG only as they are read, so a dropped video costs no pixels.
 */
export const screenRecordHandlers: HandlerGroup<RecordTools, ScreenRecordHost> = {
  screen_record_start: (args, rt) => {
    const space = rt.space(args.space_id);
    space.app(args.package);
    const inst = space.instance(args.package, args.instance ?? '0');
    const owner = `${args.space_id}/${inst.key}`;
    const all = of(rt);
    for (const [id, r] of all) {
      if (r.owner === owner && r.rec.stoppedAt === null) {
        throw new SimError(
          toolError('INVALID_ARGUMENT', `screen_record_start: ${inst.key} is already being recorded (${id})`, {
            hint: 'Stop that recording first (screen_record_stop).',
          }),
        );
      }
    }
    if (all.size >= MAX_RECORDINGS) {
      throw new SimError(
        toolError('INVALID_ARGUMENT', `screen_record_start: ${MAX_RECORDINGS} recordings are open`, {
          hint: 'Stop recordings with discard, or read their frames to the end, to release them.',
        }),
      );
    }
    const shown = (): boolean | 'gone' => {
      const s = rt.space(args.space_id);
      if (!s.instances.has(inst.key)) return 'gone';
      return s.foreground?.key === inst.key;
    };
    const rec = new ScreenRecorder(space.screen, shown, args.size ?? DEFAULT_SIZE, args.fps);
    const id = `rec_${++counter}`;
    all.set(id, { rec, owner });
    return { recording_id: id, width: rec.width, height: rec.height, started_at: rec.startedAt };
  },

  screen_record_stop: (args, rt) => {
    const { rec } = find(rt, args.recording_id, 'screen_record_stop');
    rec.sample();
    rec.stop();
    if (args.discard) of(rt).delete(args.recording_id);
    return {
      frames: args.discard ? 0 : rec.frames.length,
      duration_ms: Math.max(0, (rec.stoppedAt ?? rec.startedAt) - rec.startedAt),
      width: rec.width,
      height: rec.height,
      truncated: rec.truncated,
    };
  },

  screen_record_frames: (args, rt) => {
    const { rec } = find(rt, args.recording_id, 'screen_record_frames');
    if (rec.stoppedAt === null) {
      throw new SimError(
        toolError('INVALID_ARGUMENT', `screen_record_frames: ${args.recording_id} is still recording`, {
          hint: 'Stop it first (screen_record_stop), then read its frames.',
        }),
      );
    }
    const frames: Array<{ at_ms: number; png: string }> = [];
    let bytes = 0;
    let i = args.from;
    for (; i < rec.frames.length && (frames.length === 0 || bytes < PAGE_BYTES); i++) {
      const png = rec.png(i).toString('base64');
      bytes += png.length;
      frames.push({ at_ms: rec.frames[i]!.at, png });
    }
    const next = i < rec.frames.length ? i : null;
    if (next === null) of(rt).delete(args.recording_id);
    return { frames, next };
  },
};

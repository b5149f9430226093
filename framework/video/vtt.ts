import type { TrajectoryStep } from '../core/trajectory-schema.js';

/** The shortest a cue shows, ms: a step that took 5 ms is still readable. */
const MIN_CUE_MS = 800;

function stamp(ms: number): string {
  const t = Math.max(0, Math.round(ms));
  const h = Math.floor(t / 3_600_000);
  const m = Math.floor(t / 60_000) % 60;
  const s = Math.floor(t / 1000) % 60;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(t % 1000, 3)}`;
}

/**
 * The test's steps as a WebVTT track for the video: each step's title from when it began (ms
 * after `zero`, the video's first moment) for as long as it ran (at least {@link MIN_CUE_MS}),
 * with `healed`/`failed` marked. A player shows them as subtitles over the video; the report
 * lists the file beside it. Steps that began before the recording (or after its end) are left out.
 */
export function stepsVtt(steps: readonly TrajectoryStep[], zero: number, durationMs: number): string {
  const cues: string[] = [];
  for (const s of steps) {
    const start = s.startedAt - zero;
    if (start < 0 || start > durationMs) continue;
    const end = Math.min(Math.max(start + s.durationMs, start + MIN_CUE_MS), Math.max(durationMs, start + MIN_CUE_MS));
    const mark = s.result === 'failed' ? ' ✗' : s.source === 'healed' ? ' (healed)' : '';
    const text = `${s.title}${mark}`.replace(/-->/g, '→').replace(/\n+/g, ' ');
    cues.push(`${cues.length + 1}\n${stamp(start)} --> ${stamp(end)}\n${text}`);
  }
  return `WEBVTT\n\n${cues.join('\n\n')}${cues.length ? '\n' : ''}`;
}

import { SCREEN } from './layout.js';
import type { Frame } from './frame.js';
import { paintFrame, type PaintOp } from './paint.js';
import type { SimScreen } from './screen.js';
import { renderPng } from './screenshot.js';

/** At most this many frames per recording (10 minutes of a screen that changes every 100 ms). */
export const MAX_FRAMES = 6000;

/**
 * One recording of an instance's picture on its space's display (extension `screen_record`).
 *
 * The recorder sees every frame the screen composes for a snapshot (each observation, each
 * action's target lookup: every state the test saw), and samples `fps` times a second between
 * them (animations, toasts, work the app does while nobody looks). Each frame is painted into
 * drawing commands;
 * only when those differ from the last sample's is a frame kept, as its commands, not as pixels.
 * Pixels are made at the end, and only for a recording that is read (`png`): a test whose video
 * is dropped pays for the samples alone (a compose and a paint, ~1 ms, `fps` times a second), not
 * for rasterizing and PNG-encoding every change. While another instance is in front of the
 * display, the recording holds the instance's last picture (its own display does not change).
 */
export class ScreenRecorder {
  readonly frames: Array<{ at: number; ops: PaintOp[] }> = [];
  readonly startedAt: number;
  readonly scale: number;
  readonly width: number;
  readonly height: number;
  truncated = false;
  stoppedAt: number | null = null;
  private last = '';
  private timer: NodeJS.Timeout | null;
  private readonly unwatch: () => void;

  constructor(
    private readonly screen: SimScreen,
    /** Whether the instance is on its display now (in front); false once it is gone. */
    private readonly shown: () => boolean | 'gone',
    size: { width: number; height: number },
    fps: number,
  ) {
    this.scale = Math.min(1, size.width / SCREEN.width, size.height / SCREEN.height);
    this.width = Math.max(1, Math.round(SCREEN.width * this.scale));
    this.height = Math.max(1, Math.round(SCREEN.height * this.scale));
    this.startedAt = screen.now;
    this.unwatch = screen.watch((frame) => this.take(() => frame));
    this.sample();
    this.timer = setInterval(() => this.sample(), Math.round(1000 / fps));
    this.timer.unref();
  }

  /** Take a sample now: keep the frame when the instance's picture changed. */
  sample(): void {
    this.take(() => this.screen.frame());
  }

  /** Keep `frame()`'s picture when the instance is in front and it changed. */
  private take(frame: () => Frame): void {
    if (this.stoppedAt !== null) return;
    let state: boolean | 'gone';
    try {
      state = this.shown();
    } catch {
      state = 'gone';
    }
    if (state === 'gone') return this.stop();
    if (!state) return;
    const ops = paintFrame(frame());
    const key = JSON.stringify(ops);
    if (key === this.last) return;
    if (this.frames.length >= MAX_FRAMES) {
      this.truncated = true;
      return;
    }
    this.last = key;
    this.frames.push({ at: Math.max(0, this.screen.now - this.startedAt), ops });
  }

  stop(): void {
    if (this.stoppedAt !== null) return;
    this.stoppedAt = this.screen.now;
    if (this.timer) clearInterval(this.timer);
    this.unwatch();
    this.timer = null;
    this.last = '';
  }

  /** Frame `i` as a PNG of width×height (rendered now: ~10 ms at a third of the screen). */
  png(i: number): Buffer {
    return renderPng(this.frames[i]!.ops, this.scale).png;
  }
}

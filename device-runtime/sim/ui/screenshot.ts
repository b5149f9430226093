import { createHash } from 'node:crypto';
import type { ScreenRegion } from '../../protocol/index.js';
import { SCREEN } from './layout.js';
import { encodePng } from './png.js';
import { paintFrame, type PaintOp } from './paint.js';
import { hex, Raster } from './raster.js';
import type { SimScreen } from './screen.js';

export interface Screenshot {
  png: Buffer;
  width: number;
  height: number;
  /** Hex sha256 of the PNG bytes. */
  sha256: string;
  snapshotId: string | null;
}

/**
 * Where the picture shows system UI (extension `screen_regions`): the status bar (its clock and
 * battery are drawn fixed here, but a phone's change) and the navigation bar. The simulator
 * draws no caret and no scrollbars, so it names none.
 */
export const SYSTEM_BARS: ScreenRegion[] = [
  { kind: 'status_bar', bounds: [0, 0, SCREEN.width, SCREEN.statusBar] },
  { kind: 'navigation_bar', bounds: [0, SCREEN.height - SCREEN.navBar, SCREEN.width, SCREEN.height] },
];

/** The last PNG per screen and scale: an unchanged screen is not rasterized again. */
const cache = new WeakMap<SimScreen, Map<number, { key: string; shot: Screenshot }>>();

/**
 * The last few PNGs by hex sha256, so the MCP layer can attach the very image a ui_observe
 * `screenshot` hash names (bounded: at most RECENT_MAX PNGs, ~100–300 KB each at scale 1).
 */
const recent = new Map<string, Buffer>();
const RECENT_MAX = 16;

/** A PNG rendered lately by {@link screenshotFor}, by the hex sha256 of its bytes. */
export function screenshotBySha256(sha256: string): Buffer | undefined {
  return recent.get(sha256);
}

function remember(shot: Screenshot): void {
  recent.delete(shot.sha256);
  recent.set(shot.sha256, shot.png);
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!);
}

/** Rasterize and encode a frame's paint commands, uncached (benchmarks call this directly). */
export function renderPng(ops: PaintOp[], scale: number): { png: Buffer; width: number; height: number } {
  const r = rasterize(ops, scale);
  return { png: encodePng(r.width, r.height, r.scanlines), width: r.width, height: r.height };
}

function rasterize(ops: PaintOp[], scale: number): Raster {
  const r = new Raster(SCREEN.width, SCREEN.height, scale);
  // At least one stored pixel per font pixel; fractional sizes keep text widths as laid out.
  const px = (n: number) => Math.max(n, 1 / scale);
  for (const o of ops) {
    if (o.op === 'fill') r.fill(o.b[0], o.b[1], o.b[2], o.b[3], hex(o.c), o.a ?? 1);
    else if (o.op === 'outline') r.outline(o.b[0], o.b[1], o.b[2], o.b[3], hex(o.c), px(3));
    else if (o.op === 'image') r.image(o.b, o.clip, o.pic);
    else r.text(o.x, o.y, o.t, px(o.px), hex(o.c), o.maxX);
  }
  return r;
}

/**
 * A PNG of the space display rendered from the same frame the node tree comes from (status and
 * navigation bars, dialogs dimming what is behind, the keyboard), at `scale` of 1080×2400.
 * Cost: ~tens of ms at scale 1 for a new frame, near zero for an unchanged one.
 */
export function screenshotFor(screen: SimScreen, scale: number): Screenshot {
  const snap = screen.snapshot(true);
  const ops = paintFrame(snap.frame);
  const key = createHash('sha256').update(JSON.stringify(ops)).digest('hex');
  let perScale = cache.get(screen);
  if (!perScale) cache.set(screen, (perScale = new Map()));
  const hit = perScale.get(scale);
  if (hit && hit.key === key) {
    remember(hit.shot);
    return { ...hit.shot, snapshotId: snap.id };
  }
  const { png, width, height } = renderPng(ops, scale);
  const shot: Screenshot = {
    png,
    width,
    height,
    sha256: createHash('sha256').update(png).digest('hex'),
    snapshotId: snap.id,
  };
  perScale.set(scale, { key, shot });
  remember(shot);
  return shot;
}
